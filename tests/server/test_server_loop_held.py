"""No request holds the event loop: the worst records a replay may be asked for (and
records over its bounds) uploaded again and again while `/healthz` is asked meanwhile,
and the server's own watch of its loop (`loop_watch.py`) never logged a tick held over
50 ms. The watch itself: it sees a loop kept busy, and not a process left unscheduled."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path

import httpx
import pytest

from coup.server.loop_watch import HELD_WARN, LoopWatch
from coup.server.replay_job import MAX_REPLAY_MOVES
from tests.server.conftest import ServerProcess
from tools.load.long_games import WIDE_NAME, long_record

HELD = "the event loop was held"


def test_the_watch_sees_a_busy_loop_and_not_a_descheduled_process(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def run() -> tuple[float, float]:
        watch = LoopWatch()
        watch.start()
        await asyncio.sleep(0.1)
        time.sleep(0.2)  # noqa: ASYNC251 - held without computing, as when not scheduled
        await asyncio.sleep(0.1)
        asleep = watch.longest
        start = time.process_time()
        while time.process_time() - start < 0.2:  # a callback computing
            pass
        await asyncio.sleep(0.1)
        await watch.stop()
        return asleep, watch.longest

    with caplog.at_level(logging.WARNING, logger="coup.server"):
        asleep, busy = asyncio.run(run())
    assert asleep < HELD_WARN and busy > 0.15
    assert [r.getMessage() for r in caplog.records if HELD in r.getMessage()]


def worst_uploads() -> list[tuple[bytes, set[int]]]:
    """(body, the statuses it may get): the longest and widest records a replay takes,
    then records over its bounds (refused at once), and a body of many small values."""
    ten = long_record(MAX_REPLAY_MOVES, 10, names=[WIDE_NAME] * 10)
    two = long_record(MAX_REPLAY_MOVES, 2)
    longer = long_record(5000, 2)  # the moves alone over the bound (7,800 took 10 s)
    wide = {**long_record(60, 3), "players": ["x" * 40_000] * 3}  # 120 KB of names
    deep = b'{"a":' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    ok = {200, 503}  # 503 busy: more replays were waiting than the server takes
    return [
        (json.dumps(ten).encode(), ok),
        (json.dumps(two).encode(), ok),
        (json.dumps(longer).encode(), {413, 422}),
        (json.dumps(wide).encode(), {422, 503}),
        (deep, {400, 413, 503}),
    ]


async def upload_while_asking_health(base: str, rounds: int) -> list[int]:
    uploads = worst_uploads()
    statuses: list[int] = []
    done = asyncio.Event()

    async def health(http: httpx.AsyncClient) -> None:
        while not done.is_set():
            r = await http.get("/healthz")
            assert r.status_code == 200
            await asyncio.sleep(0.01)

    async def upload(http: httpx.AsyncClient, body: bytes, allowed: set[int]) -> None:
        r = await http.post(
            "/api/replay", content=body, headers={"content-type": "application/json"}
        )
        assert r.status_code in allowed, (r.status_code, r.text[:200])
        statuses.append(r.status_code)

    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        pinging = asyncio.create_task(health(http))
        for _ in range(rounds):
            await asyncio.gather(*(upload(http, body, ok) for body, ok in uploads))
        done.set()
        await pinging
    return statuses


def test_the_worst_uploads_never_hold_the_event_loop(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = ServerProcess(f"sqlite:///{tmp_path / 'coup.db'}", log=log).start()
    try:
        statuses = asyncio.run(upload_while_asking_health(server.base, rounds=4))
    finally:
        server.stop()
    text = log.read_text(errors="replace")
    assert 200 in statuses
    assert HELD not in text, text[-3000:]
    assert "Traceback" not in text, text[-3000:]
