"""`coup tournament --league`: the hard bot against every member of the opponent league.

For each member: heads-up games (each deal from both seats) and four-player games of
the hard bot against three copies of the member (each deal from all four seats). The
cross-table gives the hard bot's win rate in each with its 95% Wilson interval, against
the goals (70% heads-up, 50% one against three), and the hard bot's decision times.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from coup.bots import PERSONALITIES, STYLES
from coup.bots.arena import GameResult
from coup.cli.series import Job, percentile, pyplot, run_all, schedule, wilson

#: The opponent league: the personalities at easy and medium, our other bots, and plain
#: styles nobody tuned the search against.
LEAGUE: tuple[str, ...] = (
    *(f"easy:{p}" for p in PERSONALITIES),
    *(f"medium:{p}" for p in PERSONALITIES),
    "heuristic",
    "honest",
    "random",
    *STYLES,
)
#: (name, players): heads-up, and one against three at four players.
FORMATS: tuple[tuple[str, int], ...] = (("heads_up", 2), ("one_v_three", 4))
GOALS: dict[str, float] = {"heads_up": 0.70, "one_v_three": 0.50}


def league_jobs(
    hard: str, members: list[str], games: int, seed: int, settings: dict[str, Any]
) -> tuple[list[Job], list[tuple[str, str]]]:
    """All games, and for each the (member, format) cell it counts in."""
    jobs: list[Job] = []
    cells: list[tuple[str, str]] = []
    for m, member in enumerate(members):
        for f, (fmt, players) in enumerate(FORMATS):
            lineup = [hard] + [member] * (players - 1)
            cell_seed = seed * 1000 + m * 10 + f
            for job in schedule(lineup, games, cell_seed, settings, None):
                jobs.append(dataclasses.replace(job, index=len(jobs)))
                cells.append((member, fmt))
    return jobs, cells


def summarize_league(
    hard: str,
    members: list[str],
    results: list[GameResult],
    cells: list[tuple[str, str]],
    seed: int,
    settings: dict[str, Any],
) -> dict[str, Any]:
    table: dict[str, dict[str, Any]] = {
        m: {fmt: {"games": 0, "wins": 0} for fmt, _ in FORMATS} for m in members
    }
    times: list[float] = []
    cpu: list[float] = []
    unfinished = 0
    for result, (member, fmt) in zip(results, cells, strict=True):
        seat = result.seats.index(hard)
        cell = table[member][fmt]
        cell["games"] += 1
        cell["wins"] += result.winner == seat
        unfinished += result.winner is None
        times.extend(result.times[seat])
        cpu.extend(result.cpu[seat])
    rows = []
    for member in members:
        row: dict[str, Any] = {"opponent": member}
        for fmt, players in FORMATS:
            cell = table[member][fmt]
            low, high = wilson(cell["wins"], cell["games"])
            rate = cell["wins"] / cell["games"] if cell["games"] else 0.0
            row[fmt] = {
                **cell,
                "players": players,
                "win_rate": rate,
                "ci95": [low, high],
                "fair_share": 1 / players,
                "goal": GOALS[fmt],
                "met": rate >= GOALS[fmt],
            }
        rows.append(row)
    return {
        "format": "coup-league/1",
        "hard": hard,
        "games_per_cell": table[members[0]][FORMATS[0][0]]["games"] if members else 0,
        "seed": seed,
        "settings": settings,
        "unfinished": unfinished,
        "rows": rows,
        "hard_decisions": len(times),
        "hard_decision_ms": {
            "p50": 1000 * percentile(times, 0.5),
            "p95": 1000 * percentile(times, 0.95),
            "max": 1000 * max(times, default=0.0),
        },
        "hard_decision_cpu_ms": {
            "p50": 1000 * percentile(cpu, 0.5),
            "p95": 1000 * percentile(cpu, 0.95),
        },
    }


def print_league(summary: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"{summary['hard']} against the league: {summary['games_per_cell']} games per"
        f" cell, seed {summary['seed']}"
    )
    table.add_column("opponent")
    for fmt, label in (("heads_up", "heads-up"), ("one_v_three", "1 v 3 (4 players)")):
        table.add_column(f"{label} win", justify="right")
        table.add_column("95% interval", justify="right")
        table.add_column(f"≥{GOALS[fmt]:.0%}", justify="center")
    for row in summary["rows"]:
        cells = [row["opponent"]]
        for fmt, _ in FORMATS:
            c = row[fmt]
            cells += [
                f"{c['win_rate']:.1%}",
                f"{c['ci95'][0]:.1%} – {c['ci95'][1]:.1%}",
                "yes" if c["met"] else "no",
            ]
        table.add_row(*cells)
    console = Console()
    if not console.is_terminal:
        console = Console(width=132)
    console.print(table)
    t, c = summary["hard_decision_ms"], summary["hard_decision_cpu_ms"]
    console.print(
        f"{summary['hard']} decisions: {summary['hard_decisions']}, wall-clock p50"
        f" {t['p50']:.0f} ms, p95 {t['p95']:.0f} ms, max {t['max']:.0f} ms; CPU p95"
        f" {c['p95']:.0f} ms",
        style="dim",
    )
    if summary["unfinished"]:
        console.print(f"[yellow]{summary['unfinished']} games stopped unfinished[/yellow]")


def plot_league(summary: dict[str, Any], path: str) -> None:
    """Both win rates per opponent with their intervals and goals, as a PNG."""
    plt = pyplot()
    rows = summary["rows"]
    names = [row["opponent"] for row in rows]
    fig, ax = plt.subplots(figsize=(8, 1.5 + 0.45 * len(rows)))
    colours = {"heads_up": "#5b7db1", "one_v_three": "#e08e2b"}
    for k, (fmt, _) in enumerate(FORMATS):
        ys = [i + (k - 0.5) * 0.38 for i in range(len(rows))]
        rates = [row[fmt]["win_rate"] for row in rows]
        low = [max(0.0, row[fmt]["win_rate"] - row[fmt]["ci95"][0]) for row in rows]
        high = [max(0.0, row[fmt]["ci95"][1] - row[fmt]["win_rate"]) for row in rows]
        label = "heads-up" if fmt == "heads_up" else "1 v 3, four players"
        ax.barh(ys, rates, height=0.36, xerr=[low, high], color=colours[fmt], label=label)
        ax.axvline(GOALS[fmt], color=colours[fmt], linestyle="--", linewidth=1)
    ax.set_yticks(range(len(rows)), names)
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_xlabel("hard bot's win rate (95% Wilson interval); dashed: goals")
    ax.set_title(f"{summary['hard']} against the league", fontsize=9)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def run_league(
    hard: str,
    members: list[str],
    games: int,
    seed: int,
    settings: dict[str, Any],
    processes: int,
    show_progress: bool,
    as_json: bool,
    plot: str | None,
) -> int:
    jobs, cells = league_jobs(hard, members, games, seed, settings)
    results = run_all(jobs, processes, show_progress)
    summary = summarize_league(hard, members, results, cells, seed, settings)
    if as_json:
        print(json.dumps(summary, indent=2))
    else:
        print_league(summary)
    if plot:
        plot_league(summary, plot)
    return 0
