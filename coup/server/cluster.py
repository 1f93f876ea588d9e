"""The table service for several processes sharing one PostgreSQL (and Redis).

Every process keeps the tables it serves in memory, as the single process does, but
none owns a table. What keeps them right:

- Every write that changes a table checks the table's version in the same transaction
  (`check_versions`), and a move also inserts the next `(table, game, seq)`: whoever
  writes first wins; the other gets `Conflict`, catches up from the database
  (`refresh`), and tries again against the new state, which re-validates the move (a
  racing move for the same seat then comes back `stale`, a timer's or bot's move is
  dropped because the position moved on).
- After a change, this process pushes views to its own sockets and publishes
  `"<process> <version>"` on the bus; the other processes holding sockets of that table
  catch up (playing the moves sent along when their copy is exactly one change behind,
  else reading the database) and push theirs; the others catch up on next use.
- Deadlines (timers, bots) are rows. No per-table clock task: one claim loop per process
  takes due rows with `FOR UPDATE SKIP LOCKED` and a short lease, so any process plays a
  deadline, also for a table nobody is connected to, and a dead process's claims pass
  to another when their lease ends.
- Connections are rows per (table, member, process) with a heartbeat per process; when a
  process dies, the others forget its connections and re-plan the `away` clocks.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import os
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from coup.bus import Bus
from coup.server import bus_message, games, timers
from coup.server.hub import Hub
from coup.server.protocol import ProtocolError, now_ms
from coup.server.service import TableService
from coup.server.table import GameRun, Seat, Table
from coup.store import Conflict, SqlStore
from coup.store import processes as db

log = logging.getLogger("coup.server")
T = TypeVar("T")

ATTEMPTS = 20  # a write that keeps losing races this often gives up with `internal`
HEARTBEAT = 2.0  # seconds between heartbeats (and reaping, and the version resync)
DEAD_AFTER = 10_000  # ms without a heartbeat: the process is dead
LEASE = 5_000  # ms a claimed deadline stays ours before another process may take it
POLL = 0.25  # seconds between claim queries when nothing local is due sooner
FIRING = 8  # deadlines played at once by one process; more wait for a free slot


class ClusterService(TableService):
    def __init__(
        self,
        store: SqlStore,
        bus: Bus,
        hub: Hub,
        *,
        bot_delay: tuple[float, float] = (0.6, 1.5),
        away_seconds: float = 30.0,
    ) -> None:
        super().__init__(store, bus, hub, bot_delay=bot_delay, away_seconds=away_seconds)
        store.check_versions = True
        self.process = secrets.token_hex(8)
        self.local: dict[tuple[str, str], int] = {}  # (table, member) -> our connections
        self._catching_up: dict[str, asyncio.Task[None]] = {}
        self._news: dict[str, list[tuple[int | None, dict[str, Any] | None]]] = {}
        self._marks: dict[str, bus_message.Mark] = {}  # where each table stood when last told
        self._wake = asyncio.Event()
        self._loops: list[asyncio.Task[None]] = []
        self._firing: set[asyncio.Task[None]] = set()
        self.log_stats = bool(os.environ.get("COUP_CLUSTER_STATS"))  # every 30 s, a warning
        self.stats = dict.fromkeys(
            ("conflicts", "claims", "refreshes", "rebuilds", "applied", "missed", "plain_in",
             "sent_moves", "sent_plain"), 0
        )  # fmt: skip

    # ---- lifecycle ------------------------------------------------------------------
    async def start(self) -> None:
        await db.heartbeat(self.store, self.process, now_ms())
        self.bus.listen(self._on_bus)
        hook = getattr(self.bus, "on_reconnect", None)
        if hook is not None:
            hook(self.resync)
        self._loops = [
            asyncio.create_task(self._claim_loop()),
            asyncio.create_task(self._heartbeat_loop()),
        ]
        self._sweeper = asyncio.create_task(self._sweep())

    async def stop(self) -> None:
        self.closing = True
        for task in [*self._loops, *self._firing]:
            task.cancel()
        for task in [*self._loops, *self._firing, *self._catching_up.values()]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            for table_id in await db.leave(self.store, self.process):
                await self.bus.publish(table_id, f"{self.process} left")
        await super().stop()

    async def get(self, table_id: str) -> Table | None:
        """The table, caught up with the database (one query when nothing changed): a
        request may come right after a write on another process whose notification is
        still on its way (e.g. a seat taken there, its token used here at once)."""
        loaded = table_id in self.tables
        table = await super().get(table_id)
        if table is None:
            return None
        await self.refresh(table, extras=not loaded)
        return table

    def evict(self, idle: float = 600.0) -> int:
        gone = super().evict(idle)
        for table_id in [t for t in self._marks if t not in self.tables]:
            del self._marks[table_id]
        return gone

    # ---- catching up ------------------------------------------------------------------
    async def refresh(self, table: Table, *, extras: bool = False) -> None:
        async with table.lock:
            await self._refresh_locked(table, extras=extras)

    async def _refresh_locked(self, table: Table, *, extras: bool = False) -> None:
        """Bring `table` up to the database (the caller holds `table.lock`)."""
        run = table.run
        chat_after = int(table.chat[-1]["id"]) if table.chat else 0
        changes = await db.changes(
            self.store,
            table.id,
            known_version=-1 if extras else table.version,
            game=run.number if run is not None else 0,
            seq=run.seq if run is not None else 0,
            chat_after=chat_after,
            now=now_ms(),
            dead_after=DEAD_AFTER,
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
            table.chat.extend(changes.chat)
        await self._sync_presence(table, changes)
        self._marks[table.id] = bus_message.mark(table)

    async def _rebuild_into(self, table: Table) -> None:
        self.stats["rebuilds"] += 1
        data = await self.store.load_table(table.id)
        if data is None:
            return
        fresh = self._rebuild(data)
        table.settings, table.seats, table.status = fresh.settings, fresh.seats, fresh.status
        table.version, table.games, table.last_winner = (
            fresh.version,
            fresh.games,
            fresh.last_winner,
        )
        table.run, table.chat, table.bots = fresh.run, fresh.chat, {}
        table.deadlines = bus_message.deadlines(table, data.deadlines)

    def _apply_lobby(self, table: Table, changes: db.Changes) -> None:
        row = changes.row
        table.settings = json.loads(changes.settings)
        cap = int(table.settings["seats"])
        seats: list[Seat | None] = [None] * cap
        for s in changes.seats:
            seats[s["seat"]] = Seat(
                s["member"], s["name"], s["kind"], s["level"], s["token_hash"], bool(s["host"])
            )
        table.seats, table.status, table.version = seats, str(row["status"]), int(row["version"])
        table.last_winner = row["last_winner"]
        table.deadlines = bus_message.deadlines(table, changes.deadlines)

    async def _sync_presence(self, table: Table, changes: db.Changes | None) -> None:
        if changes is not None:
            connected = changes.connected
        else:
            connected = await db.connected(
                self.store, table.id, now=now_ms(), dead_after=DEAD_AFTER
            )
        now = now_ms()
        for member, before in list(table.connected.items()):
            if before > 0 and connected.get(member, 0) == 0:
                table.away_since[member] = now
        table.connected = dict(connected)

    async def watch(self, table: Table) -> None:
        """Subscribe (confirmed), then catch up: whatever another process commits from
        now on is heard, and whatever it committed before is read here."""
        await super().watch(table)
        await self.refresh(table)

    async def _on_bus(self, table_id: str, message: str) -> None:
        if message.startswith(self.process + " ") or table_id not in self.tables:
            return  # our own news, or a table we do not hold
        if not self.hub.of(table_id):
            return  # nobody here to tell: `get()` catches up when the table is next used
        _origin, version, payload = bus_message.decode(message)
        self._news.setdefault(table_id, []).append((version, payload))
        if table_id not in self._catching_up:
            self._catching_up[table_id] = asyncio.create_task(self._catch_up(table_id))

    async def _catch_up(self, table_id: str) -> None:
        """Apply the news of a table in order: moves sent along are played on our copy;
        anything else (or a gap) reads the database. Then push the views."""
        try:
            while self._news.get(table_id):
                pending = self._news.pop(table_id)
                table = self.tables.get(table_id)
                if table is None:
                    return
                try:
                    async with table.lock:
                        read = False
                        for version, payload in pending:
                            if version is not None and version <= table.version:
                                continue  # we have it already (e.g. caught up after a conflict)
                            if read or payload is None or version is None:
                                read = True
                                self.stats["plain_in"] += 1
                            elif bus_message.apply(table, version, payload, now_ms()):
                                self.stats["applied"] += 1
                            else:
                                read = True
                                self.stats["missed"] += 1
                        if read:
                            await self._refresh_locked(table)
                        self._marks[table.id] = bus_message.mark(table)
                except Exception:
                    log.exception("table %s: catching up failed", table_id)
                self.broadcast(table)
        finally:
            self._catching_up.pop(table_id, None)

    async def resync(self) -> None:
        """Catch up every table we hold sockets for whose version moved without us
        hearing of it (a lost bus message, a Redis reconnect)."""
        ids = [t for t in list(self.hub.tables) if t in self.tables]
        for start in range(0, len(ids), 500):
            chunk = ids[start : start + 500]
            stored = await db.versions(self.store, chunk)
            for table_id in chunk:
                table = self.tables.get(table_id)
                if table is not None and stored.get(table_id, table.version) > table.version:
                    await self._on_bus(table_id, "resync")

    # ---- writes: retried against the new state when another process wrote first -----
    async def _retry(self, table: Table, write: Callable[[], Awaitable[T]]) -> T:
        for _ in range(ATTEMPTS):
            try:
                return await write()
            except Conflict:
                self.stats["conflicts"] += 1
                await self.refresh(table)
        raise ProtocolError("internal", "the table is too busy right now; try again")

    async def lobby(self, table: Table, op: Callable[[Table], T]) -> T:
        return await self._retry(table, lambda: super(ClusterService, self).lobby(table, op))

    async def chat(self, table: Table, member: str | None, text: str) -> None:
        await self._retry(table, lambda: super(ClusterService, self).chat(table, member, text))

    async def start_game(self, table: Table, member: str | None, *, rematch: bool) -> None:
        await self._retry(
            table, lambda: super(ClusterService, self).start_game(table, member, rematch=rematch)
        )

    async def play(
        self,
        table: Table,
        seat: int,
        move: str,
        version: int | None,
        *,
        timeout: bool = False,
        expect: GameRun | None = None,
    ) -> None:
        await self._retry(
            table,
            lambda: TableService.play(
                self, table, seat, move, version, timeout=timeout, expect=expect
            ),
        )

    async def presence(self, table: Table, member: str, delta: int) -> None:
        key = (table.id, member)
        before = self.local.get(key, 0)
        after = max(0, before + delta)
        if after:
            self.local[key] = after
        else:
            self.local.pop(key, None)
        if (before > 0) == (after > 0) or self.closing:
            return
        await self._retry(table, lambda: self._write_presence(table, member, after > 0))
        self._arm(table)
        await self.changed(table, presence=member)

    async def _write_presence(self, table: Table, member: str, present: bool) -> None:
        async with table.lock:
            now = now_ms()
            draft = copy.copy(table)
            draft.connected = dict(table.connected)
            draft.away_since = dict(table.away_since)
            count = max(0, draft.connected.get(member, 0) + (1 if present else -1))
            draft.connected[member] = count
            if count == 0:
                draft.away_since[member] = now
            draft.deadlines = self._plan(draft, fresh=False)
            version = table.version + 1
            await db.set_presence(
                self.store,
                table.id,
                member,
                self.process,
                present=present,
                now=now,
                version=version,
                deadlines=timers.rows(draft),
            )
            table.connected, table.away_since = draft.connected, draft.away_since
            table.deadlines, table.version = draft.deadlines, version

    async def _replan(self, table: Table) -> None:
        """Connections went away with a dead process: re-plan the clocks and tell."""

        async def write() -> None:
            async with table.lock:
                await self._sync_presence(table, None)
                deadlines = self._plan(table, fresh=False)
                version = table.version + 1
                draft = copy.copy(table)
                draft.deadlines = deadlines
                await self.store.save_deadlines(
                    table.id, version=version, deadlines=timers.rows(draft)
                )
                table.deadlines, table.version = deadlines, version

        await self._retry(table, write)
        self._arm(table)
        await self.changed(table)

    # ---- telling ----------------------------------------------------------------------
    async def changed(self, table: Table, presence: str | None = None) -> None:
        table.touched = time.monotonic()
        if self.closing:
            return
        before = self._marks.get(table.id)
        message = bus_message.encode(self.process, table, before, presence)
        plain = message.count(" ") == 1  # no moves sent along: the others read the database
        self.stats["sent_plain" if plain else "sent_moves"] += 1
        now = bus_message.mark(table)
        if self.log_stats and plain and before and len(self.stats) < 40:
            key = f"plain dv={now.version - before.version} dseq={now.seq - before.seq} dg={now.game - before.game}"
            self.stats[key] = self.stats.get(key, 0) + 1
        self._marks[table.id] = now
        self.broadcast(table)
        await asyncio.shield(self.bus.publish(table.id, message))

    # ---- deadlines: claimed from the database by any process --------------------------
    def _arm(self, table: Table) -> None:
        if table.deadlines and not self.closing:
            self._wake.set()

    async def _claim_loop(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL)
            self._wake.clear()
            free = FIRING - len(self._firing)
            if free <= 0:
                continue  # busy: leave due deadlines to other processes (or the next round)
            try:
                claimed = await db.claim(self.store, now=now_ms(), lease_ms=LEASE, limit=free)
            except Exception:
                log.exception("claiming deadlines failed")
                await asyncio.sleep(1)
                continue
            for row in claimed:
                self.stats["claims"] += 1
                task = asyncio.create_task(self._fire(row))
                self._firing.add(task)
                task.add_done_callback(self._fired)

    def _fired(self, task: asyncio.Task[None]) -> None:
        self._firing.discard(task)
        self._wake.set()  # a slot is free: claim again

    async def _fire(self, row: dict[str, Any]) -> None:
        try:
            table = await self.get(str(row["table_id"]))  # caught up
            if table is None:
                return
            run = table.run
            if run is None or run.number != row["game"] or run.seq != row["seq"]:
                return  # the position moved on; its mover wrote new deadlines
            await games.fire(self, table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a claimed deadline failed", row.get("table_id"))

    async def _heartbeat_loop(self) -> None:
        beats = 0
        while True:
            await asyncio.sleep(HEARTBEAT)
            beats += 1
            try:
                now = now_ms()
                await db.heartbeat(self.store, self.process, now)
                for table_id in await db.reap(self.store, now, DEAD_AFTER):
                    table = await self.get(table_id)
                    if table is not None:
                        await self._replan(table)
                if beats % 3 == 0:
                    await self.resync()
                if beats % 15 == 0 and self.log_stats:
                    log.warning(
                        "cluster %s: %s, %d tables", self.process, self.stats, len(self.tables)
                    )
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("heartbeat failed")
