"""A host picks a bot's level and personality per seat; the table keeps both."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from coup.bus.memory import MemoryBus
from coup.server.bot_moves import seat_bot
from coup.server.hub import Hub
from coup.server.protocol import ProtocolError
from coup.server.service import TableService
from coup.server.settings import config
from coup.server.views import table_info
from coup.store import open_store


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    store = await open_store(f"sqlite:///{tmp_path / 'bots.db'}")
    svc = TableService(store, MemoryBus(), Hub(), bot_delay=(0, 0))
    await svc.start()
    yield svc
    await svc.stop()
    await store.close()


async def test_personality_per_seat_is_shown_and_kept(service: TableService) -> None:
    assert config()["personalities"] == ["honest", "bluffer", "skeptic", "vengeful", "cautious"]
    table, _, _ = await service.create("Host", {"seats": 4})
    await service.add_bot(table, 1, "medium", "skeptic")
    await service.add_bot(table, 2, "hard", "vengeful")
    await service.add_bot(table, 3, "easy", "random")
    seats = table_info(table)["seats"]
    assert [(s["level"], s["personality"]) for s in seats[1:]] == [
        ("medium", "skeptic"),
        ("hard", "vengeful"),
        ("easy", None),
    ]
    assert seats[0]["personality"] is None
    assert service.tables.evict(idle=0) == 1
    again = await service.get(table.id)  # from the store
    assert again is not None
    assert [(s.level, s.personality) for s in again.seats[1:] if s] == [
        ("medium", "skeptic"),
        ("hard", "vengeful"),
        ("easy", None),
    ]
    with pytest.raises(ProtocolError) as refused:
        again.add_bot(1, "medium", "grumpy")
    assert refused.value.code == "bad_personality"


def test_the_seat_gets_that_bot() -> None:
    medium, hard, easy = (
        seat_bot("medium", "skeptic"),
        seat_bot("hard", "bluffer"),
        seat_bot("easy", None),
    )
    assert (medium.level, medium.personality, medium.here.name) == (
        "medium",
        "skeptic",
        "medium:skeptic",
    )
    # a hard bot's decisions are made in the workers; here, a medium bot of its personality
    assert (hard.level, hard.personality, hard.here.name) == ("hard", "bluffer", "medium:bluffer")
    # a random personality is drawn once for the game
    assert easy.level == "easy" and easy.personality in config()["personalities"]
