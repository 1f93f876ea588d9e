"""Tables whose bots decide in worker processes: a hard-bot game played to its end by the
workers alone, a medium bot answering at once when no worker is free, and no decision
left asked for once its table's game is over."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from coup.bus.memory import MemoryBus
from coup.server.hub import Hub
from coup.server.protocol import ProtocolError
from coup.server.service import TableService
from coup.server.table import Table
from coup.store import open_store
from coup.work.pool import LocalPool
from tests.work.positions import decision, position


@pytest.fixture
async def service(tmp_path: Path, pool: LocalPool) -> AsyncIterator[TableService]:
    store = await open_store(f"sqlite:///{tmp_path / 'bots.db'}")
    # the bots think for a second: slack for a worker on a busy machine
    svc = TableService(store, MemoryBus(), Hub(), bot_delay=(1.0, 1.0), workers=pool)
    await svc.start()
    yield svc
    await svc.stop()
    await store.close()


async def play_out(service: TableService, table: Table, seconds: float = 120) -> None:
    """The host (seat 0) plays at random until the game is over."""
    rng = random.Random(4)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        run = table.run
        assert run is not None
        if run.state.over:
            return
        if 0 in run.state.waiting:
            try:
                await service.dealer.play(table, 0, str(rng.choice(run.state.legal(0))), None)
            except ProtocolError as exc:
                assert exc.code == "stale"
        await asyncio.sleep(0.005)
    raise AssertionError("the game did not end")


# Timed: every answer must come by its deadline, from a worker that runs nicer than
# everything else (pool.BOT_NICE). Beside other tests on two cores it can be starved
# past a deadline, and the server then rightly answers with the medium bot: so alone.
@pytest.mark.alone
async def test_a_hard_bot_table_plays_to_the_end_with_the_workers_alone(
    service: TableService, pool: LocalPool
) -> None:
    table, _, _ = await service.create("Host", {"seats": 2, "reaction_timer": 0})
    await service.add_bot(table, 1, "hard", None)
    await service.start_game(table)
    await play_out(service, table)
    assert service.bots.stats()["answered_here"] == 0, (service.bots.stats(), pool.stats())
    assert pool.stats()["decisions"] > 0
    # nothing of the table is left asked for, nor waiting in the pool
    assert table.thinking == {} and pool.stats()["queued"] == 0


async def test_a_medium_bot_answers_at_once_when_no_worker_is_free(
    service: TableService, pool: LocalPool
) -> None:
    state, seat = position()
    held = asyncio.ensure_future(pool.decide(decision(state, seat, seconds=60)))
    while pool.stats()["busy"] == 0:
        await asyncio.sleep(0.01)
    os.kill(pool.pids()[0], signal.SIGSTOP)  # the only worker holds its decision
    try:
        table, _, _ = await service.create("Host", {"seats": 2, "reaction_timer": 0})
        await service.add_bot(table, 1, "medium", "skeptic")
        await service.start_game(table)
        await play_out(service, table)
    finally:
        os.kill(pool.pids()[0], signal.SIGCONT)
    assert service.bots.stats()["answered_here"] > 0
    assert pool.stats()["decisions"] == 0  # nothing else was sent to the pool
    held.cancel()
