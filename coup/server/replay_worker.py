"""The replay process: replays for the viewer (`replay_job.py`) made in a child process of
the server, so that the event loop never computes one.

- One child, started on the first replay (spawned: a fresh interpreter, nothing of the
  server's state) at a lower CPU priority, so live tables go first; one replay at a time.
- At most `REPLAY_WAITING` replays wait or run; one more is refused with `503 busy`.
- A replay that takes over `REPLAY_SECONDS` is refused with `503 busy` and its child
  killed (the next replay starts a new one). Within the record's bounds a replay takes a
  small fraction of that.
- The child reads its work from a pipe: when the server goes away, even by `kill -9`, the
  pipe closes and the child exits.

The event loop only hands the bytes over and takes the answer's bytes back (in a thread,
as both wait on the pipe).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from coup.server import replay_job
from coup.server.protocol import ProtocolError
from coup.work.child import ignore_stop_signals

log = logging.getLogger("coup.server")

#: Seconds a replay may take in the child before it is killed and `503 busy` answered.
REPLAY_SECONDS = 10.0
#: Replays waiting for the child or running; one more is answered `503 busy`.
REPLAY_WAITING = 8
#: The child's CPU priority, above this process's (`nice`): live tables go first.
NICE = 10

JOBS: dict[str, Callable[..., bytes]] = {
    "uploaded": replay_job.uploaded,
    "finished": replay_job.finished,
}


def _child(conn: Connection) -> None:
    """The child's loop: a job from the pipe, its answer back; the end when the pipe closes."""
    ignore_stop_signals()  # the server stops it (`shutdown.py`)
    with contextlib.suppress(OSError):
        os.nice(NICE)
    while True:
        try:
            name, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[Any, ...] = ("ok", JOBS[name](*args))
        except ProtocolError as e:
            answer = ("refused", e.code, e.message, e.status)
        except Exception:
            log.exception("a replay failed")
            answer = ("refused", "internal", "the server failed to replay this game", 500)
        try:
            conn.send(answer)
        except OSError:
            return


def _busy() -> ProtocolError:
    return ProtocolError("busy", "the server is busy with other replays; try again soon", 503)


class ReplayWorker:
    def __init__(self, seconds: float = REPLAY_SECONDS, waiting: int = REPLAY_WAITING) -> None:
        self.seconds = seconds
        self.waiting = waiting
        self._queued = 0
        self._turn = asyncio.Lock()
        self._process: BaseProcess | None = None
        self._conn: Connection | None = None

    @property
    def pid(self) -> int | None:
        """The child's process id, None while there is none."""
        return None if self._process is None else self._process.pid

    async def uploaded(self, raw: bytes) -> bytes:
        """An uploaded record's replay (`replay_job.uploaded`)."""
        return await self._run("uploaded", raw)

    async def finished(self, record: dict[str, Any], table: str, game: int) -> bytes:
        """A finished game's replay (`replay_job.finished`)."""
        return await self._run("finished", record, table, game)

    async def stop(self) -> None:
        await asyncio.to_thread(self._kill)

    async def _run(self, name: str, *args: Any) -> bytes:
        if self._queued >= self.waiting:
            raise _busy()
        self._queued += 1
        try:
            async with self._turn:
                answer = await self._ask((name, args))
        finally:
            self._queued -= 1
        if answer[0] == "ok":
            return bytes(answer[1])
        _, code, message, status = answer
        raise ProtocolError(code, message, status)

    async def _ask(self, job: tuple[str, tuple[Any, ...]]) -> tuple[Any, ...]:
        """The child's answer to `job`; a child that is too slow or died is killed."""
        try:
            conn = await asyncio.to_thread(self._started)
            await asyncio.to_thread(conn.send, job)
            if not await asyncio.to_thread(conn.poll, self.seconds):
                log.warning("a replay took over %.0f s: its process was stopped", self.seconds)
                raise _busy()
            answer: tuple[Any, ...] = await asyncio.to_thread(conn.recv)
            return answer
        except (EOFError, OSError):  # the child died (killed from outside?)
            await asyncio.to_thread(self._kill)
            log.warning("the replay process went away; the next replay starts another")
            raise _busy() from None
        except BaseException:  # too slow, or this request was cancelled meanwhile: the
            await asyncio.to_thread(self._kill)  # child's state is unknown, start anew
            raise

    def _started(self) -> Connection:
        if self._conn is None or self._process is None or not self._process.is_alive():
            self._kill()
            ours, theirs = multiprocessing.get_context("spawn").Pipe()
            process = multiprocessing.get_context("spawn").Process(
                target=_child, args=(theirs,), name="coup-replay", daemon=True
            )
            process.start()
            theirs.close()  # only the child holds its end: its death closes our end
            self._process, self._conn = process, ours
        return self._conn

    def _kill(self) -> None:
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if conn is not None:
            conn.close()
        if process is not None:
            with contextlib.suppress(Exception):
                process.kill()
                process.join(5)
