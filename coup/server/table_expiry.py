"""Tables nobody came back to, forgotten (`coup.store.expiry`): a lobby that never played
a game `LOBBY_DAYS` after its last sign of life, a table that played `FINISHED_DAYS`
after its last game's end or chat line, never one where a game runs or someone is
connected. Looked for every `EVERY` seconds by every process (each deletion is one
transaction; a table already gone is simply not found again).
"""

from __future__ import annotations

import asyncio
import logging

from coup.server.protocol import now_ms
from coup.server.table import Table
from coup.store import SqlStore
from coup.store.expiry import BATCH, expire

log = logging.getLogger("coup.server")

DAY_MS = 24 * 3600 * 1000
#: Days a lobby that never played a game is kept after its last sign of life.
LOBBY_DAYS = 7
#: Days a table that played is kept after its last game's end or chat line.
FINISHED_DAYS = 90
#: Seconds between looks for expired tables.
EVERY = 3600.0


class TableExpiry:
    def __init__(self, store: SqlStore, held: dict[str, Table]) -> None:
        self.store = store
        self.held = held  # the tables in this process's memory: an expired one leaves it

    async def run(self, every: float = EVERY) -> None:
        """Forget expired tables every `every` seconds, until cancelled."""
        while True:
            await asyncio.sleep(every)
            try:
                await self.once()
            except Exception:  # the store may be away for a moment: next time
                log.warning("could not look for expired tables", exc_info=True)

    async def once(self, now: int | None = None) -> list[str]:
        """Forget the tables expired at `now` (a batch at a time); their ids."""
        now = now_ms() if now is None else now
        gone: list[str] = []
        while True:
            batch = await expire(self.store, now, LOBBY_DAYS * DAY_MS, FINISHED_DAYS * DAY_MS)
            gone += batch
            for table_id in batch:
                self.held.pop(table_id, None)
            if len(batch) < BATCH:
                break
        if gone:
            log.info("forgot %d expired tables", len(gone))
        return gone
