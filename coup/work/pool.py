"""The local pool: worker processes on this machine, fed from asyncio without threads.

Two lanes, each its own processes: the bots' (`decide`, ordered by deadline, at a lower
CPU priority than the server so the tables' event loop goes first) and the coach's
(`plan` and `note`, an asked-for seat's before the automatic ones, at the lowest priority,
`nice 19`). A job waits in its lane until one of the lane's processes is free; the
answer comes back on the process's pipe, read when the event loop sees it readable.

Bounded and graceful:
- a hard bot's decision is sent with a share of the full budget when decisions wait
  (`1 / (1 + waiting per process)`), and the worker fits it to the time left (`jobs.py`);
  a decision whose deadline passed while it waited is answered at once with no move;
- a cancelled job (its table moved on, ended or was dropped) leaves the queue unsent;
- a worker that dies mid-job (killed, out of memory) is replaced and its job run once
  more; a second death is the job's failure (`WorkerDied`). A decision still running
  `STUCK` seconds after its deadline has its worker killed the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import multiprocessing
import os
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from coup.work import child
from coup.work.jobs import Answer, Decision
from coup.work.meter import Meter

log = logging.getLogger("coup.work")

#: The bots' processes run this much nicer than the server, the coach's at the lowest.
BOT_NICE = 5
COACH_NICE = 19
#: Seconds past its deadline a decision may run before its worker is killed.
STUCK = 5.0


class WorkerDied(RuntimeError):
    """The job's worker died twice while running it."""


def default_processes(cores: int | None = None) -> int:
    """Bot processes for this machine: one per core but one (left to the server)."""
    return max(1, (cores or os.cpu_count() or 2) - 1)


@dataclass(order=True)
class _Job:
    order: tuple[float, ...]
    number: int
    task: str = field(compare=False)
    args: tuple[Any, ...] = field(compare=False)
    future: asyncio.Future[Any] = field(compare=False)
    deadline: float | None = field(compare=False, default=None)
    tries: int = field(compare=False, default=0)
    backlog: float = field(compare=False, default=0.0)  # decisions waiting elsewhere, per process


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection
    job: _Job | None = None
    watchdog: asyncio.TimerHandle | None = None
    ready: bool = False  # its imports done (`child.READY`): it takes jobs


class _Lane:
    def __init__(self, name: str, processes: int, nice: int) -> None:
        self.name = name
        self.size = processes
        self.nice = nice
        self.workers: list[_Worker] = []
        self.queue: list[_Job] = []

    def idle(self) -> list[_Worker]:
        return [w for w in self.workers if w.job is None and w.ready]

    def ready(self) -> int:
        return sum(w.ready for w in self.workers)


