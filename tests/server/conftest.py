"""Fixtures for the server tests: real `coup serve` processes on loopback ports."""

from __future__ import annotations

import os
import random
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from coup.bus.memory import MemoryBus
from coup.server.hub import Hub
from coup.server.protocol import ProtocolError
from coup.server.service import TableService
from coup.server.table import Table
from coup.store import open_store
from tools.load import process
from tools.load.fleet import drop_database, make_database


class ServerProcess(process.ServerProcess):
    """`coup serve` with instant bots and, unless `limits`, no limit per address (a
    session's tests make more tables and sockets from one address than a person would: on
    a quiet machine they ran through the burst of 60 and got 429); `kill()` is a kill -9,
    `start()` starts it again. Later arguments win, so a test may pass its own
    `--http-rate`."""

    def __init__(self, db: str, *args: str, log: Path | None = None, limits: bool = False) -> None:
        ours = ("--bot-delay", "0") if limits else ("--bot-delay", "0", "--no-address-limits")
        super().__init__(db, *ours, *args, log=log)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("server") / "coup.db"
    proc = ServerProcess(f"sqlite:///{db}", log=db.parent / "server.log").start()
    yield proc
    proc.stop()
    problems = proc.problems()
    assert not problems, proc.log.read_text(errors="replace")[-4000:]


@pytest.fixture(scope="session")
def base(server: ServerProcess) -> str:
    return server.base


def postgres_url() -> str:
    return os.environ.get("COUP_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


@contextmanager
def fresh_postgres(prefix: str) -> Iterator[str]:
    """A fresh PostgreSQL database named from `prefix`, dropped afterwards (the test is
    skipped where PostgreSQL is not running)."""
    try:
        made, url = make_database(postgres_url(), prefix)
    except OSError as exc:  # pragma: no cover - PostgreSQL not running
        pytest.skip(f"PostgreSQL is not reachable: {exc}")
    yield url
    drop_database(postgres_url(), made)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database of the test's own: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'coup.db'}"
        return
    with fresh_postgres("coup_server_test") as url:
        yield url


@pytest.fixture
def server_process() -> type[ServerProcess]:
    """The ServerProcess class, for tests that start (and kill) their own servers."""
    return ServerProcess


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    """The table service in this process, on an SQLite file `svc.db` in `tmp_path`."""
    store = await open_store(f"sqlite:///{tmp_path / 'svc.db'}")
    svc = TableService(store, MemoryBus(), Hub(), bot_delay=(0, 0))
    await svc.start()
    yield svc
    await svc.stop()
    await store.close()


async def play_random(service: TableService, table: Table, seat: int, rng: random.Random) -> None:
    """A person at `seat` plays one of its legal moves at random. The bots play in the same
    process meanwhile: a bot's move may come first (`stale`) or end the game
    (`no_game_running`), the answers a person's late move gets."""
    assert table.run is not None
    move = str(rng.choice(table.run.state.legal(seat)))
    try:
        await service.dealer.play(table, seat, move, table.version)
    except ProtocolError as exc:
        assert exc.code in ("stale", "no_game_running"), exc.code
