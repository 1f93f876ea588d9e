"""The bus's two connections to Redis, speaking its protocol (RESP2) directly.

Every committed move is published, and with a table's sockets on one process (a load
balancer routing by table) the publishing process is also the only one subscribed to
the table's channel, so it hears each of its own messages back. Through redis-py the
publish (a pooled connection, the command packed, the reply awaited and parsed) and the
echo (parsed into a dict, channel and data decoded, handed to the listener to be
recognised as our own) took about a sixth of a server process's Python work under
load (docs/deploy.md). Here:

- `Publisher` writes each PUBLISH to its own connection at once and returns; replies
  come back in order and are only counted (an error reply is logged). One connection
  keeps the messages in order. A message written to a connection that then breaks is
  lost, as any pub/sub message may be: the bus is a hint, the database is the truth.
- `Subscriber` holds the subscriptions and parses what Redis pushes straight from the
  socket's bytes; a message starting with this process's own prefix is dropped there,
  undecoded. The others are queued for the bus's listener task, in order.

The address and credentials are those of redis-py's client for the same URL (`Address`).
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

log = logging.getLogger("coup.bus")


def command(*parts: bytes) -> bytes:
    """A command in RESP: an array of bulk strings."""
    out = [b"*%d\r\n" % len(parts)]
    for part in parts:
        out.append(b"$%d\r\n%b\r\n" % (len(part), part))
    return b"".join(out)


def parse(buffer: bytes, at: int) -> tuple[Any, int] | None:
    """One RESP2 value at `at` and where the next begins, or None if it is not all
    there yet. Bulk strings come as bytes, simple strings and errors as bytes with their
    `+`/`-`, integers as int, arrays as lists."""
    end = buffer.find(b"\r\n", at)
    if end < 0:
        return None
    kind = buffer[at]
    if kind == 0x24:  # $ bulk string
        n = int(buffer[at + 1 : end])
        if n < 0:
            return None, end + 2
        stop = end + 2 + n
        if len(buffer) < stop + 2:
            return None
        return buffer[end + 2 : stop], stop + 2
    if kind == 0x2A:  # * array
        n = int(buffer[at + 1 : end])
        items: list[Any] = []
        at = end + 2
        for _ in range(max(n, 0)):
            got = parse(buffer, at)
            if got is None:
                return None
            items.append(got[0])
            at = got[1]
        return items, at
    if kind == 0x3A:  # : integer
        return int(buffer[at + 1 : end]), end + 2
    return buffer[at:end], end + 2  # + simple string, - error


@dataclass(frozen=True)
class Address:
    host: str = "localhost"
    port: int = 6379
    path: str | None = None  # a Unix socket
    tls: bool = False
    auth: bytes | None = None  # the AUTH command, when there is a password

    @classmethod
    def of(cls, redis: Any) -> Address:
        """Where redis-py's client `redis` connects, with its credentials."""
        from redis.asyncio.connection import SSLConnection, UnixDomainSocketConnection

        pool = redis.connection_pool
        kw = pool.connection_kwargs
        auth = None
        if kw.get("password") is not None:
            user = [kw["username"].encode()] if kw.get("username") else []
            auth = command(b"AUTH", *user, kw["password"].encode())
        if issubclass(pool.connection_class, UnixDomainSocketConnection):
            return cls(path=kw["path"], auth=auth)
        tls = issubclass(pool.connection_class, SSLConnection)
        return cls(kw.get("host", "localhost"), int(kw.get("port", 6379)), None, tls, auth)

    async def connect(self, protocol: asyncio.Protocol) -> asyncio.Transport:
        loop = asyncio.get_running_loop()
        if self.path is not None:
            transport, _ = await loop.create_unix_connection(lambda: protocol, self.path)
        else:
            context = ssl.create_default_context() if self.tls else None
            transport, _ = await loop.create_connection(
                lambda: protocol, self.host, self.port, ssl=context
            )
        if self.auth is not None:
            transport.write(self.auth)
        return transport


