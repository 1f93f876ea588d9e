"""coup.bus: fan-out of "table changed" notifications between server processes.

The backend is picked by URL and imported lazily (as encode/broadcaster does):
`memory://` keeps everything in this process; `redis://...` (coup/bus/redis.py) tells
every process through Redis pub/sub.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable
from typing import Protocol

Listener = Callable[[str, str], Awaitable[None]]
"""An async callback receiving (table_id, message)."""

BACKENDS: dict[str, str] = {
    "memory": "coup.bus.memory:MemoryBus",
    "redis": "coup.bus.redis:RedisBus",
    "rediss": "coup.bus.redis:RedisBus",  # Redis over TLS
}


class Bus(Protocol):
    async def start(self) -> None: ...
    async def close(self) -> None: ...
    async def publish(self, table_id: str, message: str) -> None: ...
    async def watch(self, table_id: str) -> None:
        """Hear this table's messages (a process with sockets there); counted."""

    async def unwatch(self, table_id: str) -> None: ...
    def listen(self, listener: Listener) -> None: ...
    async def ping(self) -> None:
        """Ask the bus's server for an answer (readiness); raises if it does not."""

    def alone(self) -> bool:
        """Nobody but the one listener of this process can hear a message (the memory
        bus of a single server): the sender need not say anything."""


def connect(url: str) -> Bus:
    """A bus for `url` (not started yet: call `await bus.start()`)."""
    scheme = url.split("://", 1)[0] if "://" in url else url
    if scheme not in BACKENDS:
        raise ValueError(
            f"unsupported bus URL {url!r} (use memory://, redis://... or rediss://...)"
        )
    module_name, _, class_name = BACKENDS[scheme].partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"the {scheme!r} bus is not available: {exc}") from exc
    bus: Bus = getattr(module, class_name)(url)
    return bus
