"""The cheaper paths of a move: text frames written straight to uvicorn's transport
(coup/server/wire.py), SQLite moves written on the event loop's thread when the store's
thread is idle (coup/store/sqlite_thread.py), keepalive pings only for quiet sockets
(coup/server/keepalive.py)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
import uvicorn
import websockets
from sqlalchemy import Connection, create_engine, text
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.streams import StreamReader

from coup.server import wire
from coup.server.keepalive import QuietPings
from coup.store import open_store
from coup.store.sqlite_thread import SqliteThread

SIZES = [0, 1, 125, 126, 65535, 65536, 200_000]


@pytest.mark.parametrize("size", SIZES)
def test_a_text_frame_parses_back_to_its_payload(size: int) -> None:
    payload = ("é" * size).encode()[:size]
    frame = wire.text_frame(payload)
    reader = StreamReader()
    reader.feed_data(frame)
    parser = Frame.parse(reader.read_exact, mask=False)
    with pytest.raises(StopIteration) as done:
        while True:
            next(parser)
    parsed = done.value.value
    assert parsed.opcode is Opcode.TEXT and parsed.fin and bytes(parsed.data) == payload


@contextlib.asynccontextmanager
async def serving(
    app: Starlette, *, deflate: bool = False, ws: Any = "websockets-sansio"
) -> AsyncIterator[str]:
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, ws=ws, log_level="warning",
        lifespan="off", ws_per_message_deflate=deflate,
    )  # fmt: skip
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"ws://127.0.0.1:{port}/ws"
    finally:
        server.should_exit = True
        await task


async def test_frames_written_directly_arrive_whole_and_in_order_with_asgi_sends() -> None:
    found: list[bool] = []

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        write = wire.direct_writer(ws.scope)
        found.append(write is not None)
        assert write is not None
        for n, size in enumerate(SIZES):
            body = f"{n}:" + "x" * size
            if n % 2:
                await ws.send_text(body)  # the ASGI way, between direct ones
            else:
                assert write(wire.Outgoing(body))
        await ws.receive()  # the client's goodbye
        await ws.close()
        assert not write(wire.Outgoing("after close"))  # refused: send it the ASGI way

    app = Starlette(
        routes=[WebSocketRoute("/ws", endpoint)], middleware=[Middleware(wire.KeepSend)]
    )
    async with serving(app) as url, websockets.connect(url, max_size=2**22) as client:
        got = [await client.recv() for _ in SIZES]
        await client.send("bye")
        assert got == [f"{n}:" + "x" * size for n, size in enumerate(SIZES)]
    assert found == [True]


async def test_no_direct_writer_without_the_middleware_or_with_deflates_context() -> None:
    """uvicorn's own deflate keeps its context: only its compressor can frame."""
    found: list[bool] = []

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        found.append(wire.direct_writer(ws.scope) is not None)
        await ws.send_text("hello")
        await ws.close()

    plain = Starlette(routes=[WebSocketRoute("/ws", endpoint)])
    async with serving(plain) as url, websockets.connect(url) as client:
        assert await client.recv() == "hello"
    deflating = Starlette(
        routes=[WebSocketRoute("/ws", endpoint)], middleware=[Middleware(wire.KeepSend)]
    )
    async with (
        serving(deflating, deflate=True) as url,
        websockets.connect(url, compression="deflate") as client,
    ):
        assert await client.recv() == "hello"
    assert found == [False, False]


def _table(engine_url: str) -> SqliteThread:
    engine = create_engine(engine_url)
    th = SqliteThread(engine, checkpoint_every=1000)  # before the first connection
    with engine.begin() as conn:
        conn.exec_driver_sql("PRAGMA journal_mode=WAL")
        conn.exec_driver_sql("CREATE TABLE t (n INTEGER)")
    return th


