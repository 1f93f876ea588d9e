"""`coup tournament`: many games between bots, seats rotated, ranked with intervals.

    coup tournament --seats search,heuristic,heuristic,heuristic --games 2000 --seed 1
    coup tournament --league --games 200          # the hard bot against every style

Games come in blocks of one deal each: the deal is played once per rotation of the seats
(for two players: each deal from both seats, a duplicate deal), so no bot profits from
a lucky deal or from moving first. Games run in parallel on all cores.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coup.bots import make as make_bot
from coup.bots.arena import GameResult, parse_spec
from coup.cli import league
from coup.cli.series import percentile, pyplot, run_all, schedule, wilson


@dataclass
class Tally:
    """One bot's totals over the tournament (all seats it played)."""

    name: str
    seats: int = 0  # games x seats played by this bot
    wins: int = 0
    places: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


def summarize(
    lineup: list[str], results: list[GameResult], seed: int, settings: dict[str, Any]
) -> dict[str, Any]:
    tallies: dict[str, Tally] = {name: Tally(name) for name in lineup}
    unfinished = 0
    decisions = 0
    for result in results:
        decisions += result.decisions
        if result.winner is None:
            unfinished += 1
        for seat, name in enumerate(result.seats):
            tally = tallies[name]
            tally.seats += 1
            tally.wins += result.winner == seat
            if result.winner is not None:
                tally.places.append(result.places[seat])
            tally.times.extend(result.times[seat])
            tally.cpu.extend(result.cpu[seat])
    players = len(lineup)
    rows: list[dict[str, Any]] = []
    for tally in tallies.values():
        low, high = wilson(tally.wins, tally.seats)
        share = lineup.count(tally.name) / players
        rows.append(
            {
                "bot": tally.name,
                "seats": lineup.count(tally.name),
                "games": tally.seats,
                "wins": tally.wins,
                "win_rate": tally.wins / tally.seats if tally.seats else 0.0,
                "ci95": [low, high],
                "fair_share": 1 / players,
                "team_share": share,
                "avg_place": statistics.fmean(tally.places) if tally.places else None,
                "decisions": len(tally.times),
                "decision_ms": {
                    "mean": 1000 * statistics.fmean(tally.times) if tally.times else 0.0,
                    "p50": 1000 * percentile(tally.times, 0.50),
                    "p95": 1000 * percentile(tally.times, 0.95),
                    "max": 1000 * max(tally.times, default=0.0),
                },
                "decision_cpu_ms": {
                    "mean": 1000 * statistics.fmean(tally.cpu) if tally.cpu else 0.0,
                    "p50": 1000 * percentile(tally.cpu, 0.50),
                    "p95": 1000 * percentile(tally.cpu, 0.95),
                    "max": 1000 * max(tally.cpu, default=0.0),
                },
            }
        )
    rows.sort(key=lambda row: -row["win_rate"])
    return {
        "format": "coup-tournament/1",
        "lineup": lineup,
        "players": players,
        "games": len(results),
        "seed": seed,
        "settings": settings,
        "unfinished": unfinished,
        "decisions": decisions,
        "bots": rows,
    }


