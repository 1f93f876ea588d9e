"""A client's small text messages read without websockets' frame parser.

Nearly everything a client sends is one short text frame a message (a move, a pass, a
chat line, a ping of the protocol's own), arriving whole in one read. websockets parses
each through a chain of generators (a stream reader, the frame's header and mask, the
extensions, an `Opcode` enum), then uvicorn walks the events it produced; that took
more CPU than the rest of the message's way to the table (docs/bench.md). A frame a
client sends is a 2 or 4 byte header, a 4-byte mask and the masked payload (RFC 6455
5.2), so when a read holds only whole, final, unfragmented, uncompressed text frames
within the size limit, valid UTF-8, on an open connection whose parser is between
frames, their texts are unmasked here (websockets' own C `apply_mask`) and queued for
the app exactly as uvicorn queues them.

Anything else goes to websockets as before, whole: a control frame (ping, pong,
close), a binary or compressed or fragmented one, a frame split over reads, bad UTF-8
(the gate closes it with 1007), one over the limit (1009). Once a read that did not end
on a frame's end went to websockets, its parser may be inside a frame, and the
connection reads through websockets for the rest of its life.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State
from websockets.speedups import apply_mask

FINAL_TEXT = 0x81  # FIN, no RSV bits, opcode 1
MASKED = 0x80


def whole_frames(data: bytes) -> bool:
    """Whether `data` is a run of whole client frames (any kind), ending on a frame's end."""
    at, n = 0, len(data)
    while at < n:
        if n - at < 2:
            return False
        second = data[at + 1]
        size = second & 0x7F
        at += 2
        if size == 126:
            if n - at < 2:
                return False
            size = int.from_bytes(data[at : at + 2], "big")
            at += 2
        elif size == 127:
            if n - at < 8:
                return False
            size = int.from_bytes(data[at : at + 8], "big")
            at += 8
        at += (4 if second & MASKED else 0) + size
    return at == n


def texts_of(data: bytes, limit: int | None) -> list[str] | None:
    """The texts of `data` when it is only whole, final, uncompressed, masked text
    frames of at most `limit` bytes each, in valid UTF-8; else None."""
    texts: list[str] = []
    at, n = 0, len(data)
    while at < n:
        if n - at < 6 or data[at] != FINAL_TEXT or not data[at + 1] & MASKED:
            return None
        size = data[at + 1] & 0x7F
        at += 2
        if size == 126:
            if n - at < 6:
                return None
            size = int.from_bytes(data[at : at + 2], "big")
            at += 2
        elif size == 127:
            return None
        if limit is not None and size > limit:
            return None
        end = at + 4 + size
        if end > n:
            return None
        try:
            texts.append(apply_mask(data[at + 4 : end], data[at : at + 4]).decode())
        except UnicodeDecodeError:
            return None
        at = end
    return texts


class TextFrames(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O websocket protocol, reading whole small text frames itself."""

    between_frames = True  # websockets' parser is between frames with nothing buffered
    _reads = 0  # reads before the handshake completed (the first is the request)
    read_here = 0  # messages read here, not by websockets (for tests and benches)

    def data_received(self, data: bytes) -> None:
        conn = self.conn
        if not self.handshake_complete:
            self._reads += 1
            if self._reads > 1:  # a client's bytes before its handshake's answer
                self.between_frames = False
        elif self.between_frames:
            if (
                conn.state is State.OPEN
                and not self.close_sent
                and conn.current_size is None
                and conn.parser_exc is None
                and not conn.reader.buffer
                and not self.frames
            ):
                texts = texts_of(data, conn.max_message_size)
                if texts is not None:
                    for text in texts:
                        self.queue.put_nowait({"type": "websocket.receive", "text": text})
                    self.read_here += len(texts)
                    if not self.read_paused:
                        self.read_paused = True
                        self.transport.pause_reading()
                    return
            self.between_frames = whole_frames(data)
        super().data_received(data)
