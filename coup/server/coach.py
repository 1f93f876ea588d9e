"""The coach at the server: analyses of finished games, one at a time, out of the way.

Asking for seat S of game N (`Coach.ask`) claims the review's row in the store
(`coup/store/reviews.py`); the process that claims it queues it. One worker per process
takes the queue in order and hands each decision to a single child process started at the
lowest CPU priority (`nice 19`), so live tables, which run in this process, always go
first; after each decision the row's progress is written, so any process can report it.
The result is stored with the game and never computed twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

from coup.bots.analysis import DEFAULT_BUDGET
from coup.review.coach import assemble, decisions, note
from coup.review.walk import Walk, walk
from coup.server.protocol import now_ms
from coup.store.reviews import claim_review, get_review, progress_review

if TYPE_CHECKING:
    from coup.store import SqlStore

log = logging.getLogger("coup.server")

#: The seed of every analysis the server makes (a review is deterministic for it).
SEED = 0

Job = tuple[str, int, int, dict[str, Any]]


def _lower_priority() -> None:
    with contextlib.suppress(OSError, AttributeError):
        os.nice(19)


_walked: tuple[str, Walk] | None = None


def _note(record: dict[str, Any], seat: int, k: int, seed: int, budget: int) -> dict[str, Any]:
    """In the child process: the note on decision ``k`` (the replayed game is kept)."""
    global _walked
    key = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()
    if _walked is None or _walked[0] != key:
        _walked = (key, walk(record))
    return note(_walked[1], seat, k, seed=seed, budget=budget)


def public(row: dict[str, Any]) -> dict[str, Any]:
    """A review's row as the API shows it (docs/protocol.md, the coach)."""
    out: dict[str, Any] = {"status": row["status"], "done": row["done"], "total": row["total"]}
    if row["status"] == "done" and row.get("result") is not None:
        out["coach"] = row["result"]
    return out


class Coach:
    def __init__(self, store: SqlStore, *, budget: int = DEFAULT_BUDGET) -> None:
        self.store = store
        self.budget = budget
        self.queue: asyncio.Queue[Job] = asyncio.Queue()
        self.pool: ProcessPoolExecutor | None = None
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
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

    async def ask(
        self, table_id: str, game: int, seat: int, record: dict[str, Any]
    ) -> dict[str, Any]:
        """The review's status (and result once done); queues it if nobody has yet."""
        row = await get_review(self.store, table_id, game, seat)
        if row is not None and row["status"] == "done":
            return public(row)
        mine, row = await claim_review(self.store, table_id, game, seat, SEED, now_ms())
        if mine:
            self.queue.put_nowait((table_id, game, seat, record))
        return public(row)

    async def _work(self) -> None:
        while True:
            job = await self.queue.get()
            try:
                await self._run(*job)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the coach failed on table %s game %s seat %s", *job[:3])
                with contextlib.suppress(Exception):
                    await progress_review(
                        self.store, *job[:3], status="failed", done=0, total=None, now=now_ms()
                    )

    def _executor(self) -> ProcessPoolExecutor:
        if self.pool is None:
            self.pool = ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"), initializer=_lower_priority
            )
        return self.pool

    async def _run(self, table_id: str, game: int, seat: int, record: dict[str, Any]) -> None:
        w = walk(record)
        todo = decisions(w, seat)
        key = (table_id, game, seat)
        await progress_review(
            self.store, *key, status="running", done=0, total=len(todo), now=now_ms()
        )
        loop = asyncio.get_running_loop()
        notes = []
        for done, k in enumerate(todo, 1):
            n = await loop.run_in_executor(
                self._executor(), _note, record, seat, k, SEED, self.budget
            )
            notes.append(n)
            status = "running" if done < len(todo) else "done"
            result = None
            if status == "done":
                result = assemble(w.final.names[seat], seat, notes, seed=SEED, budget=self.budget)
            await progress_review(
                self.store,
                *key,
                status=status,
                done=done,
                total=len(todo),
                now=now_ms(),
                result=result,
            )
        if not todo:
            result = assemble(w.final.names[seat], seat, [], seed=SEED, budget=self.budget)
            await progress_review(
                self.store, *key, status="done", done=0, total=0, now=now_ms(), result=result
            )
