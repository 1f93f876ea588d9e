"""A change to a table, committed: the last steps of every change, the same for a move,
a chat line, a seat taken or a connection opened.

The part that makes the change (the dealer, the lobby, chat, presence) hands `Commit` a
step that checks the change on a copy, writes it to the store and swaps it in; `Commit`
runs it under the table's lock, again after catching up when another process wrote the
table first (the store raised `Conflict`: the step re-checks everything), then

    clock -> views -> bus

the table's clock is re-armed (when the change planned new deadlines), this process's
connections of the table are sent their views, and the other processes are told on the
bus (with the moves, so that they need not read the store). With one process on the
memory bus nobody else could hear: the bus is skipped.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from coup.bus import Bus
from coup.server import bus_message, views
from coup.server.catchup import CatchUp
from coup.server.clock import Clock
from coup.server.hub import Hub
from coup.server.protocol import ProtocolError
from coup.server.spectators import Spectators
from coup.server.table import Table
from coup.server.this_process import ThisProcess
from coup.store import Conflict

T = TypeVar("T")
ATTEMPTS = 20  # a write that keeps losing races this often gives up with `internal`


class Commit:
    def __init__(
        self,
        catchup: CatchUp,
        clock: Clock,
        hub: Hub,
        spectators: Spectators,
        bus: Bus,
        here: ThisProcess,
    ) -> None:
        self.catchup = catchup
        self.clock = clock
        self.hub = hub
        self.spectators = spectators
        self.bus = bus
        self.here = here

    async def __call__(
        self, table: Table, step: Callable[[], Awaitable[T]], *, presence: str | None = None
    ) -> T:
        """Run `step` (under the table's lock) until it does not lose a race, then re-arm
        the clock if the table has new deadlines, and tell (`presence`: the member whose
        connection count alone changed)."""
        deadlines = table.deadlines  # every change that plans the clocks swaps in a new dict
        for _ in range(ATTEMPTS):
            try:
                async with table.lock:
                    result = await step()
                break
            except Conflict:
                self.here.stats["conflicts"] += 1
                await self.catchup.refresh(table)
        else:
            raise ProtocolError("internal", "the table is too busy right now; try again")
        if table.deadlines is not deadlines:
            self.clock.arm(table)
        await self.tell(table, presence)
        return result

    async def tell(self, table: Table, presence: str | None = None) -> None:
        """Show the change to this process's sockets, then tell the other processes."""
        table.touched = time.monotonic()
        if self.here.closing:
            return
        self.show(table)
        if self.bus.alone():  # one process on the memory bus: nobody else to tell
            return
        message = self.message(table, presence)
        # Shielded: a clock task cancelled right after its move must still tell.
        await asyncio.shield(self.bus.publish(table.id, message))

    def show(self, table: Table) -> None:
        views.show(table, self.hub.of(table.id), self.spectators.of(table))

    def message(self, table: Table, presence: str | None) -> str:
        """The bus message telling of the change just committed to `table`: with the
        moves when the others last heard of the version before (`table.told`)."""
        before = table.told
        watchers, wseq = self.spectators.counted(table)
        message = bus_message.encode(self.here.id, table, before, presence, watchers, wseq)
        stats = self.here.stats
        plain = message.count(" ") == 1  # no moves sent along: the others read the store
        stats["sent_plain" if plain else "sent_moves"] += 1
        now = table.told = bus_message.mark(table)
        if self.here.log_stats and plain and before and len(stats) < 40:
            key = f"plain dv={now.version - before.version} dseq={now.seq - before.seq} dg={now.game - before.game}"
            stats[key] = stats.get(key, 0) + 1
        return message
