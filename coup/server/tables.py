"""The tables this process holds in memory, by id: loaded from the store on first use (on
a shared store, first caught up with what other processes wrote), dropped when nobody has
used them for a while; they load again when opened."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from coup.server.catchup import CatchUp
from coup.server.hub import Hub
from coup.server.table import Table
from coup.store import SqlStore

IDLE_EVICT = 600.0  # seconds


class _Loading:
    """A table being read from the store: one reader at a time, the others wait for it."""

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        self.users = 0


class Tables:
    def __init__(
        self,
        held: dict[str, Table],
        store: SqlStore,
        catchup: CatchUp,
        hub: Hub,
        loaded: Callable[[Table], None],
    ) -> None:
        self.held = held  # shared with `catchup` (a bus message about a table held here)
        self.store = store
        self.catchup = catchup
        self.hub = hub
        self.loaded = loaded  # a table was read from the store: its clock is armed
        self._loading: dict[str, _Loading] = {}

    def add(self, table: Table) -> None:
        table.touched = time.monotonic()
        self.held[table.id] = table

    async def get(self, table_id: str) -> Table | None:
        """The table, from memory or loaded from the store. On a shared store it is first
        caught up (one query when nothing changed): a request may come right after a write
        on another process whose bus message is still on its way."""
        table = self.held.get(table_id)
        loaded = table is not None
        if table is None:
            if len(table_id) > 64:
                return None
            loading = self._loading.setdefault(table_id, _Loading())
            loading.users += 1
            try:
                async with loading.lock:
                    table = self.held.get(table_id)
                    if table is None:
                        data = await self.store.load_table(table_id)
                        if data is None:
                            return None
                        table = self.catchup.build(data)
                        self.held[table_id] = table
                        self.loaded(table)
            finally:  # also when there was no such table: a lookup leaves nothing behind
                loading.users -= 1
                if not loading.users:
                    del self._loading[table_id]
        table.touched = time.monotonic()
        if self.store.shared:
            await self.catchup.refresh(table, extras=not loaded)
        return table

    async def sweep(self, every: float = 60.0, idle: float = IDLE_EVICT) -> None:
        """Drop from memory the tables nobody uses (no game running, no connection,
        untouched for `idle` seconds), every `every` seconds, until cancelled."""
        while True:
            await asyncio.sleep(every)
            self.evict(idle)

    def evict(self, idle: float = IDLE_EVICT) -> int:
        cutoff = time.monotonic() - idle
        gone = [
            t.id
            for t in self.held.values()
            if not t.playing
            and t.touched < cutoff
            and not self.hub.of(t.id)
            and not t.lock.locked()
        ]
        for table_id in gone:
            del self.held[table_id]
        return len(gone)
