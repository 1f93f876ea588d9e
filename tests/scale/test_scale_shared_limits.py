"""Rate limits per address are the site's, not each process's: with two processes on
one Redis, the documented burst of 60 `POST`s is 60 in all (it was 120: the first 429
came at `POST` #121)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from coup.server.rate_limits import BUDGETS, Budget
from coup.server.shared_limits import SharedBuckets
from tests.scale.conftest import REDIS
from tools.load.fleet import fresh_channel
from tools.load.process import ServerProcess

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def limited_pair(database: str, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    """Two processes with the limits per address on (the other scale tests turn them off)."""
    bus = fresh_channel(REDIS, "coup-limits")
    servers = [
        ServerProcess(database, "--http-rate", "0.01", bus=bus, log=tmp_path / f"s{i}.log")
        for i in range(2)
    ]
    for server in servers:
        server.start()
    yield servers
    for server in servers:
        server.stop()


def test_two_processes_give_one_allowance(limited_pair: list[ServerProcess]) -> None:
    first_refused = None
    with httpx.Client(timeout=10) as http:
        for n in range(1, 80):
            server = limited_pair[n % 2]  # as a proxy would spread them
            r = http.post(server.base + "/api/tables", json={"name": f"H{n}"})
            if r.status_code == 429:
                assert r.json()["error"]["code"] == "rate_limited"
                first_refused = n
                break
            assert r.status_code == 201, r.text
    assert first_refused == BUDGETS["post"].burst + 1
    for server in limited_pair:
        assert not server.problems()


async def test_the_buckets_are_shared_and_fall_back_when_redis_is_away() -> None:
    budgets = {"post": Budget(3, 0.001), "get": Budget(5, 1.0), "socket": Budget(2, 0.001)}
    bus = fresh_channel(REDIS, "coup-limits")
    a, b = SharedBuckets(bus, budgets), SharedBuckets(bus, budgets)
    try:
        taken = [await (a if i % 2 else b).allow("post", "203.0.113.9") for i in range(5)]
        assert taken == [True, True, True, False, False]
        assert await a.allow("post", "203.0.113.10")  # another address, its own bucket
    finally:
        await a.close()
        await b.close()
    away = SharedBuckets("redis://127.0.0.1:1/0", budgets)  # nothing listens there
    try:
        assert [await away.allow("socket", "x") for _ in range(3)] == [True, True, False]
        assert away.failing
    finally:
        await away.close()
