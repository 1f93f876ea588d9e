"""The Redis bus: "table changed" notifications between server processes (pub/sub).

Every process publishes `"<table id> <message>"` on one channel (`coup:tables`, or
`?channel=NAME` in the URL) and subscribes to it;
a process that holds no sockets of that table simply ignores the message. Pub/sub is
at-most-once (a message sent while a process is reconnecting is lost), so the
notification is only a hint: the event log in the database stays the truth, and the
cluster service also re-checks table versions periodically and after a reconnect
(`on_reconnect`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from coup.bus import Listener

log = logging.getLogger("coup.bus")
CHANNEL = "coup:tables"


class RedisBus:
    def __init__(self, url: str) -> None:
        import redis.asyncio as aioredis  # lazily: only hosts who use Redis need it

        self.url = url
        self.channel = CHANNEL
        parts = urlsplit(url)
        query = parse_qsl(parts.query)
        for key, value in query:
            if key == "channel":  # pub/sub ignores the database number; this separates sites
                self.channel = value
        rest = urlencode([(k, v) for k, v in query if k != "channel"])
        self._redis: Any = aioredis.from_url(urlunsplit(parts._replace(query=rest)))
        self._listeners: list[Listener] = []
        self._reconnects: list[Callable[[], Awaitable[None]]] = []
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self.received = 0
        self.published = 0

    async def start(self) -> None:
        await self._redis.ping()  # fail fast at start when Redis is not reachable
        self._task = asyncio.create_task(self._listen())
        await asyncio.wait_for(self._ready.wait(), 10)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self._listeners.clear()
        with contextlib.suppress(Exception):
            await self._redis.aclose()

    async def publish(self, table_id: str, message: str) -> None:
        try:
            await self._redis.publish(self.channel, f"{table_id} {message}")
            self.published += 1
        except Exception:  # a lost hint; the periodic resync repairs it
            log.warning("redis publish failed for table %s", table_id, exc_info=True)

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def on_reconnect(self, callback: Callable[[], Awaitable[None]]) -> None:
        """Call `callback` after the subscription was lost and made again."""
        self._reconnects.append(callback)

    async def _listen(self) -> None:
        backoff = 0.2
        first = True
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                self._ready.set()
                backoff = 0.2
                if not first:
                    for callback in list(self._reconnects):
                        await callback()
                first = False
                async for item in pubsub.listen():
                    if item.get("type") != "message":
                        continue
                    data = item["data"]
                    text = data.decode() if isinstance(data, bytes) else str(data)
                    table_id, _, message = text.partition(" ")
                    self.received += 1
                    for listener in list(self._listeners):
                        try:
                            await listener(table_id, message)
                        except Exception:
                            log.exception("bus listener failed for table %s", table_id)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except Exception:  # Redis went away: resubscribe with backoff
                log.warning("redis subscription lost; reconnecting", exc_info=True)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(backoff)
                backoff = min(5.0, backoff * 2)
