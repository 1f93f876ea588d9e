"""`coup review RECORD.json [--seat N] [--json]` — the coach: each decision of a seat
weighed by the hard bot from that seat's own view, mistakes flagged; with the game's
statistics (claims, bluffs, challenges) first."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from coup.bots.analysis import DEFAULT_BUDGET
from coup.cli.replay import _load
from coup.rules import InvalidRecordError


def pct(x: float) -> str:
    return f"{round(100 * x)}%"


def describe(note: dict[str, Any], names: list[str]) -> str:
    """One decision in words: "Sepideh's Captain claim: 62% bluff by my count; challenge
    wins 41%, pass 35%. Played pass — a mistake: challenge (+6%)"."""
    parts = []
    claim = note.get("claim")
    if claim:
        who = names[claim["seat"]]
        parts.append(
            f"{who}'s {claim['character'].capitalize()} claim: "
            f"{pct(claim['bluff'])} bluff by my count"
        )
    ranked = sorted(note["moves"], key=lambda m: -m["win"])
    parts.append(", ".join(f"{m['move']} wins {pct(m['win'])}" for m in ranked[:4]))
    line = "; ".join(parts) + f". Played {note['played']}"
    if note["mistake"]:
        line += f" — a mistake: {note['best']} (+{pct(note['loss'])})"
    return line


def print_story(story: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="The game")
    for column in ("player", "claims", "bluffs", "caught", "challenges", "won", "blocks", "coins"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for s in story["stats"]:
        won = "winner" if s["seat"] == story["winner"] else ""
        table.add_row(
            f"{s['name']} {won}".strip(),
            *(str(s[k]) for k in ("claims", "bluffs", "caught", "challenges", "challenges_won")),
            str(s["blocks"]),
            str(s["coins"]),
        )
    Console().print(table)
    out = [story["players"][seat] for seat in story["eliminated"]]
    if out:
        print("Out, in order: " + ", ".join(out))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="coup review",
        description="The coach: weigh each decision of a seat with the hard bot, from that "
        "seat's own view, and flag the mistakes.",
    )
    parser.add_argument("record", help="the record file (JSON), or - for standard input")
    parser.add_argument("--seat", type=int, help="the seat to coach (default: every seat)")
    parser.add_argument("--json", action="store_true", help="print coup-coach/1 JSON")
    parser.add_argument("--seed", type=int, default=0, help="the analysis seed (default 0)")
    parser.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_BUDGET,
        help=f"playout steps per decision (default {DEFAULT_BUDGET})",
    )
    args = parser.parse_args(argv)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from coup.review.coach import review
    from coup.review.story import tell

    try:
        record = _load(args.record)
        story = tell(record)
    except InvalidRecordError as e:
        print(f"coup review: {e}", file=sys.stderr)
        return 2
    names = story["players"]
    if args.seat is not None and not 0 <= args.seat < len(names):
        print(f"coup review: seat {args.seat} is not at this table", file=sys.stderr)
        return 2
    if args.budget < 1:
        print("coup review: --budget must be at least 1", file=sys.stderr)
        return 2
    seats = [args.seat] if args.seat is not None else list(range(len(names)))
    columns = (
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    reviews = []
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        for seat in seats:
            task = bar.add_task(f"coaching {names[seat]}", total=None)

            def progress(done: int, total: int, task: Any = task) -> None:
                bar.update(task, completed=done, total=total)

            reviews.append(
                review(record, seat, seed=args.seed, budget=args.budget, progress=progress)
            )
    if args.json:
        print(json.dumps(reviews[0] if args.seat is not None else reviews, indent=2))
        return 0
    if not story["over"]:
        print("The game is not over: the coach weighs the decisions made so far.")
    print_story(story)
    for r in reviews:
        print(
            f"\n{r['name']} (seat {r['seat']}): {r['mistakes']} mistakes "
            f"in {len(r['decisions'])} decisions"
        )
        for note in r["decisions"]:
            mark = "✗" if note["mistake"] else " "
            print(f" {mark} move {note['index']:>3} ({note['phase']}): {describe(note, names)}")
    return 0
