"""Who sits where and how the table is set: a new table, the lobby's changes (seats,
bots, settings) and, during a game, who plays a seat (a player leaves, the host hands a
seat to a bot, a player takes it back).

Each change is one of `Table`'s pure operations (`table.py`: check, change, or refuse
with nothing changed) run on a copy; the copy is stored and swapped in, then shown like
any other change (`commit.py`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from coup.server import game_run, timers
from coup.server.commit import Commit
from coup.server.protocol import now_ms
from coup.server.settings import DEFAULTS, merge
from coup.server.table import Table, new_table_id
from coup.server.timers import Timing
from coup.store import SqlStore

T = TypeVar("T")


class Lobby:
    def __init__(self, store: SqlStore, commit: Commit, timing: Timing) -> None:
        self.store = store
        self.commit = commit
        self.timing = timing

    async def create(
        self, name: str, settings: Any, device: str | None = None
    ) -> tuple[Table, int, str]:
        """A new table with its host (`name`) in seat 0: (table, seat, token)."""
        merged = merge(DEFAULTS, settings if settings is not None else {})
        table = Table(new_table_id(), merged, [None] * int(merged["seats"]))
        seat, token = table.sit(name, 0, host=True, device=device)
        row = {
            "id": table.id,
            "created_at": now_ms(),
            "status": table.status,
            "version": table.version,
            "games": 0,
            "last_winner": None,
        }
        await self.store.create_table(row, table.settings, table.seat_rows())
        return table, seat, token

    async def change(self, table: Table, op: Callable[[Table], T]) -> T:
        """A change of seats or settings (`op` on a copy of the table)."""
        return await self.commit(table, lambda: self._change(table, op))

    async def _change(self, table: Table, op: Callable[[Table], T]) -> T:
        draft = copy.copy(table)
        draft.seats = list(table.seats)
        draft.settings = dict(table.settings)
        draft.former = list(table.former)
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
        table.former = draft.former
        return result

    async def in_game(self, table: Table, op: Callable[[Table], None]) -> None:
        """Who plays a seat changes during a game: the seats and the clocks change
        together, and the game notes the handoff."""
        await self.commit(table, lambda: self._in_game(table, op))

    async def _in_game(self, table: Table, op: Callable[[Table], None]) -> None:
        draft = copy.copy(table)
        draft.seats = list(table.seats)
        draft.former = list(table.former)
        if table.run is not None:
            draft.run = replace(table.run)  # op() notes the handoff on this copy
        op(draft)
        version = table.version + 1
        draft.deadlines = self.timing.plan(draft, fresh=False)
        before = 0 if table.run is None else len(table.run.handoffs)
        await self.store.save_seats(
            table.id,
            version=version,
            seats=draft.seat_rows(),
            deadlines=timers.rows(draft),
            handoffs=[] if draft.run is None else game_run.handoff_rows(draft.run, before),
        )
        table.seats, table.run, table.deadlines = draft.seats, draft.run, draft.deadlines
        table.version, table.former = version, draft.former
