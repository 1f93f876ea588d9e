"""`coup loadtest`: load a server with tables of random players over loopback websockets.

Every seat of every table is a websocket client that plays a random legal move after a
think time. For each move it measures the time from sending it to the moment the last
seat of that table has a view showing it ("move to all views"). It reports moves/s,
p50/p99 of that latency, errors, and the server's resident memory (RSS).

By default it starts its own `coup serve` on a free port with a fresh SQLite file, and
stops it at the end; `--db postgresql://... --bus redis://... --servers N` starts N
processes on a fresh PostgreSQL database instead (a table's seats spread over them);
`--url` points it at a running server on this machine. `--fuzz N` sends N bad messages
instead (tools/load/fuzz.py); `--soak` also checks memory over time and, at the end,
that a kill -9 of every process loses no move (tools/load/soak.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

import httpx

from tools.load.measure import measure


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="coup loadtest", description=__doc__.split("\n\n")[0])
    p.add_argument(
        "--tables", type=int, default=10, help="concurrent people-only tables (10, 0-2000)"
    )
    p.add_argument(
        "--bot-tables", type=int, default=0, help="tables of one person and bots (0, 0-500)"
    )
    p.add_argument("--bot-level", choices=["easy", "medium", "hard"], default="hard")
    p.add_argument("--bots", type=int, default=5, help="bots at each bot table (5, 1-9)")
    p.add_argument(
        "--bot-delay",
        default=None,
        help="the servers' --bot-delay (0 without bot tables; the server's default with them)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="with Redis: coup worker processes (one bot process each); else the server's "
        "--workers (its local pool)",
    )
    p.add_argument(
        "--worker-cpu",
        type=float,
        default=0.0,
        metavar="CORES",
        help="cap each coup worker at CORES of CPU with a cgroup (root on Linux)",
    )
    p.add_argument("--players", type=int, default=4, help="seats per table (4)")
    p.add_argument("--seconds", type=float, default=20.0, help="how long to run (20, max 600)")
    p.add_argument("--think", type=float, default=1.0, help="mean think time per move, s (1.0)")
    p.add_argument("--url", default=None, help="a running server on this machine")
    p.add_argument("--pid", type=int, default=None, help="the running server's pid, for RSS")
    p.add_argument(
        "--db",
        default="sqlite",
        help="sqlite (a fresh file, one process) or postgresql://USER@127.0.0.1/DB: a fresh "
        "database is made next to DB and dropped at the end",
    )
    p.add_argument("--bus", default="memory://", help="memory:// or redis://127.0.0.1:6379/0")
    p.add_argument("--servers", type=int, default=1, help="server processes (1; max 8)")
    p.add_argument(
        "--spread",
        choices=["seat", "table"],
        default="seat",
        help="seat: a table's seats on different processes (the default, the hard case); "
        "table: all of a table's seats on one process, as a load balancer routing "
        "/ws/<table> by hash does",
    )
    p.add_argument(
        "--server-cpu",
        type=float,
        default=0.0,
        metavar="CORES",
        help="cap each server process at CORES of CPU with a cgroup (root on Linux), so "
        "that a second process brings its own share, as on its own machine",
    )
    p.add_argument(
        "--ws-compression",
        action="store_true",
        help="start the servers with permessage-deflate (their --ws-compression)",
    )
    p.add_argument(
        "--no-ws-compression",
        action="store_true",
        help="start the servers with --no-ws-compression (an older server's way to turn "
        "deflate off)",
    )
    p.add_argument(
        "--server-checkout",
        type=Path,
        default=None,
        metavar="DIR",
        help="run the servers from another checkout (with its .venv if it has one)",
    )
    p.add_argument(
        "--against",
        type=Path,
        default=None,
        metavar="DIR",
        help="side by side: rounds of this checkout's servers and DIR's, taking turns, "
        "then the medians (tools/load/versus.py)",
    )
    p.add_argument("--rounds", type=int, default=3, help="with --against: rounds (3, 1-20)")
    p.add_argument("--fuzz", type=int, default=0, help="send N bad messages instead (max 200000)")
    p.add_argument(
        "--soak", action="store_true", help="sample memory; at the end kill -9 and check no move"
    )
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    return p


def main(argv: list[str]) -> int:
    from tools.load.fleet import loopback

    args = parser().parse_args(argv)
    if not 0 <= args.tables <= 2000 or not 2 <= args.players <= 10:
        print("coup loadtest: --tables 0-2000, --players 2-10", file=sys.stderr)
        return 2
    if not 0 <= args.bot_tables <= 500 or not 1 <= args.bots <= 9:
        print("coup loadtest: --bot-tables 0-500, --bots 1-9", file=sys.stderr)
        return 2
    if args.tables + args.bot_tables == 0:
        print("coup loadtest: no tables (--tables or --bot-tables)", file=sys.stderr)
        return 2
    if not 1 <= args.seconds <= 600:
        print("coup loadtest: --seconds 1-600", file=sys.stderr)
        return 2
    if not 1 <= args.servers <= 8 or not 0 <= args.fuzz <= 200_000:
        print("coup loadtest: --servers 1-8, --fuzz 0-200000", file=sys.stderr)
        return 2
    if not 0 <= args.server_cpu <= 64 or (args.server_cpu and args.url is not None):
        print("coup loadtest: --server-cpu 0-64, only for servers it starts", file=sys.stderr)
        return 2
    if args.url is not None and not loopback(args.url):
        print("coup loadtest: --url must be on this machine (loopback)", file=sys.stderr)
        return 2
    if args.against is not None or args.server_checkout is not None:
        if args.url is not None or args.fuzz or args.soak:
            print("coup loadtest: --against and --server-checkout start their own servers",
                  file=sys.stderr)  # fmt: skip
            return 2
        for tree in (args.against, args.server_checkout):
            if tree is not None and not (tree / "coup" / "__main__.py").exists():
                print(f"coup loadtest: {tree} is not a checkout of coup", file=sys.stderr)
                return 2
    if args.against is not None:
        if not 1 <= args.rounds <= 20:
            print("coup loadtest: --rounds 1-20", file=sys.stderr)
            return 2
        from tools.load import versus

        return versus.main(args)
    fleet = None
    if args.url is None:
        from tools.load.fleet import start_fleet

        fleet = start_fleet(args)
        if fleet is None:
            return 2
        urls, pids = fleet.urls, fleet.pids
    else:
        urls, pids = [args.url], [args.pid] if args.pid else []
    try:
        if args.fuzz:
            from tools.load import fuzz

            return fuzz.main(args, urls, fleet)
        if args.soak:
            from tools.load import soak

            return soak.main(args, urls, fleet)
        report = asyncio.run(measure(args, urls, pids))
    except httpx.HTTPStatusError as exc:
        print(f"coup loadtest: {refused(exc)}", file=sys.stderr)
        return 2
    finally:
        if fleet is not None:
            fleet.stop()
    report.pop("_shown", None)
    if args.json:
        print(json.dumps(report))
    else:
        print(text(args, report, pids))
    return 0 if report["seats_failed"] == 0 else 1


def text(args: argparse.Namespace, report: dict[str, Any], pids: Any) -> str:
    """The report for a person (`pids`: the server processes this tool measured, if any)."""
    lat = report["move_to_all_views_ms"]
    where = (
        f"{report['servers']} server process(es)"
        if args.url is None
        else f"the server at {args.url} (not started by this tool)"
    )
    return (
        f"{where}, seats spread by {report['spread']}"
        + (f", each capped at {args.server_cpu} cores" if args.server_cpu else "")
        + "\n"
        f"{report['tables']} tables x {report['players']} seats, {report['seconds']} s: "
        f"{report['moves']} moves ({report['moves_per_s']}/s), "
        f"{report['games_finished']} games finished\n"
        f"move -> every seat's view: p50 {lat['p50']} ms, p99 {lat['p99']} ms\n"
        f"errors: {report['errors'] or 'none'}; seats failed: {report['seats_failed']}\n"
        + (
            f"server RSS: {report['server_rss_mib']['before']} MiB before, "
            f"{report['server_rss_mib']['connected']} MiB with every seat connected, "
            f"{report['server_rss_mib']['peak']} MiB peak "
            f"(~{report['rss_per_table_kib']} KiB per table)\n"
            if pids
            else "server RSS and CPU: not measured (give the server's --pid)\n"
        )
        + (_bots_line(report) if report["bot_tables"] else "")
        + f"/healthz: p50 {report['healthz_ms']['p50']} ms, p99 {report['healthz_ms']['p99']} "
        f"ms, max {report['healthz_ms']['max']} ms\n"
        + (
            f"CPU: server {report['server_cpu_percent']}%"
            + (
                f" ({report['server_cpu_ms_per_move']} ms a move), "
                if report.get("server_cpu_ms_per_move") is not None
                else ", "
            )
            if pids
            else "CPU: "
        )
        + f"load tester "
        f"{report['loadtest_cpu_percent']}%, PostgreSQL "
        f"{report['services_cpu_percent']['postgres']}%, Redis "
        f"{report['services_cpu_percent']['redis']}% (of one core); load average "
        f"{report['load_average']} on {os.cpu_count()} cores"
    )


def refused(exc: httpx.HTTPStatusError) -> str:
    """One line for a server's refusal (no traceback): a 429 is its limits per address."""
    status = exc.response.status_code
    try:
        code = exc.response.json()["error"]["code"]
    except (ValueError, KeyError, TypeError):
        code = exc.response.reason_phrase
    line = f"the server answered {status} {code} to {exc.request.method} {exc.request.url.path}"
    if status == 429:
        line += (
            ": it limits each address (a burst of 60 POSTs, then 2 a second); start the "
            "server with --no-address-limits for a load test, or let coup loadtest start its own"
        )
    return line


def _bots_line(report: dict[str, Any]) -> str:
    b = report["bot_tables"]
    w = b["workers"]
    return (
        f"{b['tables']} bot tables (1 person + {b['bots']} {b['level']} bots): "
        f"{b['moves']} moves of the people, {b['games_finished']} games finished; a person's "
        f"move -> view: p50 {b['person_move_to_view_ms']['p50']} ms, p99 "
        f"{b['person_move_to_view_ms']['p99']} ms\n"
        f"workers: {w['decisions']} decisions ({w['decisions_per_s']}/s; searched: "
        f"{w['full_budgets_per_s']} full hard budgets/s), {w['reduced']} with a smaller budget, {w['answered_by_server']} answered by the server "
        f"({w['late']} late); {w['workers']} worker processes\n"
    )


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
