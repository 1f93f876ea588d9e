"""The clock: when a deadline passes (a turn or reaction timer, an `away` clock, a bot's
turn), one move is played through the dealer's `play()` (`dealer.py`), the path people's
moves take.

Where the deadlines are watched depends on the store:
- `TableClocks` (this process is the store's only writer, e.g. SQLite): one asyncio
  task per table sleeps until its earliest deadline; on start every running game is
  loaded and its clock armed at the stored times.
- `ClaimClock` (a store several processes share, PostgreSQL): no per-table task; one
  loop per process claims due deadline rows (`FOR UPDATE SKIP LOCKED`, a short lease),
  so any process plays a deadline, also of a table nobody is connected to, and a dead
  process's claims pass to another when their lease ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from abc import ABC, abstractmethod
from typing import Any, Protocol

from coup.server.protocol import ProtocolError, now_ms
from coup.server.table import GameRun, Table
from coup.server.this_process import ThisProcess
from coup.server.timers import GRACE, STALL, default_move
from coup.store import SqlStore
from coup.store import processes as db

log = logging.getLogger("coup.server")

LEASE = 5_000  # ms a claimed deadline stays ours before another process may take it
POLL = 0.25  # seconds between claim queries when nothing local is due sooner
FIRING = 8  # deadlines played at once by one process; more wait for a free slot


class Mover(Protocol):
    """Who plays a move for a seat (the dealer: `dealer.py`)."""

    async def play(
        self,
        table: Table,
        seat: int,
        move: str,
        version: int | None,
        *,
        timeout: bool = False,
        expect: GameRun | None = None,
    ) -> None: ...

    async def replan(self, table: Table, expect: GameRun) -> None:
        """A deadline that plays no move passed (a grace, its clock): plan the clocks
        again and show it."""


class Bots(Protocol):
    """Who decides the bots' moves (`bot_moves.py`)."""

    def ahead(self, table: Table) -> None: ...
    async def move(self, table: Table, run: GameRun, seat: int) -> str: ...
    def stop(self) -> None: ...


class Loader(Protocol):
    """Where a table is found, loaded from the store if need be (`tables.py`)."""

    async def get(self, table_id: str) -> Table | None: ...


class Clock(Protocol):
    async def start(self, tables: Loader, mover: Mover) -> None:
        """Run, playing through `mover`; tables not in memory are loaded from `tables`.
        (The mover commits through a `Commit` that arms this clock: it is handed over
        here, not when the clock is made.)"""

    async def stop(self) -> None: ...
    def arm(self, table: Table) -> None:
        """The table's deadlines changed (after a change that planned them, or the table
        was loaded)."""


class _Clock(ABC):
    """What both clocks share: the dealer they play through, the deadline's move."""

    def __init__(self, store: SqlStore, here: ThisProcess, bots: Bots) -> None:
        self.store = store
        self.here = here
        self.bots = bots
        self._tables: Loader | None = None
        self._mover: Mover | None = None

    async def fire(self, table: Table) -> None:
        """Play the move of the earliest deadline that has passed (a timer's default, or
        a bot's choice); then the clock re-arms."""
        mover = self._mover
        if mover is None:
            return  # not started
        now = now_ms()
        run = table.run
        due = sorted((d.due_at, seat) for seat, d in table.deadlines.items() if d.due_at <= now)
        if run is None or not table.playing or not due:
            self.arm(table)
            return
        _, seat = due[0]
        deadline = table.deadlines[seat]
        state = run.state  # never changed in place: every move swaps in a new state
        try:
            if deadline.kind in (GRACE, STALL):
                await mover.replan(table, run)
            elif deadline.kind == "bot":
                move = await self.bots.move(table, run, seat)
                await mover.play(table, seat, move, None, expect=run)
            else:
                move = default_move(state, seat)
                await mover.play(table, seat, move, None, timeout=True, expect=run)
        except ProtocolError as exc:
            if exc.code in ("stale", "no_game_running"):
                return  # someone moved first (and re-armed the clock), or the game ended
            # Never leave a seat without a clock: play a random legal move instead.
            log.warning("table %s: clock move for seat %s refused: %s", table.id, seat, exc)
            fallback = str(random.choice(state.legal(seat)))
            await mover.play(
                table, seat, fallback, None, timeout=deadline.kind != "bot", expect=run
            )

    @abstractmethod
    def arm(self, table: Table) -> None: ...


