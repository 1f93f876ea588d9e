"""A message made once for every connection it goes to (`wire.Outgoing`), websockets'
deflate off by default and, when on, without context takeover: compressed once per
message, written straight to the socket (coup/server/wire.py, coup/server/keepalive.py)."""

from __future__ import annotations

import zlib
from typing import Any

import websockets
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from coup.cli.serve import parser
from coup.server import wire
from coup.server.keepalive import QuietPings
from coup.server.views import show
from tests.server.test_server_direct_write import serving


def test_deflate_is_off_unless_asked_for() -> None:
    assert parser().parse_args([]).ws_compression is False
    assert parser().parse_args(["--ws-compression"]).ws_compression is True
    assert parser().parse_args(["--no-ws-compression"]).ws_compression is False


def test_a_message_is_framed_and_compressed_once() -> None:
    text = '{"type":"view","x":"' + "".join(f"{n * n:x}" for n in range(400)) + '"}'
    out = wire.Outgoing(text)
    assert out.plain() is out.plain()
    assert out.deflated(12) is out.deflated(12)
    frame = out.deflated(12)
    assert frame[0] == 0xC1  # final, RSV1 (compressed), text
    assert frame[1] == 126 and int.from_bytes(frame[2:4], "big") == len(frame) - 4
    body = frame[4:]
    inflated = zlib.decompressobj(wbits=-12).decompress(body + b"\x00\x00\xff\xff")
    assert inflated.decode() == text
    short = wire.Outgoing('{"type":"pong"}')
    assert short.deflated(12) == short.plain() == b"\x81\x0f" + b'{"type":"pong"}'


async def test_with_deflate_views_go_straight_to_the_socket_compressed_once() -> None:
    found: list[Any] = []
    texts = ["x" * 10, '{"a":"' + "view " * 300 + '"}', "y" * 70_000, "short again"]

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        write = wire.direct_writer(ws.scope)
        found.append(write)
        assert write is not None
        for n, text in enumerate(texts):
            if n == 2:
                await ws.send_text(text)  # the ASGI way (websockets' own compressor)
            else:
                assert write(wire.Outgoing(text))
        await ws.receive()
        await ws.close()

    app = Starlette(
        routes=[WebSocketRoute("/ws", endpoint)], middleware=[Middleware(wire.KeepSend)]
    )
    async with (
        serving(app, deflate=True, ws=QuietPings) as url,
        websockets.connect(url, compression="deflate", max_size=2**22) as client,
    ):
        agreed = client.response.headers["Sec-WebSocket-Extensions"]  # type: ignore[union-attr]
        got = [await client.recv() for _ in texts]
        await client.send("bye")
    assert got == texts
    assert "server_no_context_takeover" in agreed and "client_no_context_takeover" in agreed
    assert found[0] is not None


class Recorder:
    """A connection that keeps what it was sent."""

    def __init__(self, member: str | None) -> None:
        self.member = member
        self.name: str | None = None  # a spectator's name, if it gave one
        self.views: list[wire.Outgoing] = []

    def send_view(self, view: wire.Outgoing) -> None:
        self.views.append(view)


async def test_a_view_is_one_message_per_audience(service: Any) -> None:
    """Both connections of one seat and all spectators share one message each, so each
    is framed (and compressed) once; every seat has its own."""
    table, _, _ = await service.create("Host", {"seats": 3})
    for k in (1, 2):
        await service.join(table, f"P{k}", k)
    await service.start_game(table)
    members = [s.member for s in table.seats if s is not None]
    conns = [Recorder(m) for m in members] + [Recorder(members[0])]
    conns += [Recorder(None) for _ in range(3)]
    show(table, conns, 3)  # type: ignore[arg-type]
    sent = [c.views[0] for c in conns]
    seats, second_device, watchers = sent[:3], sent[3], sent[4:]
    assert len({id(v) for v in seats}) == 3
    assert second_device is seats[0]
    assert watchers[0] is watchers[1] is watchers[2]
    assert len({v.text for v in [*seats, watchers[0]]}) == 4
