"""Writing a websocket's text frames straight to its socket.

A view leaves the server as one text frame on each connection of its table, six or
seven a move. Through the ASGI stack each of them went through Starlette's `WebSocket`
(state checks), uvicorn's `send` (an event wait, a dict read), websockets' frame
objects and serializer, and a task switch into the connection's writer task. A frame
the server sends is only a header and the UTF-8 text (RFC 6455 5.2: a server never
masks), so when uvicorn's sans-I/O websocket protocol holds the socket, the connection
is open, no extension was negotiated (deflate would change the payload) and the socket
takes more, the frame is written to the transport at once, from the caller.

Anything else (another ASGI server, the test client, deflate, a closing connection, a
socket whose buffer is full) returns False or None, and the caller sends it the ASGI
way, which waits or raises as before. Frames are whole when written and both ways write
through the same transport, so they never interleave; order is the caller's to keep
(`hub.Connection` writes directly only when it has nothing queued or being sent).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

SEND_KEY = "coup.send"  # the scope key the ASGI server's own `send` is kept under

Writer = Callable[[bytes], bool]


class KeepSend:
    """ASGI middleware: remember the server's own `send` of a websocket in its scope
    (Starlette's exception wrapper hides it from the endpoint)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[SEND_KEY] = send
        await self.app(scope, receive, send)


def text_frame(payload: bytes) -> bytes:
    """An unmasked, final text frame carrying `payload` (UTF-8)."""
    n = len(payload)
    if n < 126:
        return bytes((0x81, n)) + payload
    if n < 65536:
        return bytes((0x81, 126, n >> 8, n & 0xFF)) + payload
    return b"\x81\x7f" + n.to_bytes(8, "big") + payload


def direct_writer(scope: Scope) -> Writer | None:
    """A function writing a whole frame to this accepted websocket's socket (True), or
    refusing (False: closing or not writable now, send it the ASGI way); None when the
    socket is not uvicorn's sans-I/O protocol without extensions."""
    send = scope.get(SEND_KEY)
    proto: Any = getattr(send, "__self__", None)
    if proto is None:
        return None
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import (
            WebSocketsSansIOProtocol,
        )
        from websockets.protocol import State
    except ImportError:  # pragma: no cover
        return None
    if not isinstance(proto, WebSocketsSansIOProtocol):
        return None
    conn = getattr(proto, "conn", None)
    if conn is None or conn.extensions or not proto.handshake_complete:
        return None
    open_state = State.OPEN
    writable = proto.writable
    transport = proto.transport

    def write(frame: bytes) -> bool:
        if (
            conn.state is not open_state
            or proto.close_sent
            or proto.disconnected
            or not writable.is_set()
            or transport.is_closing()
        ):
            return False
        transport.write(frame)
        return True

    return write
