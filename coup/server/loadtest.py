"""`coup loadtest`: load a server with tables of random players over loopback websockets.

Every seat of every table is a websocket client that plays a random legal move after a
think time. For each move it measures the time from sending it to the moment the last
seat of that table has a view showing it ("move to all views"). It reports moves/s,
p50/p99 of that latency, errors, and the server's resident memory (RSS).

By default it starts its own `coup serve` on a free port with a fresh SQLite file, and
stops it at the end; `--url` points it at a running server instead.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    games: int = 0

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


class TableLoad:
    """One table: its seats' connections and the moves still waiting to be seen by all."""

    def __init__(self, seats: int, stats: Stats) -> None:
        self.seats = seats
        self.stats = stats
        self.pending: list[tuple[int, float, set[int]]] = []  # (history len, sent at, seen by)

    def sent(self, position: int) -> None:
        self.pending.append((position, time.perf_counter(), set()))

    def seen(self, seat: int, position: int) -> None:
        now = time.perf_counter()
        keep = []
        for pos, at, who in self.pending:
            if position > pos:
                who.add(seat)
            if len(who) >= self.seats:
                self.stats.latencies.append(now - at)
                self.stats.moves += 1
            else:
                keep.append((pos, at, who))
        self.pending = keep


@dataclass
class Clock:
    """Every seat connects first; then `go` is set and the measured run begins."""

    go: asyncio.Event = field(default_factory=asyncio.Event)
    until: float = 0.0
    ready: int = 0
    connecting: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(50))


