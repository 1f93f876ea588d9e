"""Websocket keepalive pings only for connections that have gone quiet.

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
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class QuietPings(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O websocket protocol, pinging only connections gone quiet."""

    heard = 0.0  # the loop's time when data last came in

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
