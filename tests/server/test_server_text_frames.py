"""A client's whole small text frames read without websockets' parser, everything else
through it, in order (coup/server/text_frames.py)."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
from collections.abc import AsyncIterator
from typing import Any, ClassVar

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.speedups import apply_mask

from coup.server.keepalive import QuietPings
from coup.server.text_frames import texts_of, whole_frames


def client_frame(payload: bytes, opcode: int = 1, *, fin: bool = True, rsv1: bool = False) -> bytes:
    first = (0x80 if fin else 0) | (0x40 if rsv1 else 0) | opcode
    n = len(payload)
    if n < 126:
        head = bytes((first, 0x80 | n))
    elif n < 65536:
        head = bytes((first, 0x80 | 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((first, 0x80 | 127)) + n.to_bytes(8, "big")
    mask = os.urandom(4)
    return head + mask + apply_mask(payload, mask)


def test_whole_small_text_frames_are_read_and_nothing_else() -> None:
    one, two = client_frame(b'{"type":"ping"}'), client_frame(("é" * 100).encode())
    assert texts_of(one + two, 1000) == ['{"type":"ping"}', "é" * 100]
    assert texts_of(one + two, 100) is None  # over the limit: websockets says 1009
    assert texts_of(one + client_frame(b"x", opcode=9), 1000) is None  # a ping
    assert texts_of(client_frame(b"x", opcode=2), 1000) is None  # binary
    assert texts_of(client_frame(b"x", fin=False), 1000) is None  # fragmented
    assert texts_of(client_frame(b"x", rsv1=True), 1000) is None  # compressed
    assert texts_of(client_frame(b"\xff\xfe"), 1000) is None  # not UTF-8: 1007
    assert texts_of((one + two)[:-1], 1000) is None  # the end in the next read
    assert texts_of(b"\x81\x05hello", 1000) is None  # not masked
    big = client_frame(b"y" * 70_000)
    assert texts_of(big, None) is None  # 8-byte lengths: websockets
    for frames in (one, one + two, big, one + client_frame(b"", opcode=10)):
        assert whole_frames(frames)
        assert not whole_frames(frames[:-1])
    assert not whole_frames(one[:1])


class Counted(QuietPings):
    made: ClassVar[list[QuietPings]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        Counted.made.append(self)


@contextlib.asynccontextmanager
async def echo_server() -> AsyncIterator[int]:
    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        with contextlib.suppress(Exception):
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                await ws.send_text(f"text:{text}" if text is not None else "bytes")

    app = Starlette(routes=[WebSocketRoute("/ws", endpoint)])
    Counted.made = []
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, ws=Counted, log_level="warning", lifespan="off",
        ws_max_size=100_000,
    )  # fmt: skip
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        await task


async def handshake(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = await reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101")
    return reader, writer


async def server_message(reader: asyncio.StreamReader) -> bytes:
    first, second = await reader.readexactly(2)
    size = second & 0x7F
    if size == 126:
        size = int.from_bytes(await reader.readexactly(2), "big")
    elif size == 127:
        size = int.from_bytes(await reader.readexactly(8), "big")
    payload = await reader.readexactly(size)
    return bytes((first,)) + payload


@pytest.mark.parametrize("split", [False, True])
async def test_every_message_arrives_once_in_order_whichever_way_it_was_read(
    split: bool,
) -> None:
    async with echo_server() as port:
        reader, writer = await handshake(port)
        sent = [
            client_frame(b"one") + client_frame(b"two"),  # two whole frames in one read
            client_frame(b"ping me", opcode=9),  # a ping: websockets answers (a pong)
            client_frame(("z" * 300).encode()),  # a 2-byte length
            client_frame(b"binary", opcode=2),
            client_frame(b"frag", fin=False) + client_frame(b"ment", opcode=0),
            client_frame(b"three"),
        ]
        if split:  # a frame cut over two reads: websockets reads the rest of the way
            cut = client_frame(b"split frame")
            sent.insert(1, cut[:3])
            sent.insert(2, cut[3:])
        got: list[bytes] = []
        for chunk in sent:
            writer.write(chunk)
            await writer.drain()
            await asyncio.sleep(0.05)  # each its own read
        expected = [b"\x81text:one", b"\x81text:two"]
        expected += [b"\x81text:split frame"] if split else []
        expected += [b"\x8aping me", b"\x81text:" + b"z" * 300, b"\x81bytes"]
        expected += [b"\x81text:fragment", b"\x81text:three"]
        for _ in expected:
            got.append(await asyncio.wait_for(server_message(reader), 5))
        assert got == expected
        writer.write(client_frame(b"\x03\xe8", opcode=8))  # close, 1000
        await writer.drain()
        assert (await asyncio.wait_for(server_message(reader), 5))[0] == 0x88
        writer.close()
        (conn,) = Counted.made
        # unsplit: one, two, z*300, three read here; split: only those before the cut
        assert conn.read_here == (2 if split else 4)


async def test_a_text_that_is_not_utf8_still_closes_1007() -> None:
    async with echo_server() as port:
        reader, writer = await handshake(port)
        writer.write(client_frame(b"fine"))
        await writer.drain()
        assert await asyncio.wait_for(server_message(reader), 5) == b"\x81text:fine"
        writer.write(client_frame(b"\xff\xfe"))  # left to websockets and uvicorn
        await writer.drain()
        closing = await asyncio.wait_for(server_message(reader), 5)
        assert closing[0] == 0x88 and int.from_bytes(closing[1:3], "big") == 1007
        writer.close()
