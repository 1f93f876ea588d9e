"""Replays are made in a child process (`replay_worker.py`) within bounds
(`replay_job.py`): a record over the bounds is refused before any replay, a replay too
slow is stopped and answered `busy`, too many waiting are answered `busy`, and the child
goes away with the server, even after a kill -9."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from coup.review.frames import replay_frames
from coup.server import replay_job
from coup.server.protocol import ProtocolError
from coup.server.replay_worker import ReplayWorker
from tools.load.long_games import WIDE_NAME, long_record

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"


def golden() -> dict[str, object]:
    return json.loads((GOLDEN / "story-bluffs.json").read_text())  # type: ignore[no-any-return]


def refusal(raw: bytes) -> tuple[int, str]:
    try:
        replay_job.uploaded(raw)
    except ProtocolError as e:
        return e.status, e.code
    raise AssertionError("not refused")


def test_a_record_over_the_bounds_is_refused_before_it_is_replayed() -> None:
    longest = long_record(replay_job.MAX_REPLAY_MOVES, 10, names=[WIDE_NAME] * 10)
    answer = replay_job.uploaded(orjson.dumps(longest))
    assert len(answer) <= replay_job.MAX_REPLAY_BYTES
    assert orjson.loads(answer) == {**replay_frames(longest), "verified": None}
    longer = long_record(replay_job.MAX_REPLAY_MOVES + 1)
    assert refusal(orjson.dumps(longer)) == (422, "too_long")
    wide = {**golden(), "players": ["Mahshid", "x" * 25, "Bahareh"]}
    assert refusal(orjson.dumps(wide)) == (422, "bad_record")
    with pytest.raises(ProtocolError) as refused:
        replay_job.finished(longer, "t", 1)
    assert refused.value.code == "too_long"


def test_replays_run_in_the_child_and_a_slow_one_is_stopped() -> None:
    async def run() -> None:
        worker = ReplayWorker()
        try:
            answer = orjson.loads(await worker.uploaded(orjson.dumps(golden())))
            assert answer == {**replay_frames(golden()), "verified": None}
            first = worker.pid
            assert first is not None and first != os.getpid()
            with pytest.raises(ProtocolError) as refused:
                await worker.uploaded(b"[1]")
            assert refused.value.code == "bad_json" and worker.pid == first
            worker.seconds = 0.001  # a long replay now "too slow": the child is stopped
            with pytest.raises(ProtocolError) as refused:
                await worker.uploaded(orjson.dumps(long_record(replay_job.MAX_REPLAY_MOVES, 10)))
            assert (refused.value.status, refused.value.code) == (503, "busy")
            assert worker.pid is None and not running(first)
            worker.seconds = 30.0
            again = orjson.loads(await worker.uploaded(orjson.dumps(golden())))
            assert again["verified"] is None and worker.pid not in (None, first)
        finally:
            await worker.stop()

    asyncio.run(run())


def test_too_many_replays_waiting_are_busy() -> None:
    async def run() -> list[object]:
        worker = ReplayWorker(waiting=2)
        raw = orjson.dumps(long_record(replay_job.MAX_REPLAY_MOVES, 6))
        try:
            return await asyncio.gather(
                *(worker.uploaded(raw) for _ in range(4)), return_exceptions=True
            )
        finally:
            await worker.stop()

    answers = asyncio.run(run())
    busy = [a for a in answers if isinstance(a, ProtocolError)]
    assert len(busy) == 2 and all(e.code == "busy" for e in busy)


CHILD = """
import asyncio, sys
from coup.server.replay_worker import ReplayWorker
async def main():
    worker = ReplayWorker()
    await worker.uploaded(sys.stdin.buffer.read())
    print(worker.pid, flush=True)
    await asyncio.sleep(60)
asyncio.run(main())
"""


def running(pid: int) -> bool:
    """Whether `pid` runs (an exited child not yet reaped by whoever adopted it does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def test_the_child_goes_away_with_a_killed_server() -> None:
    server = subprocess.Popen([sys.executable, "-c", CHILD], cwd=ROOT,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE)  # fmt: skip
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(orjson.dumps(golden()))
    server.stdin.close()
    child = int(server.stdout.readline())
    assert running(child)
    server.send_signal(signal.SIGKILL)
    server.wait()
    for _ in range(200):  # its pipe closed: it exits
        if not running(child):
            return
        time.sleep(0.05)
    raise AssertionError(f"the replay child {child} outlived its server")
