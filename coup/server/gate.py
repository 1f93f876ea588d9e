"""The server's gate, where TCP connections come in (before any HTTP is read): at most
`CONNECTIONS_PER_ADDRESS` open connections per client address (an IPv6 client counted
by its /64), and time limits on what a connection sends.

- A connection must send a request's head (the request line and headers) within
  `HEAD_SECONDS` of opening, or of the first byte of that request on a kept-alive
  connection: else `408` and the connection is closed.
- The request's body must follow within `BODY_SECONDS` of its head: else the connection
  is closed (the route reading it sees the client gone).
- Between requests uvicorn closes a connection idle for 5 s (`timeout_keep_alive`).
- A websocket, once upgraded, is the websocket's: its hello within 10 s, then pings; a
  text message that is not UTF-8 closes it (1007) with one line in the log.

Connections from a trusted proxy (`--forwarded-allow-ips`) are not counted: they carry
many clients, and the proxy limits them (`limit_conn`, docs/deploy.md); their time
limits hold all the same. These are uvicorn's own protocols (httptools for HTTP, the
sans-I/O websocket with `keepalive.QuietPings`) with the gate added.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from coup.server.addresses import Proxies, address_key
from coup.server.keepalive import QuietPings

#: Open TCP connections one address may hold (pages, API calls, websockets together).
CONNECTIONS_PER_ADDRESS = 64
#: Seconds for a request's head to arrive.
HEAD_SECONDS = 10.0
#: Seconds for a request's body to arrive after its head.
BODY_SECONDS = 20.0


def _answer(status: bytes, text: bytes) -> bytes:
    """A whole HTTP response that closes the connection."""
    head = b"HTTP/1.1 %s\r\ncontent-type: text/plain\r\ncontent-length: %d\r\n" % (
        status,
        len(text),
    )
    return head + b"connection: close\r\n\r\n" + text


REFUSED = _answer(b"429 Too Many Requests", b"too many connections from one address\n")
TIMED_OUT = _answer(b"408 Request Timeout", b"the request came too slowly\n")


class Gate:
    """The open connections by address key (`limit` 0: not counted), and the time limits."""

    def __init__(
        self,
        proxies: Proxies,
        limit: int = CONNECTIONS_PER_ADDRESS,
        *,
        head: float = HEAD_SECONDS,
        body: float = BODY_SECONDS,
    ) -> None:
        self.proxies = proxies
        self.limit = limit
        self.head = head
        self.body = body
        self.open: Counter[str] = Counter()
        self._keys: dict[int, str] = {}  # id(transport) -> its key, while counted

    def enter(self, transport: asyncio.BaseTransport, host: str | None) -> bool:
        """Count a new connection; False (not counted) when its address has too many."""
        if not self.limit or self.proxies.trusted(host):
            return True
        key = address_key(host)
        if self.open[key] >= self.limit:
            return False
        self.open[key] += 1
        self._keys[id(transport)] = key
        return True

    def leave(self, transport: asyncio.BaseTransport) -> None:
        """The connection closed (said once or more: by HTTP, then by its websocket)."""
        key = self._keys.pop(id(transport), None)
        if key is not None:
            self.open[key] -= 1
            if not self.open[key]:
                del self.open[key]


def protocols(gate: Gate) -> tuple[type[HttpToolsProtocol], type[QuietPings]]:
    """uvicorn's HTTP and websocket protocols, through `gate`."""

    class GatedSocket(QuietPings):
        def connection_lost(self, exc: Exception | None) -> None:
            gate.leave(self.transport)
            super().connection_lost(exc)

        def send_receive_event_to_app(self) -> None:
            """A text message that is not UTF-8 closes the socket with 1007, as uvicorn
            does, logged as one line (uvicorn logs a traceback)."""
            if self.curr_msg_data_type == "text" and not self.close_sent:
                try:
                    b"".join(self.frames).decode()
                except UnicodeDecodeError:
                    self.frames = []
                    self.logger.warning("a websocket sent text that is not UTF-8: closed (1007)")
                    self.conn.send_close(1007)
                    self.handle_parser_exception()
                    return
            super().send_receive_event_to_app()

    class GatedHttp(HttpToolsProtocol):
        deadline: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            host = self.client[0] if self.client else None
            if not gate.enter(transport, host):
                transport.write(REFUSED)
                transport.close()
                return
            self._arm(gate.head)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            gate.leave(self.transport)
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            if self.deadline is None:
                self._arm(gate.head)

        def on_headers_complete(self) -> None:
            super().on_headers_complete()
            self._arm(gate.body)

        def on_message_complete(self) -> None:
            super().on_message_complete()
            self._disarm()

        def handle_websocket_upgrade(self) -> None:
            self._disarm()
            super().handle_websocket_upgrade()

        def _arm(self, seconds: float) -> None:
            self._disarm()
            self.deadline = self.loop.call_later(seconds, self._timed_out)

        def _disarm(self) -> None:
            if self.deadline is not None:
                self.deadline.cancel()
                self.deadline = None

        def _timed_out(self) -> None:
            self.deadline = None
            if self.transport.is_closing():
                return
            if self.cycle is None or self.cycle.response_complete:  # no request under way
                self.transport.write(TIMED_OUT)
            self.transport.close()

    return GatedHttp, GatedSocket


def settings(gate: Gate) -> dict[str, Any]:
    """The uvicorn `Config` arguments that put `gate` in front of the app."""
    http, ws = protocols(gate)
    return {"http": http, "ws": ws, "forwarded_allow_ips": gate.proxies.spec}
