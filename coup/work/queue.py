"""The Redis backend: decisions and coach steps as jobs on a Redis queue (arq), taken by
`coup worker` processes on any machine (`coup/work/worker.py`), for every server process.

Why arq: it is asyncio on both sides, so a server enqueues without a thread and a worker
hands each job to the same local pool the embedded server uses (`pool.py`: its processes,
deadlines, retries and parent watch); a job has an id, so two server processes asking
for one bot deadline make one job (`_job_id`), and an expiry, so a decision not started
by its deadline is dropped unrun (`_expires`). Jobs are taken in order of their score: a
decision's is its deadline (earliest first), an asked-for coach step's lies a day in the
past (before every automatic one).

Answers come back on one pub/sub channel (`Keys.answers`), heard by every server process, so a
decision asked by one process may be played by another (the clock's claim on PostgreSQL);
arq also keeps each result for a minute, read when a process starts waiting after the
answer was published. Gauges (jobs waiting, live worker processes, busy ones) are read
from Redis every `LOOK` seconds: each `coup worker` keeps a key that expires when it dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import pickle
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from coup.work.jobs import Answer, Decision
from coup.work.meter import Meter

log = logging.getLogger("coup.work")


@dataclass(frozen=True)
class Keys:
    """The queue's names in Redis; a bus URL's `?channel=NAME` (which separates sites
    sharing one Redis) separates them too."""

    bots: str  # the bots' queue (arq's sorted set)
    coach: str
    answers: str  # pub/sub: (job id, answer) of every decision
    alive: str  # + a worker's id: {"processes": n, "busy": k}, expiring

    @classmethod
    def of(cls, url: str) -> Keys:
        channel = dict(parse_qsl(urlsplit(url).query)).get("channel", "")
        base = f"coup:work:{channel}:" if channel else "coup:work:"
        return cls(base + "bots", base + "coach", base + "answers", base + "worker:")


#: Seconds between looks at the gauges.
LOOK = 0.5
#: Seconds after its deadline that a decision's answer is still waited for here.
WAIT = 0.2
#: An asked-for coach step's score lies this far in the past (before every other).
AHEAD = timedelta(days=1)


def settings(url: str) -> Any:
    from arq.connections import RedisSettings

    return RedisSettings.from_dsn(urlunsplit(urlsplit(url)._replace(query="")))


def job_id(decision: Decision) -> str:
    return "coup:decision:" + decision.key.replace(" ", ":")


class RedisWorkers:
    """`Workers` on a Redis queue (coup/work/__init__.py)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.keys = Keys.of(url)
        self.meter = Meter()
        self.gauges: dict[str, float] = {"queued": 0, "workers": 0, "busy": 0, "coach_queued": 0}
        self._waiting: dict[str, list[asyncio.Future[Answer]]] = {}
        self._redis: Any = None
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        from arq import create_pool

        self._redis = await create_pool(settings(self.url))
        pubsub = self._redis.pubsub()
        await pubsub.subscribe(self.keys.answers)
        self._tasks = [
            asyncio.create_task(self._hear(pubsub)),
            asyncio.create_task(self._look()),
        ]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()

    def idle(self) -> bool:
        g = self.gauges
        return g["queued"] == 0 and g["busy"] < g["workers"]

    def stats(self) -> dict[str, float]:
        return self.meter.stats(**self.gauges)

    async def decide(self, decision: Decision) -> Answer:
        key = job_id(decision)
        waiter: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(key, []).append(waiter)
        answered = False
        try:
            left = decision.deadline - time.time()
            if left <= 0:
                self.meter.count("expired")
                return Answer(None)
            first = datetime.fromtimestamp(decision.deadline, UTC) - timedelta(hours=1)
            job = await self._redis.enqueue_job(
                "decide", decision, _job_id=key, _queue_name=self.keys.bots, _defer_until=first,
                _expires=timedelta(seconds=left),
            )  # fmt: skip
            if job is None:  # another process asked first: its answer may be there already
                stored = await self._stored(key)
                if stored is not None and not waiter.done():
                    waiter.set_result(stored)
            try:
                answer = await asyncio.wait_for(waiter, left + WAIT)
            except TimeoutError:
                self.meter.count("expired")
                return Answer(None)
            answered = True
            self.meter.answered(answer)
            return answer
        finally:
            waiters = self._waiting.get(key, [])
            with contextlib.suppress(ValueError):
                waiters.remove(waiter)
            if not waiters:
                self._waiting.pop(key, None)
                if not answered:  # given up (the table moved on) or too late: drop the job
                    asyncio.get_running_loop().create_task(self._abort(key))

    async def coach(self, task: str, *args: Any, asked: bool = False) -> Any:
        from arq.jobs import Job

        job: Job = await self._redis.enqueue_job(
            task, *args, _queue_name=self.keys.coach, _defer_by=-AHEAD if asked else None,
            _expires=2 * AHEAD,
        )  # fmt: skip
        return await job.result(timeout=None, poll_delay=0.5)

    # ---- answers and gauges ---------------------------------------------------------
    async def _stored(self, key: str) -> Answer | None:
        from arq.jobs import Job

        with contextlib.suppress(Exception):
            info = await Job(key, self._redis, _queue_name=self.keys.bots).result_info()
            if info is not None and info.success and isinstance(info.result, Answer):
                return info.result
        return None

    async def _abort(self, key: str) -> None:
        from arq.jobs import Job

        with contextlib.suppress(Exception):
            await Job(key, self._redis, _queue_name=self.keys.bots).abort(timeout=0)

    async def _hear(self, pubsub: Any) -> None:
        while True:
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:  # the connection dropped: arq's pool reconnects
                log.exception("the workers' answers could not be heard")
                await asyncio.sleep(1)
                continue
            if message is None:
                continue
            key, answer = pickle.loads(message["data"])
            for waiter in self._waiting.get(key, []):
                if not waiter.done():
                    waiter.set_result(answer)

    async def _look(self) -> None:
        while True:
            with contextlib.suppress(Exception):
                self.gauges.update(await gauges(self._redis, self.keys))
            await asyncio.sleep(LOOK)


async def gauges(redis: Any, keys: Keys) -> dict[str, float]:
    """Jobs waiting in both queues, live worker processes and busy ones."""
    workers = busy = 0
    async for key in redis.scan_iter(match=keys.alive + "*", count=100):
        raw = await redis.get(key)
        if raw:
            seen = json.loads(raw)
            workers += int(seen["processes"])
            busy += int(seen["busy"])
    return {
        "queued": await redis.zcard(keys.bots),
        "coach_queued": await redis.zcard(keys.coach),
        "workers": workers,
        "busy": busy,
    }