def print_table(summary: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    title = (
        f"{summary['games']} games, {summary['players']} players, seed {summary['seed']}"
        f" — lineup {','.join(summary['lineup'])}"
    )
    table = Table(title=title)
    for column in ("bot", "games", "wins", "win rate", "95% interval", "fair share"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for column in ("avg place", "mean ms", "p50 ms", "p95 ms", "p95 cpu"):
        table.add_column(column, justify="right")
    for row in summary["bots"]:
        low, high = row["ci95"]
        place = row["avg_place"]
        times = row["decision_ms"]
        table.add_row(
            row["bot"] + (f" ×{row['seats']}" if row["seats"] > 1 else ""),
            str(row["games"]),
            str(row["wins"]),
            f"{row['win_rate']:.1%}",
            f"{low:.1%} – {high:.1%}",
            f"{row['fair_share']:.1%}",
            "—" if place is None else f"{place:.2f}",
            f"{times['mean']:.1f}",
            f"{times['p50']:.1f}",
            f"{times['p95']:.1f}",
            f"{row['decision_cpu_ms']['p95']:.1f}",
        )
    console = Console()
    if not console.is_terminal:
        console = Console(width=132)
    console.print(table)
    console.print(
        "Decision times are wall-clock per move; p95 cpu is the CPU time of the same"
        " moves (unaffected by other load on the machine).",
        style="dim",
    )
    if summary["unfinished"]:
        console.print(f"[yellow]{summary['unfinished']} games stopped unfinished[/yellow]")


def plot(summary: dict[str, Any], path: str) -> None:
    """Win rates with their 95% intervals, and the fair share, as a PNG."""
    plt = pyplot()
    rows = summary["bots"]
    names = [row["bot"] for row in rows]
    rates = [row["win_rate"] for row in rows]
    low = [row["win_rate"] - row["ci95"][0] for row in rows]
    high = [row["ci95"][1] - row["win_rate"] for row in rows]
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.6 * len(rows)))
    ax.barh(names, rates, xerr=[low, high], color="#5b7db1", capsize=6)
    ax.axvline(1 / summary["players"], color="#c0392b", linestyle="--", label="fair share")
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_xlabel("win rate (95% Wilson interval)")
    ax.set_title(f"{summary['games']} games, {','.join(summary['lineup'])}", fontsize=9)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="coup tournament",
        description="Play many games between bots (seats rotated, deals duplicated) "
        "and rank them by win rate.",
    )
    parser.add_argument(
        "--seats",
        help="comma-separated bots, one per seat, e.g. hard,medium:bluffer; bots: random, "
        "honest, heuristic, search, never-challenge, challenge-all, duke-every-turn, or a "
        "level (easy, medium, hard) with a personality (honest, bluffer, skeptic, vengeful, "
        "cautious, random); options as name:key=value, e.g. search:steps=3000",
    )
    parser.add_argument(
        "--league",
        action="store_true",
        help="play the hard bot against every league member, heads-up and one against "
        "three at four players (--games per member and format)",
    )
    parser.add_argument(
        "--hard", default="hard", help="with --league: the bot to measure (default hard)"
    )
    parser.add_argument(
        "--opponents", help="with --league: comma-separated members (default: the league)"
    )
    parser.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="tournament seed (default 1)")
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: all cores)"
    )
    parser.add_argument(
        "--characters",
        choices=("ambassador", "inquisitor"),
        default=None,
        help="the fifth character (default ambassador)",
    )
    parser.add_argument("--no-draft", action="store_true", help="deal normally for 2 players")
    parser.add_argument("--reformation", action="store_true", help="play the Reformation expansion")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--plot", metavar="FILE.png", help="draw the win rates to a PNG")
    parser.add_argument("--save", metavar="DIR", help="save every game as a coup-record/1")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    lineup = [spec.strip() for spec in (args.seats or "").split(",") if spec.strip()]
    members = list(league.LEAGUE)
    if args.opponents:
        members = [spec.strip() for spec in args.opponents.split(",") if spec.strip()]
    try:
        if args.league:
            if args.seats or args.save:
                raise ValueError("--league plays its own seats; drop --seats and --save")
            lineup = [args.hard, *dict.fromkeys(members)]
        elif args.seats is None:
            raise ValueError("give --seats (or --league)")
        elif not 2 <= len(lineup) <= 10:
            raise ValueError(f"--seats needs 2 to 10 bots, got {len(lineup)}")
        if args.league and args.hard in members:
            raise ValueError(f"--hard {args.hard!r} is also an opponent")
        for spec in lineup:
            name, options = parse_spec(spec)
            try:
                make_bot(name, seed=0, **options)
            except TypeError as error:
                raise ValueError(f"bad options for bot {spec!r}: {error}") from None
        if args.games < 1:
            raise ValueError("--games must be at least 1")
        if args.jobs < 1:
            raise ValueError("--jobs must be at least 1")
        if args.plot and not args.plot.lower().endswith(".png"):
            raise ValueError("--plot takes a .png file name")
        if args.save:
            Path(args.save).mkdir(parents=True, exist_ok=True)
    except (ValueError, OSError) as error:
        print(f"coup tournament: {error}", file=sys.stderr)
        return 2
    settings: dict[str, Any] = {}
    if args.characters:
        settings["characters"] = args.characters
    if args.no_draft:
        settings["draft"] = False
    if args.reformation:
        settings["reformation"] = True
    if args.league:
        try:
            return league.run_league(
                args.hard, members, args.games, args.seed, settings, args.jobs,
                not args.quiet, args.json, args.plot,
            )  # fmt: skip
        except KeyboardInterrupt:
            print("coup tournament: interrupted", file=sys.stderr)
            return 130
    jobs = list(schedule(lineup, args.games, args.seed, settings, args.save))
    try:
        results = run_all(jobs, args.jobs, show_progress=not args.quiet)
    except KeyboardInterrupt:
        print("coup tournament: interrupted", file=sys.stderr)
        return 130
    summary = summarize(lineup, results, args.seed, settings)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print_table(summary)
    if args.plot:
        plot(summary, args.plot)
    return 0