class LocalPool:
    """Worker processes on this machine (`Workers`: coup/work/__init__.py)."""

    def __init__(self, processes: int | None = None, coach_processes: int = 1) -> None:
        self.bots = _Lane("bots", processes or default_processes(), BOT_NICE)
        self.coach_lane = _Lane("coach", coach_processes, COACH_NICE)
        self.meter = Meter()
        self._numbers = itertools.count()
        self._context = multiprocessing.get_context("spawn")
        self._running = False

    # ---- lifecycle ------------------------------------------------------------------
    async def start(self, *, wait: bool = False) -> None:
        """Start the workers; with `wait`, return once each is ready (at most a minute)."""
        self._running = True
        for lane in (self.bots, self.coach_lane):
            while len(lane.workers) < lane.size:
                self._spawn(lane)
        end = time.monotonic() + 60
        while wait and time.monotonic() < end:
            if all(lane.ready() == lane.size for lane in (self.bots, self.coach_lane)):
                return
            await asyncio.sleep(0.02)

    async def stop(self) -> None:
        """Kill every worker (they hold nothing worth keeping) and fail what waits."""
        self._running = False
        loop = asyncio.get_running_loop()
        for lane in (self.bots, self.coach_lane):
            for worker in lane.workers:
                self._forget(worker)
                with contextlib.suppress(Exception):
                    worker.process.kill()
            for worker in lane.workers:
                await loop.run_in_executor(None, worker.process.join, 2.0)
            for job in [*lane.queue, *(w.job for w in lane.workers if w.job)]:
                if not job.future.done():
                    job.future.cancel()
            lane.workers, lane.queue = [], []

    def pids(self, lane: str = "bots") -> list[int]:
        """The worker processes' ids (tests kill them)."""
        chosen = self.bots if lane == "bots" else self.coach_lane
        return [w.process.pid for w in chosen.workers if w.process.pid is not None]

    # ---- the interface --------------------------------------------------------------
    def idle(self) -> bool:
        """A bot process is free now and no decision waits."""
        return not self.bots.queue and bool(self.bots.idle())

    async def decide(self, decision: Decision, backlog: float = 0.0) -> Answer:
        """The decision's answer (`move` None if its deadline passed before it started).
        `backlog`: decisions waiting elsewhere per process (a Redis queue's), counted as
        this lane's own waiting ones are when a hard bot's budget is shared out."""
        order = (0.0 if decision.steps == 0 else 1.0, decision.deadline)
        job = self._job(self.bots, "decide", (decision,), order, decision.deadline)
        job.backlog = backlog
        answer: Answer = await self._wait(job)
        self.meter.answered(answer)
        return answer

    async def coach(self, task: str, *args: Any, asked: bool = False) -> Any:
        """A coach step (`plan` or `note`), an asked-for seat's before the others'."""
        return await self._wait(self._job(self.coach_lane, task, args, (0.0 if asked else 1.0,)))

    def stats(self) -> dict[str, float]:
        return self.meter.stats(
            queued=len(self.bots.queue),
            workers=self.bots.ready(),
            busy=self.bots.ready() - len(self.bots.idle()),
            coach_queued=len(self.coach_lane.queue),
        )

    # ---- jobs -----------------------------------------------------------------------
    def _job(
        self, lane: _Lane, task: str, args: tuple[Any, ...], order: tuple[float, ...],
        deadline: float | None = None,
    ) -> _Job:  # fmt: skip
        number = next(self._numbers)
        future = asyncio.get_running_loop().create_future()
        job = _Job((*order, number), number, task, args, future, deadline)
        heapq.heappush(lane.queue, job)
        self._pump(lane)
        return job

    async def _wait(self, job: _Job) -> Any:
        try:
            return await job.future
        finally:  # a job given up (cancelled) before it was sent leaves the queue
            if not job.future.done():
                job.future.cancel()

    def _pump(self, lane: _Lane) -> None:
        """Send waiting jobs to the lane's free workers."""
        while lane.queue and self._running:
            free = lane.idle()
            if not free:
                return
            job = heapq.heappop(lane.queue)
            if job.future.done():
                continue  # given up while it waited
            if job.task == "decide":
                decision: Decision = job.args[0]
                if time.time() >= decision.deadline:
                    self.meter.count("expired")
                    job.future.set_result(Answer(None))
                    continue
                share = 1 + len(lane.queue) / max(1, lane.ready()) + job.backlog
                args: tuple[Any, ...] = (decision, int(decision.steps / share))
            else:
                args = job.args
            worker = free[0]
            try:
                worker.conn.send((job.number, job.task, args))
            except (OSError, ValueError):
                heapq.heappush(lane.queue, job)
                self._died(lane, worker)
                continue
            worker.job = job
            if job.deadline is not None:
                loop = asyncio.get_running_loop()
                when = loop.time() + max(0.0, job.deadline - time.time()) + STUCK
                worker.watchdog = loop.call_at(when, self._stuck, lane, worker, job)

    def _answered(self, lane: _Lane, worker: _Worker) -> None:
        try:
            number, ok, value = worker.conn.recv()
        except (EOFError, OSError):
            self._died(lane, worker)
            return
        if number == child.READY:
            worker.ready = True
            self._pump(lane)
            return
        job = worker.job
        worker.job = None
        if worker.watchdog is not None:
            worker.watchdog.cancel()
            worker.watchdog = None
        if job is not None and job.number == number and not job.future.done():
            if ok:
                job.future.set_result(value)
            else:
                job.future.set_exception(RuntimeError(value))
        self._pump(lane)

    def _stuck(self, lane: _Lane, worker: _Worker, job: _Job) -> None:
        if worker.job is job:
            log.warning("a %s worker ran past its deadline; killing it", lane.name)
            with contextlib.suppress(Exception):
                worker.process.kill()

    def _died(self, lane: _Lane, worker: _Worker) -> None:
        """The worker's pipe closed: replace it, run its job once more."""
        self._forget(worker)
        with contextlib.suppress(ValueError):
            lane.workers.remove(worker)
        self.meter.count("deaths")
        job = worker.job
        if job is not None and not job.future.done():
            job.tries += 1
            if job.tries > 1:
                job.future.set_exception(WorkerDied(f"a {lane.name} worker died twice"))
            else:
                self.meter.count("retries")
                heapq.heappush(lane.queue, job)
        if self._running:
            self._spawn(lane)
        self._pump(lane)

    def _spawn(self, lane: _Lane) -> None:
        ours, theirs = self._context.Pipe()
        process = self._context.Process(
            target=child.main, args=(theirs, lane.nice, os.getpid()), daemon=True,
            name=f"coup-{lane.name}-worker",
        )  # fmt: skip
        process.start()
        theirs.close()  # only the worker holds its end: our death closes the pipe for it
        worker = _Worker(process, ours)
        lane.workers.append(worker)
        asyncio.get_running_loop().add_reader(ours.fileno(), self._answered, lane, worker)
        self._pump(lane)

    def _forget(self, worker: _Worker) -> None:
        if worker.watchdog is not None:
            worker.watchdog.cancel()
        with contextlib.suppress(Exception):
            asyncio.get_running_loop().remove_reader(worker.conn.fileno())
        with contextlib.suppress(Exception):
            worker.conn.close()
