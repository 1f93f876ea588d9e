"""Open websocket connections, grouped by table, and their outgoing messages.

Each connection has its own writer task. Views are coalesced: a slow client that has
not yet been sent view N when view N+1 arrives only gets N+1 (each view is complete).
When the socket can be written directly (`wire.direct_writer`) and nothing is queued or
being sent, a message is written at once instead, without waking the writer task.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Mapping
from typing import Any

from starlette.websockets import WebSocket

from coup.server import wire
from coup.server.protocol import dumps

MAX_QUEUED = 64  # errors and pongs waiting for a slow client (views never queue up)


class Connection:
    def __init__(
        self, ws: WebSocket, table_id: str, member: str | None, address: str = "?"
    ) -> None:
        self.ws = ws
        self.address = address  # the client's address key (`addresses.client_key`)
        self.table_id = table_id
        self.member = member
        self.name: str | None = None  # a spectator's name (its hello's), shown as watching
        self.counted = False  # counted as a seat's connection (`presence.py`)
        self._queue: deque[str] = deque()
        self._view: str | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False  # finish(): the pump ends once the queue is empty
        self._sending = False  # the pump is in a send (it may be waiting for the socket)
        self._write = wire.direct_writer(getattr(ws, "scope", {}))  # (tests pass fakes)
        self.sent = 0

    def start(self) -> None:
        self._task = asyncio.create_task(self._pump())

    async def finish(self, last: Mapping[str, Any], timeout: float = 5.0) -> None:
        """Send what is queued, then `last`, then stop (before the server closes the
        socket: the replies to messages read before are not lost)."""
        self.send(last)
        self._closing = True
        self._wake.set()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(self._task), timeout)
        await self.stop()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task

    def _direct(self, text: str, frame: bytes | None) -> bool:
        """Written straight to the socket, in order (nothing before it still waits)."""
        write = self._write
        if write is None or self._sending or self._queue or self._view is not None:
            return False
        if self._closing or not write(frame or wire.text_frame(text.encode())):
            return False
        self.sent += 1
        return True

    def send_view(self, text: str, frame: bytes | None = None) -> None:
        """Send view `text` (`frame`: its text frame, when the caller made it already)."""
        if self._direct(text, frame):
            return
        self._view = text
        self._wake.set()

    def send(self, payload: Mapping[str, Any]) -> None:
        text = dumps(payload)
        if self._direct(text, None):
            return
        if len(self._queue) >= MAX_QUEUED:  # a client that does not read: drop the oldest
            self._queue.popleft()
        self._queue.append(text)
        self._wake.set()

    async def _pump(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._queue or self._view is not None:
                    if self._queue:
                        text = self._queue.popleft()
                    else:
                        text, self._view = self._view or "", None
                    self._sending = True
                    await self.ws.send_text(text)
                    self._sending = False
                    self.sent += 1
                if self._closing:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001  (the socket went away; the reader cleans up)
            return


class Hub:
    def __init__(self) -> None:
        self.tables: dict[str, set[Connection]] = {}

    def add(self, conn: Connection) -> None:
        self.tables.setdefault(conn.table_id, set()).add(conn)

    def remove(self, conn: Connection) -> None:
        conns = self.tables.get(conn.table_id)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.tables[conn.table_id]

    def of(self, table_id: str) -> set[Connection]:
        return self.tables.get(table_id, set())

    def spectators(self, table_id: str, seated: set[str]) -> int:
        return sum(1 for c in self.of(table_id) if c.member is None or c.member not in seated)

    def count(self) -> int:
        return sum(len(c) for c in self.tables.values())
