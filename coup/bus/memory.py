"""The in-process bus: every listener of this process hears every message at once."""

from __future__ import annotations

from coup.bus import Listener


class MemoryBus:
    def __init__(self, url: str = "memory://") -> None:
        self.url = url
        self._listeners: list[Listener] = []

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        self._listeners.clear()

    async def publish(self, table_id: str, message: str) -> None:
        for listener in list(self._listeners):
            await listener(table_id, message)

    async def watch(self, table_id: str) -> None:
        return None  # every listener hears every table

    async def unwatch(self, table_id: str) -> None:
        return None

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    async def ping(self) -> None:
        return None  # in this process: always there

    def alone(self) -> bool:
        return len(self._listeners) <= 1
