"""Games between bots in bulk, for `coup tournament` and its `--league`: the deals and
seat rotations (`schedule`), played on every core (`run_all`), and the figures both
report (`wilson` intervals, `percentile`s, `pyplot` for their --plot).
"""

from __future__ import annotations

import json
import math
import multiprocessing
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from coup.bots.arena import GameResult, play_game


@dataclass
class Job:
    index: int
    specs: list[str]
    deal_seed: int
    bot_seed: int
    settings: dict[str, Any]
    save: str | None


def schedule(
    lineup: list[str], games: int, seed: int, settings: dict[str, Any], save: str | None
) -> Iterator[Job]:
    """The games: deal ``k`` is played with each rotation of the lineup in turn."""
    players = len(lineup)
    for index in range(games):
        block, turn = divmod(index, players)
        specs = [lineup[(seat + turn) % players] for seat in range(players)]
        deal_seed = seed * 1_000_003 + block
        bot_seed = seed * 7_919 + index
        yield Job(index, specs, deal_seed, bot_seed, settings, save)


def run_job(job: Job) -> tuple[int, GameResult]:
    result = play_game(
        job.specs, job.deal_seed, job.bot_seed, keep_record=job.save is not None, **job.settings
    )
    if job.save is not None and result.record is not None:
        record = dict(result.record)
        record["bots"] = job.specs
        record["tournament"] = {"game": job.index, "deal_seed": job.deal_seed}
        path = Path(job.save) / f"game-{job.index:06d}.json"
        path.write_text(json.dumps(record, separators=(",", ":")) + "\n")
        result.record = None
    return job.index, result


def wilson(wins: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[k]


def pyplot() -> Any:
    """matplotlib's pyplot drawing to files (the `plot` extra), or a clear exit."""
    try:
        import matplotlib
    except ImportError as error:  # pragma: no cover - depends on the extras installed
        raise SystemExit("--plot needs matplotlib: pip install 'coup[plot]'") from error
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def run_all(jobs: list[Job], processes: int, show_progress: bool) -> list[GameResult]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    results: list[GameResult | None] = [None] * len(jobs)
    console = Console(stderr=True)
    columns = (
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True, disable=not show_progress) as bar:
        task = bar.add_task("games", total=len(jobs))
        if processes == 1 or len(jobs) == 1:
            for job in jobs:
                index, result = run_job(job)
                results[index] = result
                bar.advance(task)
        else:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
            with context.Pool(processes) as pool:
                for index, result in pool.imap_unordered(run_job, jobs, chunksize=1):
                    results[index] = result
                    bar.advance(task)
    return [r for r in results if r is not None]
