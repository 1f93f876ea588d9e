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

Publishing and subscribing speak to Redis directly (`resp.py`): a publish is written
and not waited for, and the process's own messages, which it hears back on the
channels it watches, are dropped as they are read (`ignore_own`). redis-py is the
client for anything else (the first ping, the tests' questions to Redis).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from coup.bus import Listener
from coup.bus.resp import Address, Publisher, Subscriber

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
        self._redis: Any = aioredis.from_url(urlunsplit(parts._replace(query=rest)))  # type: ignore[no-untyped-call]
        self._address = Address.of(self._redis)
        self._publisher = Publisher(self._address)
        self._own: bytes | None = None  # how this process's own messages begin
        self._listeners: list[Listener] = []
        self._reconnects: list[Callable[[], Awaitable[None]]] = []
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._subscriber: Subscriber | None = None
        self._watched: dict[str, int] = {}  # table -> how many watch() calls are open
        self._confirmed: dict[str, asyncio.Event] = {}  # channel -> subscribed
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
        await self._publisher.close()
        with contextlib.suppress(Exception):
            await self._redis.aclose()

    async def publish(self, table_id: str, message: str) -> None:
        try:
            await self._publisher.publish(self._table_channel(table_id), message)
            self.published += 1
        except Exception:  # a lost hint; the periodic resync repairs it
            log.warning("redis publish failed for table %s", table_id, exc_info=True)

    async def ping(self) -> None:
        """Redis answers a PING (readiness: `coup/server/health.py`)."""
        await self._redis.ping()

    def ignore_own(self, prefix: str) -> None:
        """Messages beginning with `prefix` are this process's own: drop them unread."""
        self._own = prefix.encode()

    def _table_channel(self, table_id: str) -> str:
        return f"{self.channel}:{table_id}"

    async def watch(self, table_id: str, timeout: float = 2.0) -> None:
        """Hear `table_id`'s messages from now on (until as many `unwatch` calls)."""
        self._watched[table_id] = self._watched.get(table_id, 0) + 1
        channel = self._table_channel(table_id)
        if self._watched[table_id] == 1:
            self._confirmed[channel] = asyncio.Event()
            try:
                assert self._subscriber is not None
                self._subscriber.subscribe(channel)
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
            assert self._subscriber is not None
            self._subscriber.unsubscribe(channel)

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def alone(self) -> bool:
        return False  # other processes on the same Redis

    def on_reconnect(self, callback: Callable[[], Awaitable[None]]) -> None:
        """Call `callback` after the subscription was lost and made again."""
        self._reconnects.append(callback)

    def _subscribed(self, channel: str) -> None:
        confirmed = self._confirmed.get(channel)
        if confirmed is not None:
            confirmed.set()

    async def _listen(self) -> None:
        backoff = 0.2
        first = True
        prefix = self.channel + ":"
        while True:
            subscriber = Subscriber(lambda: self._own, self._subscribed)
            try:
                await self._address.connect(subscriber)
                # The prefix channel itself keeps the subscription open when no table is
                # watched; every watched table's channel is subscribed again.
                self._subscriber = subscriber
                watched = list(map(self._table_channel, self._watched))
                for channel in watched:
                    self._confirmed.setdefault(channel, asyncio.Event())
                subscriber.subscribe(self.channel, *watched)
                self._ready.set()
                backoff = 0.2
                if not first:
                    for callback in list(self._reconnects):
                        await callback()
                first = False
                while True:
                    await subscriber.wake.wait()
                    subscriber.wake.clear()
                    while subscriber.heard:
                        raw_channel, data = subscriber.heard.popleft()
                        channel = raw_channel.decode()
                        if not channel.startswith(prefix):
                            continue
                        table_id = channel[len(prefix) :]
                        self.received += 1
                        for listener in list(self._listeners):
                            try:
                                await listener(table_id, data.decode())
                            except Exception:
                                log.exception("bus listener failed for table %s", table_id)
                    if subscriber.lost is not None:
                        raise subscriber.lost
            except asyncio.CancelledError:
                subscriber.close()
                raise
            except Exception:  # Redis went away: resubscribe with backoff
                log.warning("redis subscription lost; reconnecting", exc_info=True)
                subscriber.close()
                await asyncio.sleep(backoff)
                backoff = min(5.0, backoff * 2)
