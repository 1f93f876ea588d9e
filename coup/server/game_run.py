"""A game at a table: a new game's run (secret seed, commitment), its event rows and
its record (the bots' moves: `bot_moves.py`)."""

from __future__ import annotations

import hashlib
import json
import secrets
from typing import TYPE_CHECKING, Any

import coup
from coup.server.messages import HandoffEntry
from coup.server.protocol import ProtocolError
from coup.server.sitters import Seat
from coup.server.table import GameRun, Table

if TYPE_CHECKING:
    from coup.store import SqlStore


def commitment(seed: int) -> str:
    return hashlib.sha256(str(seed).encode()).hexdigest()


def new_run(table: Table, taken: list[Seat], version: int) -> GameRun:
    """Deal a new game for the taken seats (already closed up to 0..n-1)."""
    n = len(taken)
    members = [s.member for s in taken]
    if table.last_winner in members:
        first = members.index(table.last_winner)  # a rematch: the last winner starts
    else:
        first = secrets.randbelow(n)
    seed = secrets.randbits(128)
    draft = bool(table.settings["draft"]) if n == 2 else None
    state = coup.new_game(
        players=[s.name for s in taken],
        seed=seed,
        characters=str(table.settings["characters"]),
        draft=draft,
        first=first,
        reformation=bool(table.settings.get("reformation", False)),
    )
    header: dict[str, Any] = {**state.record()}  # the record and the table's own keys
    header.pop("moves", None)
    header["commitment"] = commitment(seed)
    header["table"] = table.id
    header["game"] = table.games + 1
    return GameRun(table.games + 1, state, header, members, [], [], version)


def people(table: Table, run: GameRun) -> list[int]:
    """The game's seats a person holds (also one a bot plays for them since they left or
    handed it over): the coach's analyses queued when the game ends."""
    out = []
    for seat, member in enumerate(run.members):
        sitter = table.seat(member)
        if sitter is not None and sitter.kind == "human":
            out.append(seat)
    return out


def event_move(row: dict[str, Any]) -> dict[str, Any]:
    """A stored event as a record move."""
    move: dict[str, Any] = {"seat": row["seat"], "move": row["move"]}
    if row.get("draw"):
        move["draw"] = json.loads(row["draw"])
    return move


def event_timeouts(events: list[dict[str, Any]]) -> list[dict[str, int]]:
    """The timeouts of stored event rows, as `GameRun.timeouts` holds them."""
    return [
        {"index": int(e["step"]), "seat": int(e["seat"]), "seq": int(e["seq"])}
        for e in events
        if e["timeout"]
    ]


def handoffs_of(rows: list[dict[str, Any]]) -> list[HandoffEntry]:
    """Stored handoff rows (in order) as `GameRun.handoffs` holds them."""
    return [{"index": int(h["step"]), "seat": int(h["seat"]), "reason": h["reason"]} for h in rows]


def handoff_rows(run: GameRun, before: int) -> list[dict[str, Any]]:
    """The run's handoffs from the `before`-th on, as rows to store."""
    return [
        {"game": run.number, "n": n, "step": h["index"], "seat": h["seat"], "reason": h["reason"]}
        for n, h in enumerate(run.handoffs[before:], start=before)
    ]


def event_row(
    run: GameRun, seq: int, move: dict[str, Any], at: int, timeout: bool, step: int | None
) -> dict[str, Any]:
    draw = move.get("draw")
    return {
        "game": run.number,
        "seq": seq,
        "seat": move["seat"],
        "move": move["move"],
        "draw": json.dumps(draw) if draw else None,
        "timeout": timeout,
        "step": step if timeout else None,
        "at": at,
    }


async def record(store: SqlStore, table: Table, number: int) -> dict[str, Any]:
    """Game `number`'s coup-record/1, once it is over (the seed is secret until then)."""
    run = table.run
    if run is not None and run.number == number:
        if not run.state.over:
            raise ProtocolError("game_running", "the game is still running", 409)
        return run.record()
    return await stored_record(store, table.id, number)


async def stored_record(store: SqlStore, table_id: str, number: int) -> dict[str, Any]:
    """Game `number`'s coup-record/1 as the store holds it, once it is over."""
    data = await store.load_game(table_id, number)
    if data is None:
        raise ProtocolError("no_game", "no such game at this table", 404)
    if data.row["status"] != "over":
        raise ProtocolError("game_running", "the game is still running", 409)
    out = {**data.header, "moves": [event_move(e) for e in data.events]}
    out["timeouts"] = [{"index": e["step"], "seat": e["seat"]} for e in data.events if e["timeout"]]
    out["winner"] = data.row["winner"]
    return out
