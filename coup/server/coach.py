"""The coach at the server: analyses of finished games, one at a time, out of the way.

The queue is the store's `coup_reviews` (`coup/store/analyses.py`): a game's end queues the
analyses of its people's seats in the same transaction as its last move (the service
passes `queued_rows`; nothing else happens in the event loop), and asking for any seat
(`Coach.ask`) queues that one. One worker per process takes the oldest queued row with a
conditional update, so of several processes exactly one runs it, and hands the replay and
each decision to a single child process started at the lowest CPU priority (`nice 19`),
so live tables, which run in this process, always go first. The row's progress is written
after each decision (and every `HEARTBEAT` seconds while one takes long), so any process
can report it and nobody takes over a live analysis. The result is stored with the game
and never computed twice. Queued rows outlive a restart: the worker looks at start, when
woken (a game of this process ended, someone asked) and every `POLL` seconds (rows queued
by other processes, or left running by one that went away).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from coup.bots.analysis import DEFAULT_BUDGET
from coup.review.coach import assemble, decisions, note
from coup.review.walk import Walk, walk
from coup.server.game_run import stored_record
from coup.server.protocol import now_ms
from coup.store.analyses import (
    ask_review,
    game_reviews,
    progress_review,
    requeue_running,
    take_review,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from coup.store import SqlStore

log = logging.getLogger("coup.server")

#: The seed of every analysis the server makes (a review is deterministic for it).
SEED = 0
#: Seconds between looks at the store for work when nothing woke the worker.
POLL = 10.0
#: Seconds between writes of a running analysis's row while one decision takes long.
HEARTBEAT = 30.0


class Lost(Exception):
    """Another process took the analysis over (this one was thought gone): stop."""


def _lower_priority() -> None:
    with contextlib.suppress(OSError, AttributeError):
        os.nice(19)


_walked: tuple[str, Walk] | None = None


def _walk(record: dict[str, Any]) -> Walk:
    """In the child process: the replayed game (the last one is kept)."""
    global _walked
    key = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()
    if _walked is None or _walked[0] != key:
        _walked = (key, walk(record))
    return _walked[1]


def _plan(record: dict[str, Any], seat: int) -> tuple[str, list[int]]:
    """In the child process: the seat's name and the moves of it to weigh."""
    w = _walk(record)
    return w.final.names[seat], decisions(w, seat)


def _note(record: dict[str, Any], seat: int, k: int, seed: int, budget: int) -> dict[str, Any]:
    """In the child process: the note on decision ``k``."""
    return note(_walk(record), seat, k, seed=seed, budget=budget)


def public(row: dict[str, Any]) -> dict[str, Any]:
    """A review's row as the API shows it (docs/protocol.md, the coach)."""
    out: dict[str, Any] = {"status": row["status"], "done": row["done"], "total": row["total"]}
    if row["status"] == "done" and row.get("result") is not None:
        out["coach"] = row["result"]
    return out


class Coach:
    def __init__(
        self,
        store: SqlStore,
        *,
        budget: int = DEFAULT_BUDGET,
        poll: float = POLL,
        heartbeat: float = HEARTBEAT,
    ) -> None:
        self.store = store
        self.budget = budget
        self.poll = poll
        self.heartbeat = heartbeat
        self.woken = asyncio.Event()
        self.pool: ProcessPoolExecutor | None = None
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if not self.store.shared:  # this process is the only writer: left by our last run
            again = await requeue_running(self.store, now_ms())
            if again:
                log.info("the coach queues again %d analyses left running", again)
        self.task = asyncio.create_task(self._work())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        if self.pool is not None:
            # The child holds nothing worth keeping and, at the lowest priority on a busy
            # machine, could take minutes to wind down: kill it, never wait for it.
            pool, self.pool = self.pool, None
            workers = list(getattr(pool, "_processes", {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for worker in workers:
                with contextlib.suppress(Exception):
                    worker.kill()

    def wake(self) -> None:
        """Look at the queue now (a game ended here, or someone asked)."""
        self.woken.set()

    async def ask(self, table_id: str, game: int, seat: int) -> dict[str, Any]:
        """The review's status (and result once done); queues it if nobody has yet."""
        row = await ask_review(self.store, table_id, game, seat, SEED, now_ms())
        if row["status"] == "queued":
            self.wake()
        return public(row)

    async def seats(self, table_id: str, game: int) -> list[dict[str, Any]]:
        """The game's analyses by seat, with their progress (queues nothing)."""
        return await game_reviews(self.store, table_id, game)

    async def _work(self) -> None:
        while True:
            self.woken.clear()
            job = None
            try:
                job = await take_review(self.store, now_ms())
                if job is not None:
                    await self._run(job)
            except asyncio.CancelledError:
                raise
            except Lost:
                log.info("the coach's analysis of %s was taken over by another process", job)
            except Exception:
                if job is None:
                    log.exception("the coach could not read its queue")
                else:
                    log.exception("the coach failed on table %(table_id)s game %(game)s "
                                  "seat %(seat)s", job)  # fmt: skip
                    with contextlib.suppress(Exception):
                        await progress_review(
                            self.store, job["table_id"], job["game"], job["seat"],
                            since=job["updated_at"], status="failed", done=0, total=None,
                            now=now_ms(),
                        )  # fmt: skip
            if job is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.woken.wait(), self.poll)

    def _executor(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=_lower_priority
            )
        return self.pool

    async def _progress(self, job: dict[str, Any], **values: Any) -> None:
        """Write the job's row (fenced by the last write); Lost if it was taken over."""
        now = now_ms()
        key = (job["table_id"], job["game"], job["seat"])
        if not await progress_review(self.store, *key, since=job["updated_at"], now=now, **values):
            raise Lost(key)
        job["updated_at"] = now

    async def _child(
        self, job: dict[str, Any], keep: dict[str, Any], fn: Callable[..., Any], *args: Any
    ) -> Any:
        """``fn(*args)`` in the child; the row is touched every `heartbeat` seconds meanwhile."""
        try:
            future: Future[Any] = self._executor().submit(fn, *args)
            waiting = asyncio.wrap_future(future)
            while True:
                done, _ = await asyncio.wait({waiting}, timeout=self.heartbeat)
                if done:
                    return waiting.result()
                await self._progress(job, **keep)
        except BrokenProcessPool:
            self.pool = None  # the child died (killed?): the next job starts a new one
            raise

    async def _run(self, job: dict[str, Any]) -> None:
        seat, seed = job["seat"], job["seed"]
        record = await stored_record(self.store, job["table_id"], job["game"])
        keep: dict[str, Any] = {"status": "running", "done": 0, "total": None}
        name, todo = await self._child(job, keep, _plan, record, seat)
        keep["total"] = len(todo)
        await self._progress(job, **keep)
        notes = []
        for k in todo:
            notes.append(await self._child(job, keep, _note, record, seat, k, seed, self.budget))
            keep["done"] = len(notes)
            if len(notes) < len(todo):
                await self._progress(job, **keep)
        result = assemble(name, seat, notes, seed=seed, budget=self.budget)
        await self._progress(job, status="done", done=len(todo), total=len(todo), result=result)
