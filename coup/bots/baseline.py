"""The baseline bots: uniformly random legal moves, and the easy level's mix."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coup import Move, State


class RandomBot:
    """Picks uniformly among ``state.legal(seat)``; its own generator, seeded."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State, seat: int) -> Move:
        moves = state.legal(seat)
        if not moves:
            raise ValueError(f"seat {seat} has no legal move now")
        return self.rng.choice(moves)


class EasyBot:
    """The easy level: plays honestly, but makes a random move now and then."""

    name = "easy"

    def __init__(self, seed: int | None = None, blunder: float = 0.3) -> None:
        from coup.bots.honest import HonestBot

        self.rng = random.Random(seed)
        self.blunder = blunder
        self.honest = HonestBot(seed=self.rng.randrange(2**32))
        self.random = RandomBot(seed=self.rng.randrange(2**32))

    def choose(self, state: State, seat: int) -> Move:
        if self.rng.random() < self.blunder:
            return self.random.choose(state, seat)
        return self.honest.choose(state, seat)
