"""Limits per client address (docs/deploy.md, *Security*): the rate limiter's buckets
(bounded, least recently used out, an IPv6 client counted by its /64), the app's door
(GETs and websocket opens rate-limited, websockets per address capped), and the gate
where TCP connections come in (connections per address, slow heads and bodies closed),
on a real uvicorn with the server's own protocols."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
import websockets
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from coup.server.address_limits import AddressLimits
from coup.server.addresses import Proxies, address_key
from coup.server.app import create_app
from coup.server.gate import Gate, settings
from coup.server.rate_limits import Buckets, Budget
from tools.load.process import free_port


def test_ipv6_clients_are_counted_by_their_slash_64() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff::9")
    assert address_key("2001:db8:1:2::1") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:203.0.113.7") == address_key("203.0.113.7") == "203.0.113.7"
    assert address_key("fe80::1%eth0") == "fe80::/64"
    assert address_key(None) == "?" and address_key("testclient") == "testclient"


def test_the_buckets_are_bounded_and_forget_the_least_recently_used() -> None:
    buckets = Buckets({"post": Budget(2, 1.0)}, kept=100)
    assert [buckets.take("post", "a", now=0) for _ in range(3)] == [True, True, False]
    for i in range(1000):  # one-shot addresses: they push out each other, not "a"
        buckets.take("post", f"x{i}", now=0)
        assert not buckets.take("post", "a", now=0)  # "a" is still empty
    assert len(buckets.doors["post"]) == 100
    assert buckets.take("post", "a", now=1.0)  # refilled by time only
    many = [buckets.take("post", f"2001:db8::{i:x}", now=5) for i in range(3)]
    assert many == [True, True, True]  # different keys here: the app keys by /64
    free = Buckets({"post": Budget(2, 0)})
    assert all(free.take("post", "a") for _ in range(100))  # refill 0: no limit


def test_proxies_are_addresses_or_networks() -> None:
    proxies = Proxies("127.0.0.1, 10.0.0.0/8,::1")
    assert proxies.trusted("10.2.3.4") and proxies.trusted("::ffff:127.0.0.1")
    assert not proxies.trusted("11.0.0.1") and not proxies.trusted(None)
    assert Proxies("*").trusted("203.0.113.9")
    with pytest.raises(ValueError, match="nginx"):
        Proxies("nginx")


def tiny_app(limiter: Buckets, sockets: int) -> Starlette:
    async def answer(request: Request) -> Response:
        try:
            body = await request.body()
        except ClientDisconnect:  # the gate closed a slow body: nobody to answer
            return Response(status_code=408)
        return JSONResponse({"ok": True, "bytes": len(body)})

    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        with contextlib.suppress(WebSocketDisconnect):
            await ws.receive_text()

    routes = [
        Route("/api/x", answer, methods=["GET", "POST"]),
        Route("/static/x", answer),
        Route("/healthz", answer),
        WebSocketRoute("/ws", socket),
    ]
    limits = Middleware(AddressLimits, limiter=limiter, sockets=sockets)
    return Starlette(routes=routes, middleware=[limits])


@contextlib.asynccontextmanager
async def real_server(gate: Gate, app: Any, lifespan: str = "off") -> AsyncIterator[int]:
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None,
        lifespan=lifespan, **settings(gate))  # fmt: skip
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield port
    finally:
        server.should_exit = True
        await task


async def test_the_door_limits_gets_posts_and_socket_opens_per_address() -> None:
    budgets = {"get": Budget(3, 0.001), "post": Budget(2, 0.001), "socket": Budget(3, 0.001)}
    app = tiny_app(Buckets(budgets), sockets=2)
    async with real_server(Gate(Proxies("127.0.0.1"), 0), app) as port:
        base, ws = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws"
        async with httpx.AsyncClient(base_url=base) as http:
            gets = [(await http.get("/api/x")).status_code for _ in range(4)]
            assert gets == [200, 200, 200, 429]
            r = await http.get("/api/x")
            assert r.json()["error"]["code"] == "rate_limited"
            posts = [(await http.post("/api/x")).status_code for _ in range(3)]
            assert posts == [200, 200, 429]
            free = {(await http.get(p)).status_code for p in ["/static/x", "/healthz"] * 20}
            assert free == {200}
        one, two = await websockets.connect(ws), await websockets.connect(ws)
        third = await websockets.connect(ws)  # the cap: two open at once
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await third.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        await one.close()
        await two.close()
        fourth = await websockets.connect(ws)  # three opens were spent
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await fourth.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429


def unlimited() -> Starlette:
    budgets = {door: Budget(1, 0) for door in ("get", "post", "socket")}
    return tiny_app(Buckets(budgets), sockets=1000)


async def test_the_gate_caps_connections_per_address_unless_from_a_proxy() -> None:
    gate = Gate(Proxies("10.9.9.9"), limit=5)
    async with real_server(gate, unlimited()) as port:
        held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(5)]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        answer = await reader.read()
        assert answer.startswith(b"HTTP/1.1 429") and b"too many connections" in answer
        writer.close()
        with pytest.raises(websockets.InvalidStatus, match="429"):  # over the cap too
            await websockets.connect(f"ws://127.0.0.1:{port}/ws")
        for _, w in held:
            w.close()
        for _ in range(100):  # the count comes down as they close
            if not gate.open:
                break
            await asyncio.sleep(0.01)
        assert not gate.open
        async with httpx.AsyncClient() as http:
            assert (await http.get(f"http://127.0.0.1:{port}/api/x")).status_code == 200
        sockets = [await websockets.connect(f"ws://127.0.0.1:{port}/ws") for _ in range(5)]
        assert gate.open == {"127.0.0.1": 5}  # websockets count, once upgraded too
        for s in sockets:
            await s.close()
    trusting = Gate(Proxies("127.0.0.1"), limit=5)
    async with real_server(trusting, unlimited()) as port:
        held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(20)]
        async with httpx.AsyncClient() as http:
            assert (await http.get(f"http://127.0.0.1:{port}/api/x")).status_code == 200
        assert not trusting.open
        for _, w in held:
            w.close()


async def test_slow_heads_and_bodies_are_closed() -> None:
    gate = Gate(Proxies("10.9.9.9"), limit=5, head=0.3, body=0.3)
    async with real_server(gate, unlimited()) as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /api/x HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
        answer = await asyncio.wait_for(reader.read(), 30)
        assert answer.startswith(b"HTTP/1.1 408")
        reader, writer = await asyncio.open_connection("127.0.0.1", port)  # says nothing
        assert (await asyncio.wait_for(reader.read(), 30)).startswith(b"HTTP/1.1 408")
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"POST /api/x HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        assert await asyncio.wait_for(reader.read(), 30) == b""  # closed, nothing answered
        reader, writer = await asyncio.open_connection("127.0.0.1", port)  # a good one
        writer.write(b"GET /api/x HTTP/1.1\r\nHost: x\r\n\r\n")
        assert (await reader.readuntil(b"}")).startswith(b"HTTP/1.1 200")
        await asyncio.sleep(0.6)  # kept alive and idle: uvicorn's own keep-alive (5 s) holds
        writer.write(b"GET /api/x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert (await reader.read()).startswith(b"HTTP/1.1 200")


async def test_the_server_refuses_the_400th_websocket_from_one_address(
    tmp_path: Path, server_process: Any
) -> None:
    server = server_process(f"sqlite:///{tmp_path / 'coup.db'}", limits=True).start()
    try:
        async with httpx.AsyncClient(base_url=server.base) as http:
            made = (await http.post("/api/tables", json={"name": "A"})).json()
        url = server.base.replace("http", "ws") + f"/ws/{made['table']}"
        opened, refused = [], 0
        for _ in range(60):
            ws = await websockets.connect(url)
            try:
                await ws.send('{"type": "hello"}')
                await ws.recv()
                opened.append(ws)
            except websockets.ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 4429
                refused += 1
        assert len(opened) == 32 and refused == 28
        for ws in opened:
            await ws.close()
        limits = httpx.Limits(max_connections=16)  # within the connections per address
        async with httpx.AsyncClient(base_url=server.base, timeout=120, limits=limits) as http:
            answers = await asyncio.gather(*(http.get("/api/tables/nothing") for _ in range(400)))
        codes = [r.status_code for r in answers]  # tables that are not there: 404, then 429
        assert set(codes) == {404, 429}
    finally:
        server.stop()


async def test_a_slow_body_to_the_app_is_closed_without_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    gate = Gate(Proxies("127.0.0.1"), head=5, body=0.3)
    app = create_app(f"sqlite:///{tmp_path / 'coup.db'}")
    async with real_server(gate, app, lifespan="on") as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        head = b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        writer.write(head + b"Content-Length: 100\r\n\r\n{")
        assert await asyncio.wait_for(reader.read(), 30) == b""
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
            r = await http.post("/api/tables", json={"name": "A"})
            assert r.status_code == 201
            assert r.json()["table"] and (await http.get("/api/tables/x")).status_code == 404
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
