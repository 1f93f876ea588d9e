"""One game between bots: the loop a tournament, a benchmark or a test runs.

Only seats in ``state.waiting`` move; in a reaction window the seats are asked in the
order of ``state.waiting`` (clockwise from the actor), the first one each time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import coup
from coup import bots as bots_module
from coup.rules import Record

#: A game still running after this many decisions is stopped and scored as unfinished.
MAX_DECISIONS = 5000


@dataclass
class GameResult:
    """What one game produced, per seat."""

    seats: list[str]  # the bot playing each seat
    winner: int | None  # None: unfinished
    places: list[int]  # finishing place per seat (1 = winner); 0 when unfinished
    times: list[list[float]] = field(default_factory=list)  # decision seconds, per seat
    cpu: list[list[float]] = field(default_factory=list)  # the same in CPU seconds
    decisions: int = 0
    record: Record | None = None


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"search:sims=200:depth=8"`` -> ("search", {"sims": 200, "depth": 8});
    ``"medium:skeptic"`` -> ("medium:skeptic", {}) (a level and a personality)."""
    name, *pairs = spec.strip().split(":")
    if name not in bots_module.LEVELS:
        bots_module.make(name, seed=0)  # an unknown bot: ValueError naming the choices
    options: dict[str, Any] = {}
    for index, pair in enumerate(pairs):
        key, sep, text = pair.partition("=")
        if not sep and index == 0 and name in bots_module.LEVELS:
            name = f"{name}:{pair}"
            continue
        if not sep or not key:
            raise ValueError(f"bot option {pair!r} in {spec!r} is not key=value")
        value: Any = text
        for kind in (int, float):
            try:
                value = kind(text)
                break
            except ValueError:
                pass
        options[key] = value
    bots_module.make(name, seed=0)  # raises ValueError naming the choices
    return name, options


def play_game(
    specs: list[str],
    deal_seed: int,
    bot_seed: int,
    keep_record: bool = False,
    **settings: Any,
) -> GameResult:
    """Play one game: seat i is played by the bot ``specs[i]``; the deal comes from
    ``deal_seed`` (so the same deal can be replayed with the seats swapped)."""
    players = len(specs)
    state = coup.new_game(players=players, seed=deal_seed, **settings)
    seat_bots = []
    for seat, spec in enumerate(specs):
        name, options = parse_spec(spec)
        seat_bots.append(bots_module.make(name, seed=bot_seed * 131 + seat, **options))
    times: list[list[float]] = [[] for _ in range(players)]
    cpu: list[list[float]] = [[] for _ in range(players)]
    out_order: list[int] = []
    alive = [state.alive(s) for s in range(players)]
    decisions = 0
    clock, cpu_clock = time.perf_counter, time.thread_time
    while not state.over and decisions < MAX_DECISIONS:
        seat = state.waiting[0]
        start, cpu_start = clock(), cpu_clock()
        move = seat_bots[seat].choose(state, seat)
        times[seat].append(clock() - start)
        cpu[seat].append(cpu_clock() - cpu_start)
        state.play(seat, move)
        decisions += 1
        for s in range(players):
            if alive[s] and not state.alive(s):
                alive[s] = False
                out_order.append(s)
    places = [0] * players
    winner = state.winner if state.over else None
    if winner is not None:
        places[winner] = 1
        for rank, s in enumerate(reversed(out_order), start=2):
            places[s] = rank
    record = state.record() if keep_record else None
    return GameResult(list(specs), winner, places, times, cpu, decisions, record)
