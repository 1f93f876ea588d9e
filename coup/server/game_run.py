"""A game at a table: a new game's run (secret seed, commitment), its event rows and
record, and a bot's move (the bot sees only its own seat: `SeatWindow`)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import random
import secrets
from typing import TYPE_CHECKING, Any

import coup
from coup.bots.window import GuardedWindow
from coup.server.messages import HandoffEntry
from coup.server.protocol import ProtocolError
from coup.server.table import GameRun, Seat, Table

if TYPE_CHECKING:
    from coup.store import SqlStore

log = logging.getLogger("coup.server")


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


class _RandomBot:
    """Stand-in when no bot of that level can be made: a uniformly random legal move."""

    name = "random"

    def __init__(self, seed: int | None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: Any, seat: int) -> Any:
        return self.rng.choice(state.legal(seat))


def make_bot(level: str | None, personality: str | None = None) -> Any:
    seed = secrets.randbits(64)
    try:
        from coup import bots

        return bots.for_level(level or "easy", personality or "random", seed=seed)
    except Exception:  # noqa: BLE001 - any failure falls back to the random bot
        log.warning("no bot for level %r; using a random bot", level)
        return _RandomBot(seed)


async def bot_move(table: Table, run: GameRun, seat: int) -> str:
    """The bot's choice for `seat`, or a random legal move if the bot fails."""
    state = run.state  # never changed in place: every move swaps in a new state
    sitter = table.seat(run.members[seat])
    level = None if sitter is None else sitter.level
    bot = table.bots.get(seat)
    if bot is None:
        bot = table.bots[seat] = make_bot(level, None if sitter is None else sitter.personality)
    window = GuardedWindow(state, seat)
    try:
        if level in (None, "easy"):
            move = bot.choose(window, seat)
        else:
            move = await asyncio.to_thread(bot.choose, window, seat)
        if str(move) not in {str(m) for m in state.legal(seat)}:
            raise ValueError(f"the bot chose {move!s}, which is not legal")
        return str(move)
    except Exception:
        log.exception("table %s: the bot in seat %s failed; playing at random", table.id, seat)
        return str(random.choice(state.legal(seat)))


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
