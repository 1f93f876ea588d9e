"""The local pool of worker processes: a bot's decision from its seat's world, a reduced
budget when decisions wait, a worker killed mid-decision replaced and the decision run
again, given-up decisions never sent, and no worker left behind by a parent killed -9."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from coup.work.jobs import world_of
from coup.work.pool import LocalPool
from tests.work.positions import decision, position
from tools.load import process


async def test_a_decision_is_a_legal_move_of_the_seat(pool: LocalPool) -> None:
    state, seat = position()
    legal = {str(m) for m in state.legal(seat)}
    hard = await pool.decide(decision(state, seat, seconds=30))
    medium = await pool.decide(decision(state, seat, seconds=30, bot="medium:skeptic", steps=0))
    assert hard.move in legal and medium.move in legal
    assert hard.steps > 0 and medium.steps == 0
    assert pool.stats()["decisions"] == 2


async def test_the_world_sent_holds_no_hidden_card() -> None:
    state, seat = position()
    import pickle

    world = pickle.loads(world_of(state, seat, random.Random(1)))
    assert world.view(seat) == state.view(seat)
    assert world.seed == 0 and world.deal.court == ()
    others = [s for s in range(state.n) if s != seat]
    draws = {tuple(pickle.loads(world_of(state, seat, random.Random(k))).hands[o] for o in others)
             for k in range(20)}  # fmt: skip
    assert len(draws) > 1  # the others' hands are drawn again for every world


async def test_a_saturated_pool_answers_with_smaller_budgets(pool: LocalPool) -> None:
    state, seat = position()
    legal = {str(m) for m in state.legal(seat)}
    asked = [decision(state, seat, seconds=3, n=n) for n in range(12)]
    answers = await asyncio.gather(*(pool.decide(d) for d in asked))
    assert all(a.move in legal for a in answers)  # none expired: each fitted its deadline
    assert any(a.reduced for a in answers)
    assert pool.stats()["reduced"] == sum(a.reduced for a in answers)


async def test_a_decision_past_its_deadline_is_not_run(pool: LocalPool) -> None:
    state, seat = position()
    answer = await pool.decide(decision(state, seat, seconds=-1))
    assert answer.move is None and pool.stats()["expired"] == 1


async def test_a_worker_killed_mid_decision_is_replaced_and_the_decision_run_again(
    pool: LocalPool,
) -> None:
    state, seat = position()
    first = pool.pids()
    slow = decision(state, seat, seconds=60, steps=2_000_000)  # long enough to be killed
    task = asyncio.ensure_future(pool.decide(slow))
    while pool.stats()["busy"] == 0:
        await asyncio.sleep(0.01)
    os.kill(first[0], signal.SIGKILL)
    answer = await task
    assert answer.move in {str(m) for m in state.legal(seat)}
    stats = pool.stats()
    assert (stats["deaths"], stats["retries"], stats["workers"]) == (1, 1, 1)
    assert pool.pids() != first


async def test_a_decision_given_up_is_never_sent(pool: LocalPool) -> None:
    state, seat = position()
    slow = asyncio.ensure_future(pool.decide(decision(state, seat, seconds=60, steps=400_000)))
    while pool.stats()["busy"] == 0:
        await asyncio.sleep(0.01)
    waiting = [asyncio.ensure_future(pool.decide(decision(state, seat, seconds=60, n=n)))
               for n in range(1, 5)]  # fmt: skip
    await asyncio.sleep(0)
    assert pool.stats()["queued"] == 4
    for task in waiting:
        task.cancel()
    await slow
    assert pool.stats()["queued"] == 0 and pool.stats()["decisions"] == 1


PARENT = """
import asyncio, sys
from coup.work.pool import LocalPool
from tests.work.positions import decision, position
async def main():
    pool = LocalPool(2, coach_processes=1)
    await pool.start(wait=True)
    print(*pool.pids("bots"), *pool.pids("coach"), flush=True)
    await asyncio.sleep(600)
asyncio.run(main())
"""


def test_no_worker_outlives_a_parent_killed_9() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    pids = [int(p) for p in parent.stdout.readline().split()]
    assert len(pids) == 3 and all(alive(p) for p in pids)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    end = time.monotonic() + 30
    while any(alive(p) for p in pids) and time.monotonic() < end:
        time.sleep(0.05)
    assert not [p for p in pids if alive(p)]


def alive(pid: int) -> bool:
    """The process exists and is not a zombie waiting to be reaped."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def children(pid: int) -> list[int]:
    """The process's children (Linux's /proc)."""
    out: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            out += [int(p) for p in f.read().split()]
    return out


def test_no_worker_of_coup_serve_outlives_a_kill_9(tmp_path: Path) -> None:
    server = process.ServerProcess(f"sqlite:///{tmp_path / 'coup.db'}", "--workers", "2")
    server.start()
    try:
        workers = children(server.pid)
        assert len(workers) >= 3 and all(alive(p) for p in workers)  # 2 bots', 1 coach's
    finally:
        server.kill()
    end = time.monotonic() + 30
    while any(alive(p) for p in workers) and time.monotonic() < end:
        time.sleep(0.05)
    assert not [p for p in workers if alive(p)]
