"""A worker process's own side: take a job from the pipe, run it, send the answer back.

A worker never outlives the process that started it: it reads its jobs from a pipe whose
other end only that parent holds (the pool starts workers by *spawning*, so no other
process inherits it), and when the parent dies, however (`kill -9` included), the kernel
closes that end and the worker's next read ends it. A watcher thread also compares
`os.getppid()` with the parent's pid every second, for a worker busy with a long step.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from coup.work import jobs

#: What a worker may be asked to run, by name.
TASKS: dict[str, Callable[..., Any]] = {"decide": jobs.decide, "plan": jobs.plan, "note": jobs.note}
#: The number of the message a worker sends once it is ready for jobs.
READY = -1
#: Seconds between looks at the parent's pid.
WATCH = 1.0


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(WATCH)
        if os.getppid() != parent:
            os._exit(0)  # the parent died: our answers have nobody to go to


def ignore_stop_signals() -> None:
    """SIGTERM and SIGINT are the parent's to act on: a signal to the whole process group
    (systemd's stop, a terminal's Ctrl-C) stops the parent, which then ends its workers
    in order, instead of killing them mid-job (docs/deploy.md)."""
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(ValueError, OSError):
            signal.signal(sig, signal.SIG_IGN)


def main(conn: Connection, nice: int, parent: int) -> None:
    """The worker's loop (the target of the pool's `multiprocessing` process)."""
    ignore_stop_signals()
    with contextlib.suppress(OSError, AttributeError):
        os.nice(nice)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    jobs.warm()
    try:
        conn.send((READY, True, None))
    except (OSError, ValueError):
        return  # the parent died while this worker started
    while True:
        try:
            number, task, args = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return  # the parent closed the pipe (or died)
        try:
            out: tuple[int, bool, Any] = (number, True, TASKS[task](*args))
        except Exception as exc:  # noqa: BLE001 - the parent decides what a failure means
            out = (number, False, f"{type(exc).__name__}: {exc}")
        try:
            conn.send(out)
        except (OSError, ValueError):
            return
