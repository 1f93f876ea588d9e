"""What a worker process runs: a bot's decision, and the steps of the coach's analysis.

A decision carries what its bot's seat may know and nothing else: a *world*, the game
as `State.determinize` redraws it for that seat (its own cards and everything it was
shown kept, every hidden card drawn again at random, no seed and no deal), pickled. The
seat's view, legal moves and determinizations of that world are those of the real game
(`tests/rules`: equal views give equal worlds), so the bot decides exactly as it would
on the table's state, and a worker on another machine never holds a hidden card.

A hard bot's budget (playout steps) is fitted to the decision's deadline: the pool asks
for a share of the full budget when jobs wait (`limit`), and the worker spends no more
than it can in the time left before the deadline, at the speed it measured on its own
earlier searches (`Speed`). A decision whose deadline passed before it started is not
run (`Answer.move` None): the server answers it with the medium bot.

The coach's steps (`plan`, `note`) replay a finished game's record, which is public once
the game is over; the replayed game is kept for the next step of the same record.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from coup import State
    from coup.review.walk import Walk

#: The fewest playout steps a hard bot searches with, however late (a few milliseconds).
MIN_STEPS = 600
#: The share of the time left that a hard bot's search is sized to (the rest is slack for
#: the answer's way back and a slower search than measured).
SLACK = 0.6


@dataclass(frozen=True)
class Decision:
    """One bot decision: the seat's world, the bot, its deadline (`time.time()` seconds)."""

    key: str  # "<table> <game> <seat> <due ms>": one bot deadline of one table
    table: str
    world: bytes  # a pickled `State.determinize(seat, rng)` of the table's game
    seat: int
    bot: str  # "level:personality", e.g. "hard:bluffer"
    seed: int
    deadline: float
    steps: int = 0  # the hard bot's full budget (0: the bot's level has none)


@dataclass(frozen=True)
class Answer:
    move: str | None  # None: the deadline passed before the decision was started
    steps: int = 0  # the budget searched with (hard bots)
    reduced: bool = False  # fewer steps than the full budget (the deadline, or a queue)
    seconds: float = 0.0  # time the worker spent on it


def world_of(state: State, seat: int, rng: random.Random) -> bytes:
    """The world a decision carries: ``state`` as ``seat`` may know it, redrawn, pickled."""
    return pickle.dumps(state.determinize(seat, rng), protocol=pickle.HIGHEST_PROTOCOL)


class Speed:
    """A worker's measured search speed (playout steps per second), for fitting budgets."""

    def __init__(self, guess: float = 250_000.0) -> None:
        self.steps_per_second = guess

    def fit(self, full: int, limit: int, seconds_left: float) -> int:
        """Steps to search: at most `limit`, and what fits in `SLACK` of the time left."""
        fits = int(self.steps_per_second * SLACK * seconds_left)
        return max(MIN_STEPS, min(full, limit, fits))

    def saw(self, steps: int, seconds: float) -> None:
        if steps >= MIN_STEPS and seconds > 0:
            self.steps_per_second = 0.8 * self.steps_per_second + 0.2 * (steps / seconds)


_speed = Speed()


def warm() -> None:
    """Import what the jobs need before the first one (a worker's first decision would
    otherwise spend its deadline importing)."""
    import coup.bots.personality
    import coup.bots.search
    import coup.review.coach  # noqa: F401


def decide(decision: Decision, limit: int, now: float | None = None) -> Answer:
    """In a worker: the bot's move for `decision` (at most `limit` playout steps)."""
    from coup import bots
    from coup.bots.window import GuardedWindow

    start = time.time() if now is None else now
    left = decision.deadline - start
    if left <= 0:
        return Answer(None)
    world: State = pickle.loads(decision.world)
    options: dict[str, Any] = {}
    steps = 0
    if decision.steps:
        steps = _speed.fit(decision.steps, limit, left)
        options["steps"] = steps
    bot = bots.make(decision.bot, seed=decision.seed, **options)
    clock = time.perf_counter()
    move = bot.choose(GuardedWindow(world, decision.seat), decision.seat)
    spent = time.perf_counter() - clock
    if steps:
        _speed.saw(steps, spent)
    return Answer(str(move), steps, bool(steps) and steps < decision.steps, spent)


# ---- the coach's steps ----------------------------------------------------------------
_walked: tuple[str, Walk] | None = None


def _walk(record: dict[str, Any]) -> Walk:
    """The replayed game (the last one is kept: an analysis is many steps of one record)."""
    from coup.review.walk import walk

    global _walked
    key = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()
    if _walked is None or _walked[0] != key:
        _walked = (key, walk(record))
    return _walked[1]


def plan(record: dict[str, Any], seat: int) -> tuple[str, list[int]]:
    """The seat's name and the decisions of it the coach weighs."""
    from coup.review.coach import decisions

    w = _walk(record)
    return w.final.names[seat], decisions(w, seat)


def note(record: dict[str, Any], seat: int, k: int, seed: int, budget: int) -> dict[str, Any]:
    """The coach's note on decision ``k`` of the seat."""
    from coup.review.coach import note as coach_note

    return coach_note(_walk(record), seat, k, seed=seed, budget=budget)