async def seat_loop(
    url: str,
    table_id: str,
    token: str,
    seat: int,
    load: TableLoad,
    clock: Clock,
    *,
    think: float,
    rng: random.Random,
) -> None:
    stats = load.stats
    async with clock.connecting:
        ws = await websockets.connect(f"{url}/ws/{table_id}", max_size=2**22)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.recv()  # the first view
    clock.ready += 1
    await clock.go.wait()
    if seat == 0:
        await ws.send(json.dumps({"type": "start"}))
    acted_on: tuple[int, int] | None = None
    latest: dict[str, Any] | None = None
    act: asyncio.Task[None] | None = None

    async def act_later(view: dict[str, Any]) -> None:
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        now_view = latest or view
        game = now_view["game"]
        if game is None or game["over"] or not game["legal"]:
            return
        load.sent(len(game["history"]))
        message = {"move": rng.choice(game["legal"]), "version": now_view["version"]}
        await ws.send(json.dumps({"type": "move", **message}))

    try:
        while time.monotonic() < clock.until:
            try:
                frame = await asyncio.wait_for(ws.recv(), max(0.1, clock.until - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(frame)
            if msg["type"] == "error":
                stats.error(msg["code"])
                acted_on = None
                continue
            if msg["type"] != "view":
                continue
            if latest is not None and msg["version"] < latest["version"]:
                continue
            latest = msg
            game = msg["game"]
            if game is None:
                continue
            load.seen(seat, len(game["history"]))
            if game["over"]:
                if seat == 0 and msg["table"]["status"] == "over":
                    stats.games += 1
                    await asyncio.sleep(think)
                    await ws.send(json.dumps({"type": "rematch"}))
                continue
            key = (msg["table"]["game"], len(game["history"]))
            if game["legal"] and key != acted_on and (act is None or act.done()):
                acted_on = key
                act = asyncio.create_task(act_later(msg))
    finally:
        if act is not None:
            act.cancel()
        await ws.close()


async def prepare_table(http: httpx.AsyncClient, players: int) -> tuple[str, list[str]]:
    """Create a table and fill its seats over HTTP; returns (table id, seat tokens)."""
    r = await http.post("/api/tables", json={"name": "P0", "settings": {"seats": players}})
    r.raise_for_status()
    made = r.json()
    tokens = [made["token"]]
    for seat in range(1, players):
        j = await http.post(f"/api/tables/{made['table']}/seats", json={"name": f"P{seat}"})
        j.raise_for_status()
        tokens.append(j.json()["token"])
    return made["table"], tokens


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def start_server() -> tuple[subprocess.Popen[bytes], str]:
    """A fresh `coup serve` on a free port with its own SQLite file."""
    port = _free_port()
    db = Path(tempfile.mkdtemp(prefix="coup-loadtest-")) / "coup.db"
    cmd = [sys.executable, "-m", "coup", "serve", "--port", str(port), "--db",
           f"sqlite:///{db}", "--http-rate", "0", "--bot-delay", "0"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return proc, f"http://127.0.0.1:{port}"


async def run(args: argparse.Namespace, url: str, pid: int | None) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get("/healthz")).status_code == 200:
                    break
            await asyncio.sleep(0.1)
        rss_before = rss_kib(pid) if pid else 0
        ws_url = url.replace("http://", "ws://").replace("https://", "wss://")
        stats = Stats()
        limit = asyncio.Semaphore(20)

        async def prepare() -> tuple[str, list[str]]:
            async with limit:
                return await prepare_table(http, args.players)

        prepared = await asyncio.gather(*(prepare() for _ in range(args.tables)))
        clock = Clock()
        tasks = []
        for table_id, tokens in prepared:
            load = TableLoad(args.players, stats)
            rng = random.Random()
            for seat, token in enumerate(tokens):
                loop = seat_loop(
                    ws_url, table_id, token, seat, load, clock, think=args.think, rng=rng
                )
                tasks.append(asyncio.create_task(loop))
        while clock.ready < len(tasks):
            if any(task.done() for task in tasks):
                break
            await asyncio.sleep(0.05)
        rss_connected = rss_kib(pid) if pid else 0
        started = time.monotonic()
        clock.until = started + args.seconds
        cpu_before = cpu_seconds(pid) if pid else 0.0
        own_before = time.process_time()
        clock.go.set()
        peak = 0
        while time.monotonic() < clock.until:
            await asyncio.sleep(0.5)
            peak = max(peak, rss_kib(pid) if pid else 0)
        results = await asyncio.gather(*tasks, return_exceptions=True)
        failed = [r for r in results if isinstance(r, BaseException)]
        elapsed = time.monotonic() - started
        server_cpu = (cpu_seconds(pid) - cpu_before) if pid else 0.0
        own_cpu = time.process_time() - own_before
    lat = stats.latencies
    return {
        "tables": args.tables,
        "players": args.players,
        "seconds": round(elapsed, 1),
        "moves": stats.moves,
        "moves_per_s": round(stats.moves / elapsed, 1),
        "games_finished": stats.games,
        "move_to_all_views_ms": {
            "p50": round(1000 * _percentile(lat, 0.5), 2),
            "p99": round(1000 * _percentile(lat, 0.99), 2),
        },
        "errors": stats.errors,
        "seats_failed": len(failed),
        "server_rss_mib": {
            "before": round(rss_before / 1024, 1),
            "connected": round(rss_connected / 1024, 1),
            "peak": round(peak / 1024, 1),
        },
        "server_cpu_percent": round(100 * server_cpu / elapsed, 1),
        "loadtest_cpu_percent": round(100 * own_cpu / elapsed, 1),
        "load_average": round(os.getloadavg()[0], 2),
        "rss_per_table_kib": round((peak - rss_before) / max(1, args.tables), 1),
    }


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="coup loadtest", description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=10, help="concurrent tables (10, at most 2000)")
    p.add_argument("--players", type=int, default=4, help="seats per table (4)")
    p.add_argument("--seconds", type=float, default=20.0, help="how long to run (20, max 600)")
    p.add_argument("--think", type=float, default=1.0, help="mean think time per move, s (1.0)")
    p.add_argument("--url", default=None, help="a running server (default: start one)")
    p.add_argument("--pid", type=int, default=None, help="the running server's pid, for RSS")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if not 1 <= args.tables <= 2000 or not 2 <= args.players <= 10:
        print("coup loadtest: --tables 1-2000, --players 2-10", file=sys.stderr)
        return 2
    if not 1 <= args.seconds <= 600:
        print("coup loadtest: --seconds 1-600", file=sys.stderr)
        return 2
    proc = None
    url, pid = args.url, args.pid
    if url is None:
        proc, url = start_server()
        pid = proc.pid
    try:
        report = asyncio.run(run(args, url, pid))
    finally:
        if proc is not None:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(10)
    if args.json:
        print(json.dumps(report))
    else:
        lat = report["move_to_all_views_ms"]
        print(
            f"{report['tables']} tables x {report['players']} seats, {report['seconds']} s: "
            f"{report['moves']} moves ({report['moves_per_s']}/s), "
            f"{report['games_finished']} games finished\n"
            f"move -> every seat's view: p50 {lat['p50']} ms, p99 {lat['p99']} ms\n"
            f"errors: {report['errors'] or 'none'}; seats failed: {report['seats_failed']}\n"
            f"server RSS: {report['server_rss_mib']['before']} MiB before, "
            f"{report['server_rss_mib']['connected']} MiB with every seat connected, "
            f"{report['server_rss_mib']['peak']} MiB peak "
            f"(~{report['rss_per_table_kib']} KiB per table)\n"
            f"CPU: server {report['server_cpu_percent']}%, load tester "
            f"{report['loadtest_cpu_percent']}% of one core; load average "
            f"{report['load_average']} on {os.cpu_count()} cores"
        )
    return 0 if report["seats_failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
