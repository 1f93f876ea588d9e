"""Who is connected to a table's seats, across every server process.

Each process counts its own connections per (table, member); when a member's count here
goes from none to some (or back), the process writes (or deletes) its presence row for
that member, re-plans the table's clocks (an `away` clock starts for a seat nobody is
connected to) and bumps the table's version, in one transaction. A seat is connected
while a live process has a row for it. Every process beats its heartbeat every 2 s;
one silent for 10 s is dead: the others delete its rows and re-plan those tables.
"""

from __future__ import annotations

import asyncio
import copy
import logging

from coup.server import timers
from coup.server.catchup import CatchUp
from coup.server.commit import Commit
from coup.server.protocol import now_ms
from coup.server.table import Table
from coup.server.tables import Tables
from coup.server.this_process import ThisProcess
from coup.server.timers import Timing
from coup.store import SqlStore
from coup.store import processes as db

log = logging.getLogger("coup.server")
HEARTBEAT = 2.0  # seconds between heartbeats (and reaping, and the version resync)


class Presence:
    def __init__(
        self,
        store: SqlStore,
        commit: Commit,
        catchup: CatchUp,
        tables: Tables,
        here: ThisProcess,
        timing: Timing,
    ) -> None:
        self.store = store
        self.commit = commit
        self.catchup = catchup
        self.tables = tables
        self.here = here
        self.timing = timing
        self.local: dict[tuple[str, str], int] = {}  # (table, member) -> our connections

    async def change(self, table: Table, member: str, delta: int) -> None:
        """A player connection opened (+1) or closed (-1) here."""
        key = (table.id, member)
        before = self.local.get(key, 0)
        after = max(0, before + delta)
        if after:
            self.local[key] = after
        else:
            self.local.pop(key, None)
        if (before > 0) == (after > 0) or self.here.closing:
            return
        await self.commit(table, lambda: self._write(table, member, after > 0), presence=member)

    async def _write(self, table: Table, member: str, present: bool) -> None:
        now = now_ms()
        draft = copy.copy(table)
        draft.connected = dict(table.connected)
        draft.away_since = dict(table.away_since)
        count = max(0, draft.connected.get(member, 0) + (1 if present else -1))
        draft.connected[member] = count
        if count == 0:
            draft.away_since[member] = now
        draft.deadlines = self.timing.plan(draft, fresh=False)
        version = table.version + 1
        await db.set_presence(
            self.store,
            table.id,
            member,
            self.here.id,
            present=present,
            now=now,
            version=version,
            deadlines=timers.rows(draft),
        )
        table.connected, table.away_since = draft.connected, draft.away_since
        table.deadlines, table.version = draft.deadlines, version

    async def replan(self, table: Table) -> None:
        """Connections went away with a dead process: re-plan the clocks and tell."""
        await self.commit(table, lambda: self._replan(table))

    async def _replan(self, table: Table) -> None:
        await self.catchup.sync_presence(table, None)
        deadlines = self.timing.plan(table, fresh=False)
        version = table.version + 1
        draft = copy.copy(table)
        draft.deadlines = deadlines
        await self.store.save_deadlines(table.id, version=version, deadlines=timers.rows(draft))
        table.deadlines, table.version = deadlines, version

    async def heartbeats(self) -> None:
        """Say this process is alive; forget the connections of dead ones; every third
        beat, catch up tables whose bus message was lost."""
        beats = 0
        while True:
            await asyncio.sleep(HEARTBEAT)
            beats += 1
            try:
                now = now_ms()
                await db.heartbeat(self.store, self.here.id, now)
                for table_id in await db.reap(self.store, now, db.DEAD_AFTER):
                    table = await self.tables.get(table_id)
                    if table is not None:
                        await self.replan(table)
                if beats % 3 == 0 and self.store.shared:
                    await self.catchup.resync()
                if beats % 15 == 0 and self.here.log_stats:
                    log.warning(
                        "process %s: %s, %d tables",
                        self.here.id,
                        self.here.stats,
                        len(self.tables.held),
                    )
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("heartbeat failed")
