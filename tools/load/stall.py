"""`python -m tools.load.stall`: how long `/healthz` waits while the heaviest replay
uploads are answered: the server's event loop held by a request shows here.

It starts its own `coup serve` (a fresh SQLite file) unless `--url` names a running one
on this machine, uploads `--uploads` records of `--moves` moves (a legal two-player game,
`long_games.py`) one after the other, asks `/healthz` every 10 ms meanwhile, and prints
the uploads' answers and the health checks' waits (median, max).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from tools.load.long_games import long_record
from tools.load.process import ServerProcess


async def measure(base: str, moves: int, uploads: int) -> dict[str, Any]:
    body = json.dumps(long_record(moves)).encode()
    waits: list[float] = []
    answers: list[tuple[int, float]] = []
    done = asyncio.Event()

    async def health(http: httpx.AsyncClient) -> None:
        while not done.is_set():
            start = time.perf_counter()
            await http.get("/healthz")
            waits.append(time.perf_counter() - start)
            await asyncio.sleep(0.01)

    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        pinging = asyncio.create_task(health(http))
        await asyncio.sleep(0.2)
        for _ in range(uploads):
            start = time.perf_counter()
            r = await http.post(
                "/api/replay", content=body, headers={"content-type": "application/json"}
            )
            answers.append((r.status_code, time.perf_counter() - start))
        done.set()
        await pinging
    return {
        "record": {"moves": moves, "bytes": len(body)},
        "uploads": [{"status": s, "seconds": round(t, 3)} for s, t in answers],
        "healthz_ms": {
            "checks": len(waits),
            "p50": round(statistics.median(waits) * 1000, 1),
            "max": round(max(waits) * 1000, 1),
        },
    }


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m tools.load.stall", description=__doc__)
    p.add_argument("--url", default=None, help="a running server on this machine")
    p.add_argument("--moves", type=int, default=7800, help="moves of the record (7800)")
    p.add_argument("--uploads", type=int, default=3, help="uploads, one after the other (3)")
    args = p.parse_args(argv)
    server = None
    if args.url is None:
        db = Path(tempfile.mkdtemp(prefix="coup-stall-")) / "coup.db"
        server = ServerProcess(f"sqlite:///{db}").start()
    elif httpx.URL(args.url).host not in ("127.0.0.1", "localhost", "::1"):
        print("stall: only a server on this machine", file=sys.stderr)
        return 2
    try:
        report = asyncio.run(measure(args.url or server.base, args.moves, args.uploads))  # type: ignore[union-attr]
    finally:
        if server is not None:
            server.stop()
    if server is not None:  # the server's own watch of its loop (coup/server/loop_watch.py)
        held = re.findall(r"the event loop was held (\d+) ms", server.log.read_text())
        report["held_over_50ms"] = [int(ms) for ms in held]
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
