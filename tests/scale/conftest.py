"""Fixtures for the scale-out tests: a fresh PostgreSQL database per session, a private
Redis channel, and real `coup serve` processes sharing them."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tools.load.fleet import drop_database, fresh_channel, make_database
from tools.load.process import ServerProcess

POSTGRES = os.environ.get("COUP_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("COUP_TEST_REDIS", "redis://127.0.0.1:6379/0")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/scale/" in str(item.fspath):
            item.add_marker(pytest.mark.services)


def _fresh_database() -> Iterator[str]:
    try:
        name, url = make_database(POSTGRES, "coup_test")
    except OSError as exc:  # pragma: no cover - the service is down
        pytest.skip(f"PostgreSQL is not reachable: {exc}")
    yield url
    drop_database(POSTGRES, name)


@pytest.fixture(scope="session")
def database() -> Iterator[str]:
    """A PostgreSQL database of our own for the server processes, dropped at the end."""
    yield from _fresh_database()


@pytest.fixture(scope="module")
def quiet_database() -> Iterator[str]:
    """Another one that no server process claims deadlines from."""
    yield from _fresh_database()


@pytest.fixture(scope="session")
def bus() -> str:
    """A Redis URL with a channel of our own (pub/sub ignores database numbers)."""
    return fresh_channel(REDIS, "coup-test")


class Server(ServerProcess):
    """One `coup serve` on the shared database and bus; `kill()` is a kill -9."""

    def __init__(self, db: str, bus: str, log: Path, *args: str) -> None:
        super().__init__(db, "--no-address-limits", *args, bus=bus, log=log)


@pytest.fixture(scope="session")
def cluster(
    database: str, bus: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Server]]:
    """Two processes on two ports, one database, one Redis channel."""
    logs = tmp_path_factory.mktemp("cluster")
    servers = [Server(database, bus, logs / f"server{i}.log", "--bot-delay", "0") for i in range(2)]
    for s in servers:
        s.start()
    yield servers
    for s in servers:
        s.stop()
    problems = [p for s in servers for p in s.problems()]
    assert not problems, "\n".join(s.log.read_text(errors="replace")[-3000:] for s in servers)


@pytest.fixture
def spare_pair(tmp_path: Path) -> Iterator[list[Server]]:
    """Two more processes with a database and a bus channel of their own (a player may be
    away 0.3 s). Not the session cluster's: its processes would claim these tables'
    deadlines too and re-arm away clocks with their own 30 s."""
    bus = fresh_channel(REDIS, "coup-test")
    for database in _fresh_database():
        servers = [
            Server(database, bus, tmp_path / f"spare{i}.log", "--bot-delay", "0", "--away", "0.3")
            for i in range(2)
        ]
        for s in servers:
            s.start()
        yield servers
        for s in servers:
            s.stop()
