"""The clock: when a deadline passes (a turn or reaction timer, an `away` clock, a bot's
turn), one move is played through `Dealer.play()` (`dealer.py`), the path people's moves
take.

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
from typing import TYPE_CHECKING, Any, Protocol

from coup.server import games
from coup.server.protocol import ProtocolError, now_ms
from coup.server.table import Table
from coup.server.timers import default_move
from coup.store import processes as db

if TYPE_CHECKING:
    from coup.server.service import TableService

log = logging.getLogger("coup.server")

LEASE = 5_000  # ms a claimed deadline stays ours before another process may take it
POLL = 0.25  # seconds between claim queries when nothing local is due sooner
FIRING = 8  # deadlines played at once by one process; more wait for a free slot


class Clock(Protocol):
    async def start(self) -> None: ...
    async def stop(self) -> None: ...
    def arm(self, table: Table) -> None:
        """The table's deadlines changed (after every change)."""


async def fire(service: TableService, table: Table) -> None:
    """Play the move of the earliest deadline that has passed (a timer's default, or a
    bot's choice); then the clock re-arms."""
    now = now_ms()
    run = table.run
    due = sorted((d.due_at, seat) for seat, d in table.deadlines.items() if d.due_at <= now)
    if run is None or not table.playing or not due:
        service.clock.arm(table)
        return
    _, seat = due[0]
    deadline = table.deadlines[seat]
    state = run.state  # never changed in place: every move swaps in a new state
    try:
        if deadline.kind == "bot":
            move = await games.bot_move(table, run, seat)
            await service.dealer.play(table, seat, move, None, expect=run)
        else:
            move = default_move(state, seat)
            await service.dealer.play(table, seat, move, None, timeout=True, expect=run)
    except ProtocolError as exc:
        if exc.code in ("stale", "no_game_running"):
            return  # someone moved first (and re-armed the clock), or the game ended
        # Never leave a seat without a clock: play a random legal move instead.
        log.warning("table %s: clock move for seat %s refused: %s", table.id, seat, exc)
        fallback = str(random.choice(state.legal(seat)))
        await service.dealer.play(
            table, seat, fallback, None, timeout=deadline.kind != "bot", expect=run
        )


class TableClocks:
    """One task per table with deadlines, sleeping until the earliest."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    async def start(self) -> None:
        for table_id in await self.service.store.open_tables():
            await self.service.get(table_id)  # loading a table arms its clock

    async def stop(self) -> None:
        tables = list(self.service.tables.values())
        for table in tables:
            if table.clock is not None:
                table.clock.cancel()
        for table in tables:
            if table.clock is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await table.clock

    def arm(self, table: Table) -> None:
        current = asyncio.current_task()
        if table.clock is not None and table.clock is not current and not table.clock.done():
            table.clock.cancel()
        table.clock = None
        if self.service.closing or not table.deadlines:
            return
        due = min(d.due_at for d in table.deadlines.values())
        table.clock = asyncio.create_task(self._tick(table, due))

    async def _tick(self, table: Table, due: int) -> None:
        delay = (due - now_ms()) / 1000
        if delay > 0:
            await asyncio.sleep(delay)
        try:
            await fire(self.service, table)
        except Exception:
            # E.g. the database was briefly unavailable: nothing changed; try again soon,
            # so that the game never hangs.
            log.exception("table %s: the clock failed; retrying in a second", table.id)
            await asyncio.sleep(1.0)
            self.arm(table)


class ClaimClock:
    """Due deadlines claimed from the shared store by whichever process is free."""

    def __init__(self, service: TableService) -> None:
        self.service = service
        self._wake = asyncio.Event()
        self._loop: asyncio.Task[None] | None = None
        self._firing: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._loop = asyncio.create_task(self._claim_loop())

    async def stop(self) -> None:
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
        if not table.deadlines or self.service.closing:
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
                claimed = await db.claim(
                    self.service.store, now=now_ms(), lease_ms=LEASE, limit=free
                )
            except Exception:
                log.exception("claiming deadlines failed")
                await asyncio.sleep(1)
                continue
            for row in claimed:
                self.service.stats["claims"] += 1
                task = asyncio.create_task(self._fire(row))
                self._firing.add(task)
                task.add_done_callback(self._fired)

    def _fired(self, task: asyncio.Task[None]) -> None:
        self._firing.discard(task)
        self._wake.set()  # a slot is free: claim again

    async def _fire(self, row: dict[str, Any]) -> None:
        try:
            table = await self.service.get(str(row["table_id"]))  # caught up
            if table is None:
                return
            run = table.run
            if run is None or run.number != row["game"] or run.seq != row["seq"]:
                return  # the position moved on; its mover wrote new deadlines
            await fire(self.service, table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: a claimed deadline failed", row.get("table_id"))
