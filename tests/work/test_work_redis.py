"""The Redis backend: `coup worker` processes take the decisions and the coach's steps of
the servers on that Redis. A hard-bot table plays to its end with them alone; killing a
worker's process mid-decision, or the whole `coup worker`, still ends the game; a
saturated queue answers with smaller budgets; no job of a table is left once its game is
over; an asked-for coach step goes before the automatic ones."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from coup.bus.memory import MemoryBus
from coup.server.hub import Hub
from coup.server.service import TableService
from coup.store import open_store
from coup.work.queue import Keys, RedisWorkers
from tests.work.positions import decision, position
from tests.work.test_work_pool import alive, children
from tests.work.test_work_tables import play_out
from tools.load.fleet import fresh_channel

REDIS = os.environ.get("COUP_TEST_REDIS", "redis://127.0.0.1:6379/0")


@pytest.fixture
def url() -> str:
    return fresh_channel(REDIS, "work")


class CoupWorker:
    """A `coup worker` process."""

    def __init__(self, url: str, processes: int = 1) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "coup", "worker", "--bus", url, "--processes", str(processes)],
            stdout=subprocess.DEVNULL,
        )

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


@pytest.fixture
def worker(url: str) -> Iterator[CoupWorker]:
    w = CoupWorker(url)
    yield w
    w.stop()


@pytest.fixture
async def workers(url: str, worker: CoupWorker) -> AsyncIterator[RedisWorkers]:
    try:
        w = RedisWorkers(url)
        await w.start()
    except OSError as exc:  # pragma: no cover - Redis not running
        pytest.skip(f"Redis is not reachable: {exc}")
    end = time.monotonic() + 60
    while w.stats()["workers"] < 1 and time.monotonic() < end:  # the worker starts
        await asyncio.sleep(0.1)
    yield w
    await w.stop()


@pytest.fixture
async def service(tmp_path: Path, workers: RedisWorkers) -> AsyncIterator[TableService]:
    store = await open_store(f"sqlite:///{tmp_path / 'bots.db'}")
    svc = TableService(store, MemoryBus(), Hub(), bot_delay=(1.0, 1.0), workers=workers)
    await svc.start()
    yield svc
    await svc.stop()
    await store.close()


async def hard_table(service: TableService) -> object:
    table, _, _ = await service.create("Host", {"seats": 2, "reaction_timer": 0})
    await service.add_bot(table, 1, "hard", None)
    await service.start_game(table)
    return table


@pytest.mark.alone  # timed: every answer by its deadline (test_work_tables says why)
async def test_a_hard_bot_table_plays_to_the_end_with_coup_worker_alone(
    service: TableService, workers: RedisWorkers
) -> None:
    table = await hard_table(service)
    await play_out(service, table)  # type: ignore[arg-type]
    assert service.bots.stats()["answered_here"] == 0, (service.bots.stats(), workers.stats())
    assert workers.stats()["decisions"] > 0
    await asyncio.sleep(1.0)  # a look at the queue
    assert workers.stats()["queued"] == 0 and workers._waiting == {}


async def test_killing_a_workers_process_or_the_worker_mid_game_still_ends_it(
    service: TableService, workers: RedisWorkers, worker: CoupWorker
) -> None:
    table = await hard_table(service)
    game = asyncio.ensure_future(play_out(service, table))  # type: ignore[arg-type]
    while workers.stats()["decisions"] < 2 and not game.done():
        await asyncio.sleep(0.01)
    os.kill(children(worker.proc.pid)[0], signal.SIGKILL)  # a pool process, mid-game
    while workers.stats()["decisions"] < 4 and not game.done():
        await asyncio.sleep(0.01)
    worker.proc.kill()  # the whole coup worker: the medium bot answers here from now on
    await game


async def test_a_saturated_queue_answers_with_smaller_budgets(workers: RedisWorkers) -> None:
    state, seat = position()
    legal = {str(m) for m in state.legal(seat)}
    asked = [decision(state, seat, seconds=4, n=n) for n in range(12)]
    answers = await asyncio.gather(*(workers.decide(d) for d in asked))
    assert all(a.move in legal for a in answers)
    assert any(a.reduced for a in answers)


async def test_an_asked_for_coach_step_goes_before_the_automatic_ones(url: str) -> None:
    w = RedisWorkers(url)  # no coup worker: the steps stay queued, in order
    await w.start()
    steps = [asyncio.ensure_future(w.coach("plan", {}, n, asked=n == 3)) for n in range(4)]
    await asyncio.sleep(0.3)
    from arq.jobs import Job

    order = await w._redis.zrange(Keys.of(url).coach, 0, -1)  # by score: the next first
    infos = [await Job(k.decode(), w._redis, _queue_name=Keys.of(url).coach).info() for k in order]
    assert len(infos) == 4 and infos[0] is not None and infos[0].args[1] == 3
    for step in steps:
        step.cancel()
    await w._redis.delete(Keys.of(url).coach)
    await w.stop()


def test_no_process_of_coup_worker_outlives_a_kill_9(url: str) -> None:
    w = CoupWorker(url, processes=2)
    end = time.monotonic() + 60
    while len(children(w.proc.pid)) < 3 and time.monotonic() < end:
        time.sleep(0.1)
    pool = children(w.proc.pid)
    assert len(pool) >= 3
    w.proc.kill()
    w.proc.wait()
    end = time.monotonic() + 30
    while any(alive(p) for p in pool) and time.monotonic() < end:
        time.sleep(0.05)
    assert not [p for p in pool if alive(p)]
