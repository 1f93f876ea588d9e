"""The bus messages between server processes, and catching up from them.

A message is `"<process> <version>"`, plus, when the change was only moves (the usual
case), a JSON payload with those moves and the new deadlines. A process whose copy of
the table is exactly at the version before (versions name one committed state each,
since every write checks the previous one) plays the moves on its copy without reading
the database; any other process, or any other change, reads the database instead.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import coup
from coup.server import game_run, timers
from coup.server.protocol import dumps
from coup.server.table import GameRun, Mark, Table


def mark(table: Table) -> Mark:
    """Where the table's copy stands now (kept as `table.told` once the others know it)."""
    run = table.run
    if run is None:
        return Mark(table.version, 0, 0, 0)
    return Mark(table.version, run.number, run.seq, len(run.timeouts))


def encode(
    process: str,
    table: Table,
    before: Mark | None,
    presence: str | None = None,
    watchers: int = 0,
    wseq: int = 0,
) -> str:
    """The message telling that `table` changed; with the moves if that was all, or with
    the connection count of `presence` (a member) if only that changed; either with the
    number of spectators the process holds (`watchers`, as of the process's count number
    `wseq`: see coup/server/remote_spectators.py)."""
    head = f"{process} {table.version}"
    run = table.run
    if before is None or table.version != before.version + 1:
        return head
    now = mark(table)
    if presence is not None and (now.game, now.seq) == (before.game, before.seq):
        payload: dict[str, Any] = {
            "from": before.version,
            "presence": {presence: table.connected.get(presence, 0)},
            "deadlines": timers.rows(table),
            "watchers": watchers,
            "wseq": wseq,
        }
        return f"{head} {dumps(payload)}"
    if run is None or run.number != before.game or run.seq <= before.seq:
        return head
    payload = {
        "from": before.version,
        "game": run.number,
        "seq": before.seq,
        "moves": run.moves[before.seq :],
        "timeouts": run.timeouts[before.timeouts :],
        "status": table.status,
        "last_winner": table.last_winner,
        "deadlines": timers.rows(table),
        "watchers": watchers,
        "wseq": wseq,
    }
    return f"{head} {dumps(payload)}"


def watchers(process: str, count: int, wseq: int) -> str:
    """The message telling that the process now holds `count` spectators of the table
    (no change to the table itself: no version)."""
    return f"{process} - {dumps({'watchers': count, 'wseq': wseq})}"


def decode(message: str) -> tuple[str, int | None, dict[str, Any] | None]:
    """(origin process, version or None, payload or None); never raises."""
    parts = message.split(" ", 2)
    origin = parts[0]
    version = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
    payload = None
    if len(parts) > 2:
        try:
            payload = json.loads(parts[2])
        except ValueError:
            payload = None
    return origin, version, payload if isinstance(payload, dict) else None


def apply(
    table: Table, version: int, payload: dict[str, Any], now: int = 0, origin: str = ""
) -> bool:
    """Play the message's moves (or take its connection count) on `table` if it is
    exactly at the version before; take the sender's spectator count in any case."""
    run = table.run
    if origin and isinstance(payload.get("watchers"), int):
        seq = payload.get("wseq")
        table.remote_spectators.hear(
            origin, payload["watchers"], seq if isinstance(seq, int) else None
        )
    if "presence" in payload:
        if table.version != payload.get("from"):
            return False
        for member, count in dict(payload["presence"]).items():
            if table.connected.get(member, 0) > 0 and int(count) == 0:
                table.away_since[member] = now
            table.connected[str(member)] = int(count)
        table.version = version
        table.deadlines = timers.deadlines_of(table, payload["deadlines"])
        return True
    if (
        run is None
        or table.version != payload.get("from")
        or run.number != payload.get("game")
        or run.seq != payload.get("seq")
    ):
        return False
    try:
        new_run = advance(run, payload["moves"], payload["timeouts"], version)
    except Exception:  # noqa: BLE001 - any doubt: read the database instead
        return False
    table.run = new_run
    table.status = str(payload["status"])
    table.last_winner = payload["last_winner"]
    table.version = version
    table.deadlines = timers.deadlines_of(table, payload["deadlines"])
    return True


def advance(
    run: GameRun, moves: list[dict[str, Any]], timeouts: list[dict[str, int]], version: int
) -> GameRun:
    """`run` with record `moves` played on a copy of its state (draws pinned as in
    `coup.replay`)."""
    state = run.state.clone()
    for move in moves:
        state._pins = list(move.get("draw", []))
        state.play(move["seat"], coup.Move.parse(move["move"]))
        if state._pins:
            raise ValueError("pinned draws were not drawn")
    return replace(
        run,
        state=state,
        moves=run.moves + [dict(m) for m in moves],
        timeouts=run.timeouts + [dict(t) for t in timeouts],
        changed_version=version,
    )


def advance_events(run: GameRun, events: list[dict[str, Any]], version: int) -> GameRun:
    """`run` with stored event rows played (they must follow its last seq)."""
    for i, e in enumerate(events):
        if int(e["seq"]) != run.seq + i:
            raise ValueError(f"event {e['seq']} does not follow {run.seq + i - 1}")
    moves = [game_run.event_move(e) for e in events]
    timeouts = game_run.event_timeouts(events)
    return advance(run, moves, timeouts, version)
