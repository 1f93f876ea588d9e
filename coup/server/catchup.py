"""A table in memory brought up to the store: built from its rows, caught up with what
other processes committed, from the store or from the bus messages this process hears.

After every change `Commit` publishes `bus_message.encode(...)`: when the change was
only moves, the message carries them, and a process whose copy is exactly one change
behind plays them on its copy without reading the store; any other message (or a gap)
makes it read what changed (`processes.changes`). A process ignores its own messages,
so with one process and the memory bus nothing here runs after a change.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

import coup
from coup.server import bus_message, game_run, timers, views
from coup.server.hub import Hub
from coup.server.protocol import now_ms
from coup.server.sitters import Former, Seat
from coup.server.spectators import Spectators
from coup.server.table import GameRun, Table, chat_line
from coup.server.this_process import ThisProcess
from coup.server.timers import Timing
from coup.store import SqlStore, TableData
from coup.store import processes as db

log = logging.getLogger("coup.server")


def seats_of(rows: list[dict[str, Any]], cap: int) -> list[Seat | None]:
    seats: list[Seat | None] = [None] * cap
    for s in rows:
        if s["seat"] >= 0:  # (former players are stored at -1, -2, ...)
            seats[s["seat"]] = Seat(
                s["member"], s["name"], s["kind"], s["level"], s["token_hash"],
                bool(s["host"]), device=s.get("device"),
            )  # fmt: skip
    return seats


def former_of(rows: list[dict[str, Any]]) -> list[Former]:
    """The former players among the stored seat rows (seat -1 the oldest)."""
    kept = sorted((r for r in rows if r["seat"] < 0), key=lambda r: -int(r["seat"]))
    return [
        Former(r["member"], r["name"], r.get("gone") or "removed", r["token_hash"],
               r.get("device"), bool(r.get("blocked")))
        for r in kept
    ]  # fmt: skip


class CatchUp:
    def __init__(
        self,
        store: SqlStore,
        here: ThisProcess,
        timing: Timing,
        held: dict[str, Table],
        hub: Hub,
        spectators: Spectators,
    ) -> None:
        self.store = store
        self.here = here
        self.stats = here.stats
        self.timing = timing
        self.held = held  # the tables in memory (`tables.py`), by id
        self.hub = hub
        self.spectators = spectators
        self._heard: dict[str, list[tuple[str, int | None, dict[str, Any] | None]]] = {}
        self._catching_up: dict[str, asyncio.Task[None]] = {}

    async def stop(self) -> None:
        for task in list(self._catching_up.values()):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ---- from the store ----------------------------------------------------------------
    def build(self, data: TableData) -> Table:
        """The table in memory from its stored rows (the game replayed from its log)."""
        r = data.row
        seats = seats_of(data.seats, int(data.settings["seats"]))
        table = Table(
            r["id"], data.settings, seats, r["status"], int(r["version"]), int(r["games"])
        )
        table.last_winner = r["last_winner"]
        table.former = former_of(data.seats)
        for c in data.chat:
            table.chat.append(chat_line(c))
        if data.game is not None:
            g = data.game
            moves = [game_run.event_move(e) for e in g.events]
            state = coup.replay({**g.header, "moves": moves})
            timeouts = game_run.event_timeouts(g.events)
            table.run = GameRun(
                g.row["game"], state, g.header, g.members, moves, timeouts, table.version,
                game_run.handoffs_of(g.handoffs),
            )  # fmt: skip
            now = now_ms()
            for sitter in seats:
                if sitter is not None and sitter.kind == "human":
                    table.away_since[sitter.member] = now
            table.deadlines = timers.deadlines_of(table, data.deadlines)
            table.deadlines = self.timing.plan(table, fresh=False)
        return table

    async def refresh(self, table: Table, *, extras: bool = False) -> None:
        async with table.lock:
            await self.refresh_locked(table, extras=extras)

    async def refresh_locked(self, table: Table, *, extras: bool = False) -> None:
        """Bring `table` up to the store (the caller holds `table.lock`); `extras` reads
        everything but the game even when the version did not move."""
        run = table.run
        mark = table.remote_spectators.mark()
        changes = await db.changes(
            self.store,
            table.id,
            known_version=-1 if extras else table.version,
            game=run.number if run is not None else 0,
            seq=run.seq if run is not None else 0,
            chat_after=int(table.chat[-1]["id"]) if table.chat else 0,
            now=now_ms(),
            dead_after=db.DEAD_AFTER,
        )
        if changes is None:
            return
        self.stats["refreshes"] += 1
        row = changes.row
        if int(row["games"]) != table.games or (run is None) != (int(row["games"]) == 0):
            await self._rebuild_into(table)
        else:
            if run is not None and changes.events:
                try:
                    table.run = bus_message.advance_events(run, changes.events, int(row["version"]))
                except Exception:  # noqa: BLE001 - a gap or a mismatch: start from scratch
                    log.warning("table %s: rebuilding after a failed catch-up", table.id)
                    await self._rebuild_into(table)
                    changes = None
            if changes is not None:
                self._apply_lobby(table, changes)
        if changes is not None:
            table.chat.extend(chat_line(c) for c in changes.chat)
        await self.sync_presence(table, changes)
        if changes is not None:
            table.remote_spectators.stored(changes.watching, mark, self.here.id)
        table.told = bus_message.mark(table)

    async def _rebuild_into(self, table: Table) -> None:
        self.stats["rebuilds"] += 1
        data = await self.store.load_table(table.id)
        if data is None:
            return
        fresh = self.build(data)
        table.settings, table.seats, table.status = fresh.settings, fresh.seats, fresh.status
        table.former = fresh.former
        table.version, table.games = fresh.version, fresh.games
        table.last_winner, table.run, table.chat, table.bots = (
            fresh.last_winner,
            fresh.run,
            fresh.chat,
            {},
        )
        table.deadlines = timers.deadlines_of(table, data.deadlines)

    def _apply_lobby(self, table: Table, changes: db.Changes) -> None:
        row = changes.row
        if table.run is not None and table.run.number == int(row["games"]):
            table.run.handoffs = game_run.handoffs_of(changes.handoffs)
        table.settings = json.loads(changes.settings)
        table.seats = seats_of(changes.seats, int(table.settings["seats"]))
        table.former = former_of(changes.seats)
        table.status, table.version = str(row["status"]), int(row["version"])
        table.last_winner = row["last_winner"]
        table.deadlines = timers.deadlines_of(table, changes.deadlines)

    async def sync_presence(self, table: Table, changes: db.Changes | None) -> None:
        """The seats' connections as the live processes' presence rows say."""
        if changes is not None:
            connected = changes.connected
        else:
            connected = await db.connected(
                self.store, table.id, now=now_ms(), dead_after=db.DEAD_AFTER
            )
        now = now_ms()
        for member, before in list(table.connected.items()):
            if before > 0 and connected.get(member, 0) == 0:
                table.away_since[member] = now
        table.connected = dict(connected)

    # ---- the bus -----------------------------------------------------------------------
    async def hear(self, table_id: str, message: str) -> None:
        """A bus message: another process changed `table_id`."""
        if message.startswith(self.here.id + " ") or table_id not in self.held:
            return  # our own message, or a table we do not hold
        if not self.hub.of(table_id):
            return  # nobody here to tell: `get()` catches up when the table is next used
        origin, version, payload = bus_message.decode(message)
        if version is None and payload is not None and set(payload) <= {"watchers", "wseq"}:
            table = self.held[table_id]  # spectators came or went: the next view says
            table.remote_spectators.hear(origin, int(payload.get("watchers", 0)), _seq(payload))
            return
        self._heard.setdefault(table_id, []).append((origin, version, payload))
        if table_id not in self._catching_up:
            self._catching_up[table_id] = asyncio.create_task(self._catch_up(table_id))

    async def _catch_up(self, table_id: str) -> None:
        """Apply the messages heard of a table in order: moves sent along are played on
        our copy; anything else (or a gap) reads the store. Then push the views."""
        try:
            while self._heard.get(table_id):
                pending = self._heard.pop(table_id)
                table = self.held.get(table_id)
                if table is None:
                    return
                try:
                    async with table.lock:
                        read = False
                        for origin, version, payload in pending:
                            if version is not None and version <= table.version:
                                continue  # we have it already (e.g. caught up after a conflict)
                            if read or payload is None or version is None:
                                read = True
                                self.stats["plain_in"] += 1
                            elif bus_message.apply(table, version, payload, now_ms(), origin):
                                self.stats["applied"] += 1
                            else:
                                read = True
                                self.stats["missed"] += 1
                        if read:
                            await self.refresh_locked(table)
                        table.told = bus_message.mark(table)
                except Exception:
                    log.exception("table %s: catching up failed", table_id)
                views.show(table, self.hub.of(table.id), self.spectators.of(table))
        finally:
            self._catching_up.pop(table_id, None)

    async def resync(self) -> None:
        """Catch up every table we hold sockets for whose version moved without us
        hearing of it (a lost bus message, a Redis reconnect)."""
        ids = [t for t in list(self.hub.tables) if t in self.held]
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            stored = await db.versions(self.store, chunk)
            for table_id in chunk:
                table = self.held.get(table_id)
                if table is not None and stored.get(table_id, table.version) > table.version:
                    await self.hear(table_id, "resync")


def _seq(payload: dict[str, Any]) -> int | None:
    """The sequence number of a bus message's spectator count (None if it has none)."""
    seq = payload.get("wseq")
    return seq if isinstance(seq, int) else None
