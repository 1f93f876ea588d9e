"""`coup loadtest --against DIR`: the same load on two source trees' servers, side by side.

Rounds of two runs, one on this checkout's servers (or `--server-checkout`'s) and one on
DIR's (started with DIR's own `.venv` when it has one, so each side runs its own compiled
core), the order swapped every round; each run starts fresh servers with a fresh
database. The load itself (the players, the timing, the report) is this checkout's for
both sides, so only the servers differ. On a shared machine a single run says little:
the medians over the rounds, with every run's figures and the load average beside them,
are what to read (docs/bench.md).
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import json
import os
import statistics
import sys
from typing import Any

from tools.load.fleet import start_fleet
from tools.load.measure import measure

#: (label, path into the report) of the figures compared
FIGURES: list[tuple[str, tuple[str, ...]]] = [
    ("server CPU, ms a move", ("server_cpu_ms_per_move",)),
    ("move -> every seat, p50 ms", ("move_to_all_views_ms", "p50")),
    ("move -> every seat, p99 ms", ("move_to_all_views_ms", "p99")),
    ("RSS per table, KiB", ("rss_per_table_kib",)),
    ("moves/s", ("moves_per_s",)),
    ("server CPU, % of a core", ("server_cpu_percent",)),
    ("load average", ("load_average",)),
]


def figure(report: dict[str, Any], path: tuple[str, ...]) -> float | None:
    value: Any = report
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return float(value) if isinstance(value, int | float) else None


def median(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return round(statistics.median(known), 3) if known else None


def one_run(args: argparse.Namespace, checkout: Any) -> dict[str, Any]:
    run_args = copy.copy(args)
    run_args.server_checkout = checkout
    fleet = start_fleet(run_args)
    if fleet is None:
        raise RuntimeError("the servers did not start")
    try:
        report = asyncio.run(measure(run_args, fleet.urls, fleet.pids))
    finally:
        fleet.stop()
    report.pop("_shown", None)
    return report


def main(args: argparse.Namespace) -> int:
    sides = {"this": args.server_checkout, "against": args.against}
    runs: dict[str, list[dict[str, Any]]] = {"this": [], "against": []}
    for k in range(args.rounds):
        order = ["against", "this"] if k % 2 == 0 else ["this", "against"]
        for side in order:
            try:
                report = one_run(args, sides[side])
            except (RuntimeError, OSError) as exc:
                print(f"coup loadtest: {side}: {exc}", file=sys.stderr)
                return 2
            runs[side].append(report)
            shown = figure(report, ("server_cpu_ms_per_move",))
            p99 = figure(report, ("move_to_all_views_ms", "p99"))
            print(
                f"round {k + 1}, {side}: {shown} ms CPU a move, p99 {p99} ms, load average "
                f"{report['load_average']}",
                file=sys.stderr,
                flush=True,
            )
    medians = {
        side: {label: median([figure(r, path) for r in reports]) for label, path in FIGURES}
        for side, reports in runs.items()
    }
    failed = sum(r["seats_failed"] for reports in runs.values() for r in reports)
    if args.json:
        print(json.dumps({"against": str(args.against), "medians": medians, "runs": runs}))
    else:
        print(
            f"{args.rounds} rounds of {args.tables} tables x {args.players} seats, think "
            f"{args.think} s, {args.seconds} s a run, on {os.cpu_count()} cores; "
            f"medians (each run's figures):"
        )
        print(f"{'':30} {'against ' + str(args.against):>40} {'this checkout':>40}")
        for label, path in FIGURES:
            cells = []
            for side in ("against", "this"):
                each = ", ".join(str(figure(r, path)) for r in runs[side])
                cells.append(f"{medians[side][label]} ({each})")
            print(f"{label:30} {cells[0]:>40} {cells[1]:>40}")
    return 0 if failed == 0 else 1
