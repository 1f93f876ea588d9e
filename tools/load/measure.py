"""The load itself, measured: tables of random players on the servers for a while.

`measure()` makes the tables, seats a websocket player at every seat (`players`), lets them
play for ``args.seconds`` and reports moves/s, the time from a move to the last of its
table's views showing it (p50, p99), errors, and the servers' memory and CPU (`procstat`).
`coup loadtest` (loadtest.py) prints it; the soak (soak.py) watches it over time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import time
from typing import Any

import httpx

from tools.load.bot_tables import HealthProbe, counters, prepare_bot_table, worked
from tools.load.players import Clock, Stats, TableLoad, prepare_table, seat_loop
from tools.load.procstat import cpu_seconds, rss_total, services_cpu


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(
    args: argparse.Namespace,
    urls: list[str],
    pids: list[int],
    watch: Any = None,
) -> dict[str, Any]:
    """The load on `urls` (seats of one table spread over them); `watch(elapsed, stats)`
    is called every half second during the measured run (the soak samples memory)."""
    url = urls[0]
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if (await http.get("/healthz")).status_code == 200:
                    break
            await asyncio.sleep(0.1)
        rss_before = rss_total(pids)
        ws_urls = [u.replace("http://", "ws://").replace("https://", "wss://") for u in urls]
        stats = Stats()
        limit = asyncio.Semaphore(20)

        async def prepare() -> tuple[str, list[str]]:
            async with limit:
                return await prepare_table(http, args.players)

        prepared = await asyncio.gather(*(prepare() for _ in range(args.tables)))
        bot_tables = getattr(args, "bot_tables", 0)

        async def prepare_bots(k: int) -> tuple[str, str]:
            async with limit:
                ws_url = ws_urls[k % len(ws_urls)]
                return await prepare_bot_table(http, ws_url, args.bot_level, args.bots)

        with_bots = await asyncio.gather(*(prepare_bots(k) for k in range(bot_tables)))
        clock = Clock()
        tasks = []
        loads: list[tuple[str, TableLoad]] = []
        for k, (table_id, tokens) in enumerate(prepared):
            load = TableLoad(args.players, stats)
            loads.append((table_id, load))
            rng = random.Random()
            for seat, token in enumerate(tokens):
                spread = seat if args.spread == "seat" else 0
                ws_url = ws_urls[(k + spread) % len(ws_urls)]
                loop = seat_loop(
                    ws_url, table_id, token, seat, load, clock, think=args.think, rng=rng
                )
                tasks.append(asyncio.create_task(loop))
        bot_stats = Stats()
        for k, (table_id, token) in enumerate(with_bots):
            load = TableLoad(1, bot_stats)
            loop = seat_loop(ws_urls[k % len(ws_urls)], table_id, token, 0, load, clock,
                             think=args.think, rng=random.Random())  # fmt: skip
            tasks.append(asyncio.create_task(loop))
        while clock.ready < len(tasks):
            if any(task.done() for task in tasks):
                break
            await asyncio.sleep(0.05)
        rss_connected = rss_total(pids)
        started = time.monotonic()
        clock.until = started + args.seconds
        cpu_before = sum(cpu_seconds(pid) for pid in pids)
        services_before = services_cpu()
        own_before = time.process_time()
        probe = HealthProbe(url)
        probing = asyncio.create_task(probe.run(clock.until))
        workers_before = await counters(urls)
        # The tester's own garbage collector must not show up as server latency: a full
        # collection over thousands of seats' decoded views stalled this loop up to 0.4 s
        # (measured), delaying every view it was about to read. Nothing made during the
        # run lives long, so no collection until it is over.
        gc.collect()
        gc.freeze()
        gc.disable()
        try:
            clock.go.set()
            peak = 0
            while time.monotonic() < clock.until:
                await asyncio.sleep(0.5)
                peak = max(peak, rss_total(pids))
                if watch is not None:
                    watch(time.monotonic() - started, stats)
            results = await asyncio.gather(*tasks, return_exceptions=True)
            await probing
        finally:
            gc.enable()
            gc.unfreeze()
        failed = [r for r in results if isinstance(r, BaseException)]
        elapsed = time.monotonic() - started
        server_cpu = sum(cpu_seconds(pid) for pid in pids) - cpu_before
        own_cpu = time.process_time() - own_before
        services_after = services_cpu()
        workers_after = await counters(urls)
    lat = stats.latencies
    health = probe.times
    return {
        "servers": len(urls),
        "spread": args.spread,
        "server_cpu_cap": args.server_cpu or None,
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
        # the servers' CPU (user + system, from /proc) over the moves counted
        "server_cpu_ms_per_move": round(1000 * server_cpu / stats.moves, 3)
        if stats.moves
        else None,
        "loadtest_cpu_percent": round(100 * own_cpu / elapsed, 1),
        "services_cpu_percent": {
            name: round(100 * (services_after[name] - services_before[name]) / elapsed, 1)
            for name in services_after
        },
        "load_average": round(os.getloadavg()[0], 2),
        "healthz_ms": {
            "p50": round(_percentile(health, 0.5), 1),
            "p99": round(_percentile(health, 0.99), 1),
            "max": round(max(health, default=float("nan")), 1),
            "failed": probe.failed,
        },
        "bot_tables": {
            "tables": bot_tables,
            "level": getattr(args, "bot_level", None),
            "bots": getattr(args, "bots", None),
            "moves": bot_stats.moves,
            "games_finished": bot_stats.games,
            "person_move_to_view_ms": {
                "p50": round(1000 * _percentile(bot_stats.latencies, 0.5), 2),
                "p99": round(1000 * _percentile(bot_stats.latencies, 0.99), 2),
            },
            "workers": worked(workers_before, workers_after, elapsed),
        }
        if bot_tables
        else None,
        "rss_per_table_kib": round((peak - rss_before) / max(1, args.tables), 1),
        "_shown": {table_id: load.last for table_id, load in loads},  # for the soak's check
    }
