"""The engine's own measures for `coup bench`: random play and the cost of a state's
`clone()`, `determinize()` and `view()`, in CPU time.

* `random_play`: uniformly random legal moves (`waiting[0]`, `legal`, `play`) from a fixed
  seed: decisions/s, games/s and decisions per game (the cores' children run it too);
* `state_costs`: the median µs of a call on mid-game states.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence

import coup


def random_play(players: int, games: int, seed: int) -> tuple[float, float, float]:
    """(decisions/s, games/s, decisions/game) for `games` games of random legal moves."""
    rng = random.Random(seed)
    new_game = coup.new_game
    decisions = 0
    start = time.process_time()
    for g in range(games):
        state = new_game(players=players, seed=seed * 1_000_003 + g)
        while not state.over:
            seat = state.waiting[0]
            state.play(seat, rng.choice(state.legal(seat)))
            decisions += 1
    elapsed = max(time.process_time() - start, 1e-9)
    return decisions / elapsed, games / elapsed, decisions / games


def medians(runs: Sequence[tuple[float, ...]]) -> dict[str, float]:
    """Each figure's median over runs of `random_play` (or of coupml's driver, whose runs
    add its choices/s as a fourth figure)."""
    extra = {"choices_per_s": statistics.median(r[3] for r in runs)} if len(runs[0]) > 3 else {}
    return {
        **extra,
        "decisions_per_s": statistics.median(r[0] for r in runs),
        "games_per_s": statistics.median(r[1] for r in runs),
        "decisions_per_game": statistics.median(r[2] for r in runs),
    }


def mid_game_states(count: int, players: int, seed: int) -> list[coup.State]:
    """`count` states taken at a random point of random games (never over)."""
    rng = random.Random(seed)
    states: list[coup.State] = []
    g = 0
    while len(states) < count:
        state = coup.new_game(players=players, seed=seed + g)
        g += 1
        trail = [state.clone()]
        while not state.over:
            seat = state.waiting[0]
            state.play(seat, rng.choice(state.legal(seat)))
            if not state.over:
                trail.append(state.clone())
        states.append(trail[rng.randrange(len(trail) // 4, len(trail))])
    return states


def cost_us(states: list[coup.State], op: Callable[[coup.State], object], calls: int) -> float:
    """Median over `states` of the mean µs (CPU time) of `calls` calls of `op` on one state."""
    per_state = []
    for state in states:
        start = time.process_time()
        for _ in range(calls):
            op(state)
        per_state.append((time.process_time() - start) / calls * 1e6)
    return statistics.median(per_state)


def state_costs(samples: int, calls: int, seed: int) -> dict[str, float]:
    states = mid_game_states(samples, 4, seed)
    rng = random.Random(seed)
    return {
        "clone_us": cost_us(states, lambda s: s.clone(), calls),
        "determinize_us": cost_us(states, lambda s: s.determinize(s.waiting[0], rng), calls),
        "view_us": cost_us(states, lambda s: s.view(s.waiting[0]), calls),
    }
