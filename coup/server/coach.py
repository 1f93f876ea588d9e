"""The coach at the server: analyses of finished games, one at a time, out of the way.

The queue is the store's `coup_reviews` (`coup/store/analyses.py`): a game's end queues the
analyses of its people's seats in the same transaction as its last move (the service
passes `queued_rows`; nothing else happens in the event loop), and asking for any seat
(`Coach.ask`) queues that one, before every automatic one. One coach per process takes
the next row with a conditional update, so of several processes exactly one runs it, and
hands the replay and each decision to the workers (`coup.work`: the local pool's coach
process at the lowest CPU priority, `nice 19`, or a `coup worker` on Redis), so live
tables always go first. The automatic analyses wait in a bounded backlog (`BACKLOG`):
beyond it the oldest are skipped, and the viewer sees so and may ask for one again. The
row's progress is written after each decision (and every `HEARTBEAT` seconds while one
takes long), so any process can report it and nobody takes over a live analysis. The
result is stored with the game and never computed twice. Queued rows outlive a restart:
the coach looks at start, when woken (a game of this process ended, someone asked) and
every `POLL` seconds (rows queued by other processes, or left running by one that went
away).

Why the queue stays in the store rather than on the workers' job queue: an analysis is
many steps with progress any process must be able to show, it must survive a restart of
everything (Redis here keeps nothing on disk), and each is run exactly once; the store
already gives all three. Only its steps travel as jobs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any, Protocol

from coup.bots.analysis import DEFAULT_BUDGET
from coup.review.coach import assemble
from coup.server.game_run import stored_record
from coup.server.protocol import now_ms
from coup.store.analyses import (
    BACKLOG,
    ask_review,
    game_reviews,
    progress_review,
    queue_depth,
    requeue_running,
    skip_backlog,
    take_review,
)

if TYPE_CHECKING:
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


class Steps(Protocol):
    """The workers, as the coach uses them (`coup.work.Workers`)."""

    async def coach(self, task: str, *args: Any, asked: bool = False) -> Any: ...


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
        workers: Steps,
        *,
        budget: int = DEFAULT_BUDGET,
        poll: float = POLL,
        heartbeat: float = HEARTBEAT,
        backlog: int = BACKLOG,
    ) -> None:
        self.store = store
        self.workers = workers
        self.budget = budget
        self.poll = poll
        self.heartbeat = heartbeat
        self.backlog = backlog
        self.woken = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        #: The queue as last looked at (`analyses.queue_depth`), for health and metrics.
        self.depth: dict[str, int] = {"queued": 0, "asked": 0, "running": 0, "skipped": 0}

    async def start(self) -> None:
        if not self.store.shared:  # this process is the only writer: left by our last run
            again = await requeue_running(self.store, now_ms())
            if again:
                log.info("the coach queues again %d analyses left running", again)
        self.task = asyncio.create_task(self._work())

    async def stop(self) -> None:
        # The running step is given up, never waited for (the workers' owner kills the
        # local ones); the row is queued again at the next start, or taken over.
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

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
                skipped = await skip_backlog(self.store, self.backlog)
                if skipped:
                    log.info("the coach skipped %d analyses nobody asked for", skipped)
                self.depth = await queue_depth(self.store)
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

    async def _progress(self, job: dict[str, Any], **values: Any) -> None:
        """Write the job's row (fenced by the last write); Lost if it was taken over."""
        now = now_ms()
        key = (job["table_id"], job["game"], job["seat"])
        if not await progress_review(self.store, *key, since=job["updated_at"], now=now, **values):
            raise Lost(key)
        job["updated_at"] = now

    async def _child(self, job: dict[str, Any], keep: dict[str, Any], task: str, *args: Any) -> Any:
        """The step ``task(*args)`` on the workers; the row is touched every `heartbeat`
        seconds meanwhile."""
        waiting = asyncio.ensure_future(self.workers.coach(task, *args, asked=job["asked"]))
        try:
            while True:
                done, _ = await asyncio.wait({waiting}, timeout=self.heartbeat)
                if done:
                    return waiting.result()
                await self._progress(job, **keep)
        finally:
            waiting.cancel()

    async def _run(self, job: dict[str, Any]) -> None:
        seat, seed = job["seat"], job["seed"]
        record = await stored_record(self.store, job["table_id"], job["game"])
        keep: dict[str, Any] = {"status": "running", "done": 0, "total": None}
        name, todo = await self._child(job, keep, "plan", record, seat)
        keep["total"] = len(todo)
        await self._progress(job, **keep)
        notes = []
        for k in todo:
            notes.append(await self._child(job, keep, "note", record, seat, k, seed, self.budget))
            keep["done"] = len(notes)
            if len(notes) < len(todo):
                await self._progress(job, **keep)
        result = assemble(name, seat, notes, seed=seed, budget=self.budget)
        await self._progress(job, status="done", done=len(todo), total=len(todo), result=result)
