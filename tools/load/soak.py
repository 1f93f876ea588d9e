"""`coup loadtest --soak`: the load test, watched over time, then a durability check.

During the run the servers' memory (RSS, summed over the processes) is sampled; the
report gives it at a quarter of the run and at the end, and the growth per minute over
the second half (flat memory means no leak). At the end every server process is killed
with SIGKILL and started again, and a spectator opens every table: each must show at
least the game and the position any of its players was shown before the kill (no lost
move). Errors other than `stale` (a racing move, expected) count as errors.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import websockets

from tools.load import procstat
from tools.load.measure import measure


async def _shown_after_restart(urls: list[str], table: str, i: int) -> tuple[int, int] | None:
    url = urls[i % len(urls)].replace("http://", "ws://") + f"/ws/{table}"
    async with websockets.connect(url, max_size=2**22, open_timeout=30) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
    if msg.get("type") != "view":
        return None
    game = msg["game"]
    return int(msg["table"]["game"]), 0 if game is None else len(game["history"])


async def _check(urls: list[str], shown: dict[str, tuple[int, int]]) -> list[str]:
    limit = asyncio.Semaphore(50)
    lost: list[str] = []

    async def one(i: int, table: str, before: tuple[int, int]) -> None:
        async with limit:
            try:
                after = await _shown_after_restart(urls, table, i)
            except (OSError, TimeoutError, websockets.WebSocketException) as exc:
                lost.append(f"{table}: {exc!r}")
                return
            if after is None or tuple(after) < tuple(before):
                lost.append(f"{table}: shown {before} before the kill, {after} after")

    await asyncio.gather(*(one(i, t, b) for i, (t, b) in enumerate(shown.items())))
    return lost


def main(args: Any, urls: list[str], fleet: Any) -> int:
    samples: list[tuple[float, int]] = []
    pids = fleet.pids if fleet is not None else ([args.pid] if args.pid else [])
    last = [-1e9]

    def watch(elapsed: float, _stats: Any) -> None:
        if elapsed - last[0] >= 10:
            last[0] = elapsed
            samples.append((elapsed, procstat.rss_total(pids)))

    report = asyncio.run(measure(args, urls, pids, watch=watch))
    shown: dict[str, tuple[int, int]] = report.pop("_shown")
    quarter = next((kib for t, kib in samples if t >= args.seconds / 4), 0)
    half = [(t, kib) for t, kib in samples if t >= args.seconds / 2]
    slope = 0.0
    if len(half) >= 2:
        (t0, k0), (t1, k1) = half[0], half[-1]
        slope = (k1 - k0) / 1024 / max(1e-9, (t1 - t0) / 60)
    report["rss_mib_samples"] = [(round(t), round(k / 1024, 1)) for t, k in samples]
    report["rss_mib_quarter"] = round(quarter / 1024, 1)
    report["rss_mib_end"] = round(samples[-1][1] / 1024, 1) if samples else 0
    report["rss_growth_mib_per_min_second_half"] = round(slope, 2)
    errors = {k: v for k, v in report["errors"].items() if k != "stale"}
    report["errors_other_than_stale"] = errors
    lost: list[str] = []
    if fleet is not None:
        fleet.kill_all()
        lost = asyncio.run(_check(fleet.urls, shown))
        report["server_log_problems"] = fleet.problems()[:20]
    report["tables_checked_after_kill"] = len(shown) if fleet is not None else 0
    report["lost"] = lost[:20]
    report["lost_count"] = len(lost)
    if args.json:
        print(json.dumps(report))
    else:
        lat = report["move_to_all_views_ms"]
        print(
            f"soak: {report['tables']} tables x {report['players']} seats on "
            f"{report['servers']} process(es), {report['seconds']} s: {report['moves']} moves "
            f"({report['moves_per_s']}/s), {report['games_finished']} games finished; "
            f"p50 {lat['p50']} ms, p99 {lat['p99']} ms\n"
            f"memory (RSS, MiB): {report['rss_mib_quarter']} at a quarter, "
            f"{report['rss_mib_end']} at the end, "
            f"{report['rss_growth_mib_per_min_second_half']} MiB/min over the second half\n"
            f"errors: {errors or 'none'} (stale: {report['errors'].get('stale', 0)}); "
            f"seats failed: {report['seats_failed']}\n"
            f"after kill -9 and restart: {report['tables_checked_after_kill']} tables "
            f"checked, {len(lost)} lost a move {lost[:3] if lost else ''}\n"
            f"load average {report['load_average']} on {os.cpu_count()} cores"
        )
    return 1 if lost or errors or report["seats_failed"] else 0