def _insert(n: int):  # type: ignore[no-untyped-def]
    """A write on the driver's connection, as a move's (`SqliteThread.write`)."""

    def fn(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO t (n) VALUES (?)", (n,))

    return fn


def _rows(conn: Connection) -> list[int]:
    return [r[0] for r in conn.execute(text("SELECT n FROM t ORDER BY rowid"))]


async def test_a_move_is_written_inline_only_while_the_store_thread_is_idle(
    tmp_path: Path,
) -> None:
    th = _table(f"sqlite:///{tmp_path / 'x.db'}")
    await th.write(_insert(1))
    assert th.inline == 1
    release = threading.Event()
    slow = asyncio.ensure_future(th.call(lambda: release.wait(10)))
    await asyncio.sleep(0.05)  # the thread is in the slow job
    second = asyncio.ensure_future(th.write(_insert(2)))
    await asyncio.sleep(0.05)
    assert th.inline == 1 and not second.done()  # queued behind the slow job, in order
    release.set()
    await slow
    await second
    # a job cancelled before it ran does not leave the thread counted busy
    release.clear()
    slow = asyncio.ensure_future(th.call(lambda: release.wait(10)))
    await asyncio.sleep(0.05)
    cancelled = asyncio.ensure_future(th.write(_insert(99)))
    await asyncio.sleep(0.05)
    cancelled.cancel()
    await asyncio.sleep(0.05)  # the cancel reaches the queued job before the thread frees
    release.set()
    await slow
    await th.write(_insert(3))
    assert th.inline == 2
    assert await th.run(_rows) == [1, 2, 3]
    th.shutdown()


async def test_a_move_that_fails_on_the_loops_thread_leaves_nothing_written(
    tmp_path: Path,
) -> None:
    """The driver's transaction on the kept connection: a write that raises half-way is
    rolled back, a later one commits, and another connection sees exactly that."""
    th = _table(f"sqlite:///{tmp_path / 'x.db'}")

    def half(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO t (n) VALUES (1)")
        raise RuntimeError("refused after the first statement")

    with pytest.raises(RuntimeError):
        await th.write(half)
    await th.write(_insert(2))
    assert th.inline == 2
    assert await th.run(_rows) == [2]  # read on the store thread's own connection
    th.close_mover()
    th.shutdown()


async def test_the_store_thread_checkpoints_instead_of_the_commits(tmp_path: Path) -> None:
    th = _table(f"sqlite:///{tmp_path / 'x.db'}")
    th.checkpoint_every = 3
    done: list[int] = []
    plain = th._checkpoint

    def counted() -> None:
        plain()
        done.append(1)

    th._checkpoint = counted  # type: ignore[method-assign]
    for n in range(7):
        await th.write(_insert(n))
    await th.call(lambda: None)  # whatever was queued ran
    assert len(done) == 2
    auto = await th.run(lambda conn: conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar())
    assert auto == 0
    assert await th.run(_rows) == list(range(7))
    th.shutdown()


async def test_the_sqlite_store_writes_moves_inline_and_never_checkpoints_in_a_commit(
    tmp_path: Path,
) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'store.db'}")
    try:
        auto = await store._run(
            lambda conn: conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()
        )
        assert auto == 0
        assert store._thread is not None and store._thread.inline == 0
        await store._thread.write(lambda conn: None)
        assert store._thread.inline == 1
    finally:
        await store.close()


class CountingPings(QuietPings):
    pings: ClassVar[list[int]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        send_ping = self.conn.send_ping
        index = len(CountingPings.pings)
        CountingPings.pings.append(0)

        def counted(data: bytes) -> None:
            CountingPings.pings[index] += 1
            send_ping(data)

        self.conn.send_ping = counted  # type: ignore[method-assign]


async def test_only_connections_gone_quiet_are_pinged() -> None:
    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        with contextlib.suppress(Exception):
            while True:
                await ws.receive_text()

    app = Starlette(routes=[WebSocketRoute("/ws", endpoint)])
    CountingPings.pings = []
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, ws=CountingPings, ws_ping_interval=0.3,
        ws_ping_timeout=1.0, log_level="warning", lifespan="off",
    )  # fmt: skip
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    url = f"ws://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}/ws"
    try:
        async with (
            websockets.connect(url, ping_interval=None) as chatty,
            websockets.connect(url, ping_interval=None) as quiet,
        ):
            for _ in range(15):  # 1.5 s: the chatty one says something every 0.1 s
                await chatty.send("here")
                await asyncio.sleep(0.1)
            assert quiet.state is State.OPEN  # it answered every ping: still open
    finally:
        server.should_exit = True
        await task
    chatty_pings, quiet_pings = CountingPings.pings
    assert chatty_pings == 0
    assert quiet_pings >= 3  # one every 0.3 s, as uvicorn does
