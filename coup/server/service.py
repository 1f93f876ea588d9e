"""The table service: every change to a table goes through here, once, whether this is
the only server process or one of many.

A change takes the table's lock, is checked on a copy, written to the store, and only
then swapped in, shown to this process's sockets and announced on the bus:

    service -> engine (a clone) -> store -> swap in -> clock -> views -> bus

The store and the bus are the seams. Every write checks the table's version in its
transaction; when another process wrote first the store says `Conflict`, the table
catches up from the store (`catchup.py`) and the whole change is tried again against
the new state (a racing move then comes back `stale`). With one process (SQLite, the
memory bus) that never happens and the bus only tells this process, which ignores its
own messages. Deadlines run on the clock (`clock.py`): one timer per table when this
process is the store's only writer, claims from the store when it is shared. A game's
start and its moves are the dealer's (`dealer.py`, `service.dealer`).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from coup.bus import Bus
from coup.server import games, timers
from coup.server.catchup import CatchUp, retried
from coup.server.chat import Chat
from coup.server.clock import ClaimClock, Clock, TableClocks
from coup.server.dealer import Dealer
from coup.server.hub import Hub
from coup.server.presence import Presence
from coup.server.protocol import ProtocolError, RateLimit, clean_name, now_ms
from coup.server.settings import DEFAULTS, merge
from coup.server.spectators import CAP as SPECTATOR_CAP
from coup.server.spectators import Spectators
from coup.server.table import Deadline, Table, new_table_id
from coup.server.views import view_message, view_texts
from coup.server.wire import text_frame
from coup.store import SqlStore
from coup.store import processes as db

log = logging.getLogger("coup.server")
T = TypeVar("T")
IDLE_EVICT = 600.0  # seconds


class TableService:
    def __init__(
        self,
        store: SqlStore,
        bus: Bus,
        hub: Hub,
        *,
        bot_delay: tuple[float, float] = (0.6, 1.5),
        away_seconds: float = 30.0,
        spectator_cap: int = SPECTATOR_CAP,
    ) -> None:
        self.store = store
        self.bus = bus
        self.hub = hub
        self.bot_delay = bot_delay
        self.away_seconds = away_seconds
        store.check_versions = True
        self.process = secrets.token_hex(8)  # this process, in bus messages and presence rows
        self.tables: dict[str, Table] = {}
        self.closing = False
        self._loading: dict[str, asyncio.Lock] = {}
        self._loops: list[asyncio.Task[None]] = []
        self.log_stats = bool(os.environ.get("COUP_CLUSTER_STATS"))  # every 30 s, a warning
        self.stats = dict.fromkeys(
            ("conflicts", "claims", "refreshes", "rebuilds", "applied", "missed", "plain_in",
             "sent_moves", "sent_plain"), 0
        )  # fmt: skip
        self.catchup = CatchUp(self)
        self.coach_woken: Callable[[], None] | None = None  # the coach's queue has work
        self.present = Presence(self)
        self.talk = Chat(self)
        self.dealer = Dealer(self)  # a game's start and its moves
        self.watchers = Spectators(self, spectator_cap)
        self.clock: Clock = ClaimClock(self) if store.shared else TableClocks(self)

    # ---- lifecycle ------------------------------------------------------------------
    async def start(self) -> None:
        now = now_ms()
        if not self.store.shared:  # rows of other processes are from an earlier run of ours
            await db.forget_others(self.store, self.process)
        await db.heartbeat(self.store, self.process, now)
        self.bus.listen(self.catchup.hear)
        ignore_own = getattr(self.bus, "ignore_own", None)
        if ignore_own is not None:  # our own messages, heard back: dropped unread
            ignore_own(self.process + " ")
        hook = getattr(self.bus, "on_reconnect", None)
        if hook is not None:
            hook(self.catchup.resync)
        self._loops = [
            asyncio.create_task(self._sweep()),
            asyncio.create_task(self.present.heartbeats()),
        ]
        await self.clock.start()

    async def stop(self) -> None:
        self.closing = True
        for task in self._loops:
            task.cancel()
        for task in self._loops:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.clock.stop()
        await self.catchup.stop()
        with contextlib.suppress(Exception):
            for table_id in await db.leave(self.store, self.process):
                await self.bus.publish(table_id, f"{self.process} left")

    async def _sweep(self, every: float = 60.0, idle: float = IDLE_EVICT) -> None:
        """Drop from memory the tables nobody uses (no game running, no connection,
        untouched for `idle` seconds); they load again from the store when opened."""
        while True:
            await asyncio.sleep(every)
            self.evict(idle)

    def evict(self, idle: float = IDLE_EVICT) -> int:
        cutoff = time.monotonic() - idle
        gone = [
            t.id
            for t in self.tables.values()
            if not t.playing
            and t.touched < cutoff
            and not self.hub.of(t.id)
            and not t.lock.locked()
        ]
        for table_id in gone:
            del self.tables[table_id]
            self.catchup.forget(table_id)
        return len(gone)

    async def get(self, table_id: str) -> Table | None:
        """The table, from memory or loaded from the store. On a shared store it is first
        caught up (one query when nothing changed): a request may come right after a write
        on another process whose bus message is still on its way."""
        table = self.tables.get(table_id)
        loaded = table is not None
        if table is None:
            if len(table_id) > 64:
                return None
            lock = self._loading.setdefault(table_id, asyncio.Lock())
            async with lock:
                table = self.tables.get(table_id)
                if table is None:
                    data = await self.store.load_table(table_id)
                    if data is None:
                        return None
                    table = self.catchup.build(data)
                    self.tables[table_id] = table
                    self.clock.arm(table)
            self._loading.pop(table_id, None)
        table.touched = time.monotonic()
        if self.store.shared:
            await self.catchup.refresh(table, extras=not loaded)
        return table

    # ---- creating and joining -------------------------------------------------------
    async def create(self, name: Any, settings: Any) -> tuple[Table, int, str]:
        name = clean_name(name)
        merged = merge(DEFAULTS, settings if settings is not None else {})
        table = Table(new_table_id(), merged, [None] * int(merged["seats"]))
        table.touched = time.monotonic()
        seat, token = table.sit(name, 0, host=True)
        row = {
            "id": table.id,
            "created_at": now_ms(),
            "status": table.status,
            "version": table.version,
            "games": 0,
            "last_winner": None,
        }
        await self.store.create_table(row, table.settings, table.seat_rows())
        self.tables[table.id] = table
        return table, seat, token

    async def join(self, table: Table, name: Any, seat: Any) -> tuple[int, str]:
        name = clean_name(name)
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise ProtocolError("bad_seat", "seat must be an integer")
        return await self.lobby(table, lambda t: t.sit(name, seat))

    # ---- lobby changes -------------------------------------------------------------
    @retried
    async def lobby(self, table: Table, op: Callable[[Table], T]) -> T:
        async with table.lock:
            draft = copy.copy(table)
            draft.seats = list(table.seats)
            draft.settings = dict(table.settings)
            result = op(draft)
            version = table.version + 1
            await self.store.save_lobby(
                table.id,
                version=version,
                settings=draft.settings,
                status=draft.status,
                seats=draft.seat_rows(),
            )
            table.seats, table.settings, table.version = draft.seats, draft.settings, version
        await self.changed(table)
        return result

    def host_only(self, table: Table, member: str | None) -> None:
        if table.seat_of(member) is None:
            raise ProtocolError("not_seated", "you hold no seat at this table")
        if not table.is_host(member):
            raise ProtocolError("not_host", "only the host may do that")

    async def chat(self, table: Table, member: str | None, text: str) -> None:
        """A seated player's chat line (`chat.py`)."""
        await self.talk.player(table, member, text)

    @retried
    async def seats_in_game(self, table: Table, op: Callable[[Table], None]) -> None:
        """Who plays a seat changes during a game (a player leaves, the host hands a seat
        to a bot, a player takes it back): the seats and the clocks change together."""
        async with table.lock:
            draft = copy.copy(table)
            draft.seats = list(table.seats)
            if table.run is not None:
                draft.run = replace(table.run)  # op() notes the handoff on this copy
            op(draft)
            version = table.version + 1
            draft.deadlines = self.plan(draft, fresh=False)
            before = 0 if table.run is None else len(table.run.handoffs)
            await self.store.save_seats(
                table.id,
                version=version,
                seats=draft.seat_rows(),
                deadlines=timers.rows(draft),
                handoffs=[] if draft.run is None else games.handoff_rows(draft.run, before),
            )
            table.seats, table.run, table.deadlines = draft.seats, draft.run, draft.deadlines
            table.version = version
        self.clock.arm(table)
        await self.changed(table)

    async def watcher_chat(self, table: Table, name: Any, text: str, limit: RateLimit) -> None:
        """A spectator's chat line, marked as watching, if the host allows it (`chat.py`)."""
        await self.talk.watcher(table, name, text, limit)

    async def presence(self, table: Table, member: str, delta: int) -> None:
        """A player connection opened (+1) or closed (-1) here (`presence.py`)."""
        await self.present.change(table, member, delta)

    # ---- games ---------------------------------------------------------------------
    async def record(self, table: Table, number: int) -> dict[str, Any]:
        """Game `number`'s coup-record/1, once it is over (the seed is secret until then)."""
        return await games.record(self.store, table, number)

    def plan(self, table: Table, *, fresh: bool) -> dict[int, Deadline]:
        return timers.plan(
            table,
            now=now_ms(),
            away_seconds=self.away_seconds,
            bot_delay=self.bot_delay,
            fresh=fresh,
        )

    # ---- telling ----------------------------------------------------------------------
    async def changed(self, table: Table, presence: str | None = None) -> None:
        """A change was committed: show it to this process's sockets, then tell the other
        processes on the bus (with the moves, so that they need not read the store)."""
        table.touched = time.monotonic()
        if self.closing:
            return
        if self.bus.alone():  # one process on the memory bus: only ourselves to tell
            self.broadcast(table)
            return
        message = self.catchup.message(table, presence)
        self.broadcast(table)
        # Shielded: a clock task cancelled right after its move must still tell.
        await asyncio.shield(self.bus.publish(table.id, message))

    async def watch(self, table: Table) -> None:
        """A socket of `table` opened here: subscribe (confirmed), then catch up: whatever
        another process commits from now on is heard, whatever it committed before is read."""
        await self.bus.watch(table.id)
        if self.store.shared:
            await self.catchup.refresh(table)

    async def unwatch(self, table: Table) -> None:
        await self.bus.unwatch(table.id)

    def broadcast(self, table: Table) -> None:
        conns = self.hub.of(table.id)
        if not conns:
            return
        seated = table.holders()
        keys = {conn: (conn.member if conn.member in seated else None) for conn in conns}
        texts = view_texts(table, list(keys.values()), self.spectators_of(table))
        frames: dict[str | None, bytes] = {}  # each distinct view framed once
        for conn, key in keys.items():
            frame = frames.get(key)
            if frame is None:
                frame = frames[key] = text_frame(texts[key].encode())
            conn.send_view(texts[key], frame)

    def view_for(self, table: Table, member: str | None) -> dict[str, Any]:
        return view_message(table, member, spectators=self.spectators_of(table))

    # ---- spectators (`spectators.py`) -----------------------------------------------------
    def spectators_of(self, table: Table) -> int:
        return self.watchers.of(table)

    def counted_spectators(self, table: Table) -> tuple[int, int]:
        return self.watchers.counted(table)

    async def spectators(self, table: Table, *, joining: bool = False) -> None:
        """A spectator connection was added here (`joining`: refused with `spectators_full`
        over the cap) or one closed."""
        await self.watchers.changed(table, joining=joining)
