"""`coup worker`: take bot decisions and coach analyses from the Redis queue, for every
server process on that Redis (`coup/work/worker.py`); start as many as the load needs, on
any machine (docs/deploy.md)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="coup worker", description="Take the bots' and the coach's work from Redis."
    )
    p.add_argument(
        "--bus",
        default=os.environ.get("COUP_BUS", ""),
        help="redis://HOST:PORT/DB, the servers' bus (env COUP_BUS)",
    )
    p.add_argument(
        "--db",
        default=os.environ.get("COUP_DB", ""),
        help="accepted for symmetry with coup serve; a worker needs no database (its jobs "
        "carry what they need)",
    )
    p.add_argument(
        "--processes",
        type=int,
        default=None,
        help="bot processes (one per core but one; each takes one decision at a time)",
    )
    p.add_argument("--coach", type=int, default=1, help="coach processes, at nice 19 (1)")
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if not args.bus.startswith(("redis://", "rediss://", "unix://")):
        print("coup worker: --bus must be a redis:// URL (the servers' bus)", file=sys.stderr)
        return 2
    if args.processes is not None and args.processes < 1:
        print("coup worker: --processes must be at least 1", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")
    from coup.work.worker import Worker

    worker = Worker(args.bus, args.processes, args.coach)

    async def run() -> None:
        task = asyncio.create_task(worker.run())
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, task.cancel)
        with contextlib.suppress(asyncio.CancelledError):
            await task

    from coup.store.urls import shown

    print(f"coup worker: taking work from {shown(args.bus)}", flush=True)
    asyncio.run(run())
    return 0
