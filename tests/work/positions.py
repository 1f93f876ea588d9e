"""Positions and decisions for the workers' tests."""

from __future__ import annotations

import random
import time

import coup
from coup.work.jobs import Decision, world_of


def position(seed: int = 3, moves: int = 6) -> tuple[coup.State, int]:
    """A game a few moves in, and a seat with a choice to make."""
    state = coup.new_game(players=4, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = state.waiting[0]
        state.play(seat, rng.choice(state.legal(seat)))
    while True:
        seat = state.waiting[0]
        if state.phase == "action" and len(state.legal(seat)) > 2:  # a search takes a while
            return state, seat
        state.play(seat, rng.choice(state.legal(seat)))


def decision(state: coup.State, seat: int, *, seconds: float, bot: str = "hard:honest",
             steps: int = 25_000, n: int = 0) -> Decision:  # fmt: skip
    return Decision(
        key=f"t 1 {seat} {n}", table="t", world=world_of(state, seat, random.Random(n)),
        seat=seat, bot=bot, seed=n, deadline=time.time() + seconds, steps=steps,
    )  # fmt: skip
