"""`coup worker`'s process: takes bot decisions and coach steps from the Redis queue
(`queue.py`) and runs them in its own local pool (`pool.py`): its bot processes and one
coach process at `nice 19`, each replaced when it dies, none outliving this process.

Two arq consumers share the pool, one per queue: the bots' takes up to two jobs per bot
process (one running, one ready), the coach's one per coach process. Each decision's
answer is published on `queue.Keys.answers` as well as kept as arq's result. Every second the
worker writes its key (`queue.Keys.alive` + its id: its processes and how many are busy),
which expires three seconds after the worker stops writing it; the servers count
workers from these keys, and the queue's backlog per live process shrinks the share of
the budget a hard bot's search gets here, as the local queue's does (`pool.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import pickle
import secrets
from typing import Any

from coup.work import queue
from coup.work.jobs import Answer, Decision
from coup.work.pool import LocalPool

log = logging.getLogger("coup.work")

#: Seconds between writes of this worker's key; it expires after `KEEP` of silence.
BEAT = 1.0
KEEP = 3.0
#: How often an idle consumer looks at its queue (arq polls).
POLL = 0.02


class Worker:
    def __init__(self, url: str, processes: int | None = None, coach_processes: int = 1) -> None:
        self.url = url
        self.keys = queue.Keys.of(url)
        self.pool = LocalPool(processes, coach_processes)
        self.id = secrets.token_hex(6)
        self.backlog = 0.0  # the bots' queue per live worker process, as last looked at
        self.processes = 1.0  # live bot processes of every worker, as last looked at

    async def decide(self, ctx: dict[str, Any], decision: Decision) -> Answer:
        waiting = self.backlog
        with contextlib.suppress(Exception):  # the queue as this decision leaves it
            waiting = await ctx["redis"].zcard(self.keys.bots) / max(1.0, self.processes)
        answer = await self.pool.decide(decision, backlog=waiting)
        with contextlib.suppress(Exception):
            await ctx["redis"].publish(
                self.keys.answers, pickle.dumps((queue.job_id(decision), answer))
            )
        return answer

    async def plan(self, ctx: dict[str, Any], *args: Any) -> Any:
        return await self.pool.coach("plan", *args)

    async def note(self, ctx: dict[str, Any], *args: Any) -> Any:
        return await self.pool.coach("note", *args)

    async def _beat(self, redis: Any) -> None:
        while True:
            with contextlib.suppress(Exception):
                stats = self.pool.stats()
                seen = {"processes": stats["workers"], "busy": stats["busy"]}
                await redis.set(self.keys.alive + self.id, json.dumps(seen), px=int(KEEP * 1000))
                g = await queue.gauges(redis, self.keys)
                self.processes = max(1.0, g["workers"])
                self.backlog = g["queued"] / self.processes
            await asyncio.sleep(BEAT)

    async def run(self) -> None:
        """Take jobs until cancelled (a signal, or the process ends)."""
        from arq import create_pool
        from arq.worker import Worker as Consumer
        from arq.worker import func

        await self.pool.start(wait=True)
        redis = await create_pool(queue.settings(self.url))
        common: dict[str, Any] = {
            "redis_pool": redis, "poll_delay": POLL, "handle_signals": False,
            "keep_result": 60, "max_tries": 1, "allow_abort_jobs": True,
        }  # fmt: skip
        bots = Consumer(
            functions=[func(self.decide, name="decide", timeout=60)],
            queue_name=self.keys.bots, max_jobs=2 * self.pool.bots.size, **common,
        )  # fmt: skip
        coach = Consumer(
            functions=[func(self.plan, name="plan"), func(self.note, name="note")],
            queue_name=self.keys.coach, max_jobs=max(1, self.pool.coach_lane.size), **common,
        )  # fmt: skip
        beat = asyncio.create_task(self._beat(redis))
        try:
            await asyncio.gather(bots.main(), coach.main())
        finally:
            beat.cancel()
            for consumer in (bots, coach):
                with contextlib.suppress(Exception):
                    await consumer.close()
            with contextlib.suppress(Exception):
                await redis.delete(self.keys.alive + self.id)
            await self.pool.stop()
