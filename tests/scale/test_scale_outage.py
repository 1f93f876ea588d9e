"""The database goes away and comes back (docs/deploy.md, *Health and metrics*): `/readyz`
says so at once and names the database, requests get the documented `503 unavailable`
in JSON (not a plain-text 500 with a traceback each), and all is well again after.

PostgreSQL itself is shared with the other tests, so the server reaches it through a
small TCP relay in this test: cutting the relay (its port closed, every connection
through it dropped) is the database stopping, as the server sees it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
import websockets

from tests.scale.conftest import POSTGRES
from tools.load.client import SeatClient
from tools.load.fleet import drop_database, make_database
from tools.load.process import ServerProcess, free_port

pytestmark = pytest.mark.timeout(120)


class Relay:
    """127.0.0.1:`port` relayed to PostgreSQL, until `cut`."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = free_port()
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)

    async def cut(self) -> None:
        assert self.server is not None
        self.server.close()
        for writer in list(self.writers):
            writer.transport.abort()
        self.writers.clear()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            far_reader, far_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self.writers |= {writer, far_writer}

        async def pipe(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError, ConnectionError):
                while data := await r.read(65536):
                    w.write(data)
                    await w.drain()
            w.transport.abort()

        await asyncio.gather(pipe(reader, far_writer), pipe(far_reader, writer))
        self.writers -= {writer, far_writer}


@pytest.fixture
async def relayed(tmp_path: Path) -> AsyncIterator[tuple[Relay, ServerProcess]]:
    try:
        name, url = await asyncio.to_thread(make_database, POSTGRES, "coup_outage")
    except OSError as exc:  # pragma: no cover - the service is down
        pytest.skip(f"PostgreSQL is not reachable: {exc}")
    parts = urlsplit(url)
    relay = Relay(parts.hostname or "127.0.0.1", parts.port or 5432)
    await relay.start()
    through = url.replace(f"{parts.hostname}:{parts.port}", f"127.0.0.1:{relay.port}", 1)
    server = ServerProcess(through, "--no-address-limits", log=tmp_path / "server.log")
    server.spawn()
    try:
        await asyncio.to_thread(server.wait_ready)
        yield relay, server
    finally:
        await asyncio.to_thread(server.stop)
        await relay.cut()
        await asyncio.to_thread(drop_database, POSTGRES, name)


async def _until(http: httpx.AsyncClient, path: str, status: int, seconds: float) -> None:
    for _ in range(int(seconds / 0.2)):
        if (await http.get(path)).status_code == status:
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"{path} never answered {status}")


async def test_the_database_stops_and_comes_back(relayed: tuple[Relay, ServerProcess]) -> None:
    relay, server = relayed
    async with httpx.AsyncClient(base_url=server.base, timeout=10) as http:
        ready = await http.get("/readyz")
        assert ready.status_code == 200, ready.text
        assert ready.json() == {"ready": True, "database": "ok", "bus": "ok"}
        assert (await http.post("/api/tables", json={"name": "Before"})).status_code == 201

        await relay.cut()  # the database stops
        # the very next readiness check says so (each check waits at most 1 s)
        down = await http.get("/readyz")
        assert down.status_code == 503 and down.headers["retry-after"] == "2"
        body = down.json()
        assert body["ready"] is False and body["database"] != "ok" and body["bus"] == "ok"
        for _ in range(5):  # what people asked for meanwhile: the documented error
            for answer in (
                await http.post("/api/tables", json={"name": "During"}),
                await http.get("/api/tables/AAAAAAAAAAAAAAAAAAAAAA"),
            ):
                assert answer.status_code == 503, answer.text
                assert answer.headers["content-type"] == "application/json"
                assert answer.headers["retry-after"] == "2"
                assert answer.json()["error"]["code"] == "unavailable"
        assert (await http.get("/healthz")).status_code == 200  # alive all along
        socket = SeatClient(server.base, "AAAAAAAAAAAAAAAAAAAAAA")  # its table is read
        try:
            await socket.connect()
            closed = await socket.wait_closed()
        except websockets.ConnectionClosed as gone:  # closed before the hello went out
            closed = gone.rcvd.code if gone.rcvd else None
        assert closed == 1013  # try again later
        await socket.close()

        await relay.start()  # the database is back
        await _until(http, "/readyz", 200, 20)
        for _ in range(20):  # a pooled connection from before may fail once more
            made = await http.post("/api/tables", json={"name": "After"})
            if made.status_code == 201:
                break
            assert made.status_code == 503, made.text
            await asyncio.sleep(0.2)
        assert made.status_code == 201
        metrics = (await http.get("/metrics")).text
    errors = next(
        line
        for line in metrics.splitlines()
        if line.startswith('coup_backend_errors_total{backend="store"}')
    )
    assert float(errors.split()[-1]) >= 10
    log = server.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
    assert log.count("\n") < 30, log  # a line per outage and loop, not one per request
