"""How many spectators a table has, over every server process, and the cap on them.

Each process counts its own spectator connections (the hub's connections without a
seat), stores that count and tells the others on the bus; what it heard of the others
is the table's `watching` (`remote_spectators.py`). A spectator joining when the table already
has `cap` of them, over every process, is refused with `spectators_full`.
"""

from __future__ import annotations

import itertools

from coup.bus import Bus
from coup.server import bus_message
from coup.server.hub import Hub
from coup.server.protocol import ProtocolError, now_ms
from coup.server.table import Table
from coup.server.this_process import ThisProcess
from coup.store import SqlStore
from coup.store import processes as db

CAP = 100  # spectators per table, over every process (`coup serve --spectators`)


class Spectators:
    def __init__(
        self, hub: Hub, bus: Bus, store: SqlStore, here: ThisProcess, cap: int = CAP
    ) -> None:
        self.hub = hub
        self.bus = bus
        self.store = store
        self.here = here
        self.cap = cap
        self._counts = itertools.count(1)  # numbers this process's spectator counts

    def of(self, table: Table) -> int:
        """Spectators of the table: this process's connections without a seat, plus
        those the other processes last said they hold."""
        return self.local(table) + table.remote_spectators.total()

    def local(self, table: Table) -> int:
        return self.hub.spectators(table.id, table.holders())

    def counted(self, table: Table) -> tuple[int, int]:
        """This process's spectators of the table and the number of this count (later
        counts have higher numbers; the others keep the latest they hear)."""
        return self.local(table), next(self._counts)

    async def changed(self, table: Table, *, joining: bool = False) -> None:
        """A spectator connection was added to the hub here (`joining`: refused with
        `spectators_full`, and not counted, when that makes more than `cap` over every
        process; the caller then removes it) or one closed: this process's count is
        stored and every live process's is read."""
        async with table.lock:  # one count at a time, stored in order
            local, seq = self.counted(table)
            await self._store(table, local)
            full = joining and table.remote_spectators.total() + local > self.cap
            if full:
                local, seq = local - 1, next(self._counts)
                await self._store(table, local)
        if not self.here.closing:  # numbered: a message overtaken by a later count is ignored
            await self.bus.publish(table.id, bus_message.watchers(self.here.id, local, seq))
        if full:
            raise ProtocolError(
                "spectators_full",
                f"this table has {self.cap} spectators, as many as it takes; try again later",
            )

    async def _store(self, table: Table, local: int) -> None:
        mark = table.remote_spectators.mark()
        counts = await db.set_watchers(
            self.store, table.id, self.here.id, local, now=now_ms(), dead_after=db.DEAD_AFTER
        )
        table.remote_spectators.stored(counts, mark, self.here.id)
