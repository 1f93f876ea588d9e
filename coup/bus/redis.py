"""The Redis bus: "table changed" notifications between server processes (pub/sub).

Each table has its own channel, `coup:tables:<table id>` (the prefix is `?channel=NAME`
in the URL, to keep sites apart). A process subscribes to a table's channel while it
holds sockets of that table (`watch`/`unwatch`), so a message reaches only the processes
that have someone to tell: with N processes, each hears the moves of its own tables,
not N times everyone's. `watch` returns once Redis confirmed the subscription, so a
change committed after that is heard, and one committed before is in the database.

Pub/sub is at-most-once (a message sent while a process is reconnecting is lost), so the
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
        self._pubsub: Any = None
        self._watched: dict[str, int] = {}  # table -> how many watch() calls are open
        self._confirmed: dict[str, asyncio.Event] = {}  # channel -> subscribed
        self._subscribing = asyncio.Lock()  # one (un)subscription change at a time
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
            await self._redis.publish(self._table_channel(table_id), message)
            self.published += 1
        except Exception:  # a lost hint; the periodic resync repairs it
            log.warning("redis publish failed for table %s", table_id, exc_info=True)

    def _table_channel(self, table_id: str) -> str:
        return f"{self.channel}:{table_id}"

    async def watch(self, table_id: str, timeout: float = 2.0) -> None:
        """Hear `table_id`'s messages from now on (until as many `unwatch` calls)."""
        self._watched[table_id] = self._watched.get(table_id, 0) + 1
        channel = self._table_channel(table_id)
        if self._watched[table_id] == 1:
            self._confirmed[channel] = asyncio.Event()
            try:
                async with self._subscribing:
                    await self._pubsub.subscribe(channel)
            except Exception:  # noqa: BLE001 - Redis away: resubscribed with a resync later
                return
        confirmed = self._confirmed.get(channel)
        if confirmed is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(confirmed.wait(), timeout)

    async def unwatch(self, table_id: str) -> None:
        count = self._watched.get(table_id, 0) - 1
        if count > 0:
            self._watched[table_id] = count
            return
        self._watched.pop(table_id, None)
        channel = self._table_channel(table_id)
        self._confirmed.pop(channel, None)
        with contextlib.suppress(Exception):
            async with self._subscribing:
                await self._pubsub.unsubscribe(channel)

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def alone(self) -> bool:
        return False  # other processes on the same Redis

    def on_reconnect(self, callback: Callable[[], Awaitable[None]]) -> None:
        """Call `callback` after the subscription was lost and made again."""
        self._reconnects.append(callback)

    async def _listen(self) -> None:
        backoff = 0.2
        first = True
        while True:
            pubsub = self._redis.pubsub()
            try:
                # The prefix channel itself keeps the subscription open when no table is
                # watched (redis-py stops listening without one).
                async with self._subscribing:  # a watch() meanwhile waits, then uses this one
                    self._pubsub = pubsub
                    channels = [self.channel, *map(self._table_channel, self._watched)]
                    for channel in channels[1:]:
                        self._confirmed.setdefault(channel, asyncio.Event())
                    await pubsub.subscribe(*channels)
                self._ready.set()
                backoff = 0.2
                if not first:
                    for callback in list(self._reconnects):
                        await callback()
                first = False
                prefix = self.channel + ":"
                async for item in pubsub.listen():
                    kind = item.get("type")
                    channel = item.get("channel")
                    channel = channel.decode() if isinstance(channel, bytes) else str(channel)
                    if kind == "subscribe":
                        confirmed = self._confirmed.get(channel)
                        if confirmed is not None:
                            confirmed.set()
                        continue
                    if kind != "message" or not channel.startswith(prefix):
                        continue
                    data = item["data"]
                    message = data.decode() if isinstance(data, bytes) else str(data)
                    table_id = channel[len(prefix) :]
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
