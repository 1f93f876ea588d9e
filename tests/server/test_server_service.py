"""The table service and the timers, in-process (no sockets)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import coup
from coup.bus.memory import MemoryBus
from coup.server.hub import Hub
from coup.server.service import TableService
from coup.server.settings import REACTION_PHASES
from coup.server.timers import default_move
from coup.store import open_store


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    store = await open_store(f"sqlite:///{tmp_path / 'svc.db'}")
    svc = TableService(store, MemoryBus(), Hub(), bot_delay=(0, 0))
    await svc.start()
    yield svc
    await svc.stop()
    await store.close()


async def test_idle_tables_leave_memory_and_come_back(service: TableService) -> None:
    table, _, token = await service.create("Mahshid", {"seats": 3})
    await service.join(table, "Sepideh", 2)
    await service.chat(table, table.seats[0].member if table.seats[0] else None, "salam")
    version = table.version
    assert service.evict(idle=0) == 1 and table.id not in service.tables
    again = await service.get(table.id)
    assert again is not None and again is not table
    assert again.version == version
    assert [s.name if s else None for s in again.seats] == ["Mahshid", None, "Sepideh"]
    assert again.member_by_token(token) == table.seats[0].member  # type: ignore[union-attr]
    assert [c["text"] for c in again.chat] == ["salam"]


def test_default_moves_follow_the_issue() -> None:
    rng = random.Random(5)
    seen: set[str] = set()
    for game in range(60):
        state = coup.new_game(
            players=rng.randint(2, 6),
            seed=rng.randrange(2**64),
            characters=rng.choice(["ambassador", "inquisitor"]),
        )
        while not state.over:
            for seat in state.waiting:
                move = default_move(state, seat)
                legal = [str(m) for m in state.legal(seat)]
                assert move in legal
                phase = str(state.phase)
                seen.add(phase)
                if phase in REACTION_PHASES:
                    assert move == "pass"
                elif phase == "action":
                    assert move == "income" if "income" in legal else move.startswith("coup ")
                elif phase in ("lose", "prove"):
                    assert move.startswith("lose ")
                elif phase == "exchange":
                    own = state.view(seat)["players"][seat]["cards"]
                    assert sorted(move.split()[1:]) == sorted(own)
                elif phase == "examine":
                    assert move == "return"
            seat = rng.choice(state.waiting)
            state.play(seat, rng.choice(state.legal(seat)))
    assert {"action", "react", "lose", "exchange"} <= seen
