"""uvicorn's websocket protocol as the server runs it: keepalive pings only for
connections that have gone quiet, and permessage-deflate (when on) without context
takeover.

uvicorn pings every websocket every `ws_ping_interval` seconds (20) and closes it when
the pong is `ws_ping_timeout` seconds (20) late: that is how a client that vanished
without closing (a phone out of coverage) is noticed. At 1,000 six-seat tables that is
300 pings a second, each a timer, a frame, a write, then a pong to read and parse: as
many messages as the moves' own, about a tenth of the server's CPU (docs/deploy.md).

A connection that sent the server anything in the last interval has just shown it is
there, which is all a ping would show. So the ping is put off until an interval after
the last data heard; a connection quiet for a whole interval is pinged exactly as
before, and one that stops answering is closed as before: no later than an interval
and a timeout after the last thing heard from it.

Deflate (`coup serve --ws-compression`; off by default, docs/bench.md says why) is
negotiated with `server_no_context_takeover` and `client_no_context_takeover`: neither
side keeps a compressor's or decompressor's window between messages. uvicorn's own
setting keeps both for the connection's life (most of a table's memory: docs/bench.md)
and makes each connection's compressed frames depend on everything it was sent before,
so a view shared by many connections had to be compressed for each. Without takeover a
message compresses the same on every connection, once (`wire.Outgoing`), and the
connection holds no zlib state between messages. The price is bytes: a view that
repeats most of the one before compresses far better against it (docs/bench.md has
the sizes).
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

from coup.server import wire

#: The compressor's window, 2**12 bytes (uvicorn's choice): a view's repeats are close.
WINDOW_BITS = 12


def deflate_without_takeover() -> ServerPerMessageDeflateFactory:
    return ServerPerMessageDeflateFactory(
        server_no_context_takeover=True,
        client_no_context_takeover=True,
        server_max_window_bits=WINDOW_BITS,
        client_max_window_bits=WINDOW_BITS,
        compress_settings={"memLevel": wire.MEM_LEVEL},
    )


class QuietPings(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O websocket protocol, pinging only connections gone quiet, its
    deflate without context takeover."""

    heard = 0.0  # the loop's time when data last came in

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn = ServerProtocol(
                extensions=[deflate_without_takeover()],
                max_size=self.config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )

    def data_received(self, data: bytes) -> None:
        self.heard = self.loop.time()
        super().data_received(data)

    def send_keepalive_ping(self) -> None:
        interval = self.ping_interval
        if interval is not None and self.pending_ping_payload is None:
            wait = self.heard + interval - self.loop.time()
            if wait > 0 and not self.close_sent and not self.transport.is_closing():
                self.ping_timer = self.loop.call_later(wait, self.send_keepalive_ping)
                return
        super().send_keepalive_ping()