class Publisher(asyncio.Protocol):
    """One connection for PUBLISH: `publish` writes, `data_received` counts replies."""

    def __init__(self, address: Address) -> None:
        self.address = address
        self.transport: asyncio.Transport | None = None
        self._connecting = asyncio.Lock()
        self._buffer = b""
        self.sent = 0  # commands written (AUTH's included)
        self.replies = 0  # replies read

    async def publish(self, channel: str, message: str) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            async with self._connecting:
                transport = self.transport
                if transport is None or transport.is_closing():
                    self._buffer = b""
                    self.replies = self.sent  # what the lost connection owed is not coming
                    transport = await self.address.connect(self)
                    self.sent += self.address.auth is not None
        transport.write(command(b"PUBLISH", channel.encode(), message.encode()))
        self.sent += 1

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's are not subclasses

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer + data if self._buffer else data
        at = 0
        while (end := buffer.find(b"\r\n", at)) >= 0:  # every reply here is one line
            if buffer[at] == 0x2D:  # -
                log.warning("redis refused: %s", buffer[at + 1 : end].decode(errors="replace"))
            self.replies += 1
            at = end + 2
        self._buffer = buffer[at:]

    async def close(self, timeout: float = 1.0) -> None:
        """Close once Redis answered what was written (a process stopping says it left,
        and the others should hear it), or after `timeout` seconds."""
        loop = asyncio.get_running_loop()
        until = loop.time() + timeout
        while self.transport is not None and self.replies < self.sent and loop.time() < until:
            await asyncio.sleep(0.01)
        if self.transport is not None:
            self.transport.close()


class Subscriber(asyncio.Protocol):
    """The subscribing connection. `subscribe`/`unsubscribe` write at once; Redis's
    confirmations call `confirmed(channel)` once every SUBSCRIBE sent for the channel
    was answered; messages not starting with `own` are queued as (channel, data)."""

    def __init__(self, own: Callable[[], bytes | None], confirmed: Callable[[str], None]) -> None:
        self.own = own
        self.confirmed = confirmed
        self.transport: asyncio.Transport | None = None
        self.heard: deque[tuple[bytes, bytes]] = deque()
        self.wake = asyncio.Event()  # something queued, or the connection was lost
        self.lost: Exception | None = None
        self.dropped = 0  # our own messages, dropped unread
        self._unanswered: dict[str, int] = {}  # channel -> SUBSCRIBEs not yet confirmed
        self._buffer = b""

    def subscribe(self, *channels: str) -> None:
        for channel in channels:
            self._unanswered[channel] = self._unanswered.get(channel, 0) + 1
        self._write(b"SUBSCRIBE", channels)

    def unsubscribe(self, channel: str) -> None:
        self._write(b"UNSUBSCRIBE", (channel,))

    def _write(self, verb: bytes, channels: tuple[str, ...]) -> None:
        if self.transport is None or self.transport.is_closing():
            raise ConnectionError("the redis subscription is not connected")
        self.transport.write(command(verb, *(c.encode() for c in channels)))

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's are not subclasses

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        self.lost = exc or ConnectionError("redis closed the subscription")
        self.wake.set()

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer + data if self._buffer else data
        at = 0
        own = self.own()
        while at < len(buffer):
            got = parse(buffer, at)
            if got is None:
                break
            item, at = got
            if type(item) is not list or len(item) != 3:
                if isinstance(item, bytes) and item[:1] == b"-":
                    log.warning("redis refused: %s", item[1:].decode(errors="replace"))
                continue
            kind, channel, value = item
            if kind == b"message":
                if own is not None and type(value) is bytes and value.startswith(own):
                    self.dropped += 1
                    continue
                self.heard.append((channel, value))
                self.wake.set()
            elif kind == b"subscribe":
                name = channel.decode()
                left = self._unanswered.get(name, 0) - 1
                if left > 0:
                    self._unanswered[name] = left
                    continue
                self._unanswered.pop(name, None)
                self.confirmed(name)
        self._buffer = buffer[at:]

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()
