"""Writing a websocket's text frames straight to its socket, each made once.

A view leaves the server as one text frame on each connection of its table, six or
seven a move. Through the ASGI stack each of them went through Starlette's `WebSocket`
(state checks), uvicorn's `send` (an event wait, a dict read), websockets' frame
objects and serializer (and its compressor, one per connection), and a task switch into
the connection's writer task. A frame the server sends is only a header and the payload
(RFC 6455 5.2: a server never masks), so when uvicorn's sans-I/O websocket protocol holds
the socket, the connection is open and the socket takes more, the frame is written to
the transport at once, from the caller.

A message to send is an `Outgoing`: its text, and the frames made from it on first use,
kept for every other connection sending the same message (the seats of one member, all
of a table's spectators). With permessage-deflate negotiated *without the server's
context takeover* (`keepalive.QuietPings`, `coup serve --ws-compression`) a compressed
message depends on nothing but its text, so it is compressed once per message too (RFC
7692 7.2.1: the payload compressed, the trailing 00 00 ff ff removed, RSV1 set); a short
message goes uncompressed (RSV1 clear, which the extension allows per message). With a
compressor that keeps its context across messages (another server's settings) the
frame depends on the connection's history, and it goes the ASGI way.

Anything else (another ASGI server, the test client, a closing connection, a socket
whose buffer is full) returns False or None, and the caller sends it the ASGI way, which
waits or raises as before. Frames are whole when written and both ways write through
the same transport, so they never interleave; order is the caller's to keep
(`hub.Connection` writes directly only when it has nothing queued or being sent).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

SEND_KEY = "coup.send"  # the scope key the ASGI server's own `send` is kept under

#: Messages shorter than this (UTF-8 bytes) are sent uncompressed even with deflate:
#: an error or a pong gains a few bytes at most, and costs a compressor.
COMPRESS_AT = 256
#: zlib's memory level for a message's compressor (uvicorn's choice; 8 is zlib's default)
MEM_LEVEL = 5

Writer = Callable[["Outgoing"], bool]


class KeepSend:
    """ASGI middleware: remember the server's own `send` of a websocket in its scope
    (Starlette's exception wrapper hides it from the endpoint)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[SEND_KEY] = send
        await self.app(scope, receive, send)


def text_frame(payload: bytes, *, compressed: bool = False) -> bytes:
    """An unmasked, final text frame carrying `payload` (UTF-8, or deflated: RSV1)."""
    first = 0xC1 if compressed else 0x81
    n = len(payload)
    if n < 126:
        return bytes((first, n)) + payload
    if n < 65536:
        return bytes((first, 126, n >> 8, n & 0xFF)) + payload
    return bytes((first, 127)) + n.to_bytes(8, "big") + payload


def deflate(payload: bytes, window_bits: int) -> bytes:
    """`payload` compressed as one permessage-deflate message with a fresh compressor
    (no context taken over), the final empty block's 00 00 ff ff removed."""
    encoder = zlib.compressobj(wbits=-window_bits, memLevel=MEM_LEVEL)
    data = encoder.compress(payload) + encoder.flush(zlib.Z_SYNC_FLUSH)
    return data[:-4] if data.endswith(b"\x00\x00\xff\xff") else data


class Outgoing:
    """One message for one or more connections: its text, and each frame made of it at
    most once (plain; deflated, by window size)."""

    __slots__ = ("_deflated", "_payload", "_plain", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._payload: bytes | None = None
        self._plain: bytes | None = None
        self._deflated: dict[int, bytes] = {}

    @property
    def payload(self) -> bytes:
        if self._payload is None:
            self._payload = self.text.encode()
        return self._payload

    def plain(self) -> bytes:
        """The uncompressed text frame."""
        if self._plain is None:
            self._plain = text_frame(self.payload)
        return self._plain

    def deflated(self, window_bits: int) -> bytes:
        """The frame for a connection with deflate and no context takeover (short
        messages uncompressed)."""
        if len(self.payload) < COMPRESS_AT:
            return self.plain()
        frame = self._deflated.get(window_bits)
        if frame is None:
            frame = text_frame(deflate(self.payload, window_bits), compressed=True)
            self._deflated[window_bits] = frame
        return frame


def direct_writer(scope: Scope) -> Writer | None:
    """A function writing a message's whole frame to this accepted websocket's socket
    (True), or refusing (False: closing or not writable now, send it the ASGI way); None
    when the socket is not uvicorn's sans-I/O protocol, or has an extension other than
    deflate without the server's context takeover."""
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
    if conn is None or not proto.handshake_complete:
        return None
    frame_of = _framing(conn.extensions)
    if frame_of is None:
        return None
    open_state = State.OPEN
    writable = proto.writable
    transport = proto.transport

    def write(message: Outgoing) -> bool:
        if (
            conn.state is not open_state
            or proto.close_sent
            or proto.disconnected
            or not writable.is_set()
            or transport.is_closing()
        ):
            return False
        transport.write(frame_of(message))
        return True

    return write


def _framing(extensions: list[Any]) -> Callable[[Outgoing], bytes] | None:
    """How a message is framed on a connection with these extensions (None: only the
    connection's own websockets objects can)."""
    if not extensions:
        return Outgoing.plain
    from websockets.extensions.permessage_deflate import PerMessageDeflate

    if len(extensions) == 1 and isinstance(extensions[0], PerMessageDeflate):
        deflating = extensions[0]
        if deflating.local_no_context_takeover:
            bits = deflating.local_max_window_bits
            return lambda message: message.deflated(bits)
    return None