class TableClocks(_Clock):
    """One task per table with deadlines, sleeping until the earliest."""

    def __init__(self, store: SqlStore, here: ThisProcess, bots: Bots) -> None:
        super().__init__(store, here, bots)
        self._ticking: set[asyncio.Task[None]] = set()

    async def start(self, tables: Loader, mover: Mover) -> None:
        self._tables, self._mover = tables, mover
        for table_id in await self.store.open_tables():
            table = await tables.get(table_id)  # loading a table arms its clock
            if table is not None and table.clock is None:
                self.arm(table)  # one loaded before the clock ran

    async def stop(self) -> None:
        self.bots.stop()
        ticking = list(self._ticking)
        for task in ticking:
            task.cancel()
        for task in ticking:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def arm(self, table: Table) -> None:
        current = asyncio.current_task()
        if table.clock is not None and table.clock is not current and not table.clock.done():
            table.clock.cancel()
        table.clock = None
        self.bots.ahead(table)
        if self.here.closing or self._mover is None or not table.deadlines:
            return
        due = min(d.due_at for d in table.deadlines.values())
        table.clock = task = asyncio.create_task(self._tick(table, due))
        self._ticking.add(task)
        task.add_done_callback(self._ticking.discard)

    async def _tick(self, table: Table, due: int) -> None:
        delay = (due - now_ms()) / 1000
        if delay > 0:
            await asyncio.sleep(delay)
        try:
            await self.fire(table)
        except Exception:
            # E.g. the database was briefly unavailable: nothing changed; try again soon,
            # so that the game never hangs.
            log.exception("table %s: the clock failed; retrying in a second", table.id)
            await asyncio.sleep(1.0)
            self.arm(table)


class ClaimClock(_Clock):
    """Due deadlines claimed from the shared store by whichever process is free."""

    def __init__(self, store: SqlStore, here: ThisProcess, bots: Bots) -> None:
        super().__init__(store, here, bots)
        self._wake = asyncio.Event()
        self._loop: asyncio.Task[None] | None = None
        self._firing: set[asyncio.Task[None]] = set()

    async def start(self, tables: Loader, mover: Mover) -> None:
        self._tables, self._mover = tables, mover
        self._loop = asyncio.create_task(self._claim_loop())

    async def stop(self) -> None:
        self.bots.stop()
        tasks = [*([self._loop] if self._loop else []), *self._firing]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def arm(self, table: Table) -> None:
        """Claim at once if one of the table's deadlines is due, at its time if that
        comes before the next poll, else at the poll: a query now would find nothing
        (it was one wasted query a move, a tenth of a process's CPU under load)."""
        self.bots.ahead(table)
        if not table.deadlines or self.here.closing:
            return
        delay = (min(d.due_at for d in table.deadlines.values()) - now_ms()) / 1000
        if delay <= 0:
            self._wake.set()
        elif delay < POLL:
            asyncio.get_running_loop().call_later(delay + 0.002, self._wake.set)

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
                self.here.stats["claims"] += 1
                task = asyncio.create_task(self._fire(row))
                self._firing.add(task)
                task.add_done_callback(self._fired)

    def _fired(self, task: asyncio.Task[None]) -> None:
        self._firing.discard(task)
        self._wake.set()  # a slot is free: claim again

    async def _fire(self, row: dict[str, Any]) -> None:
        try:
            tables = self._tables
            table = None if tables is None else await tables.get(str(row["table_id"]))
            if table is None:  # (else caught up)
                return
            run = table.run
            if run is None or run.number != row["game"] or run.seq != row["seq"]:
                return  # the position moved on; its mover wrote new deadlines
            await self.fire(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a claimed deadline failed", row.get("table_id"))
