"""The baseline bot: uniformly random legal moves."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coup import Move
    from coup.bots.window import SeatWindow


class RandomBot:
    """Picks uniformly among ``state.legal(seat)``; its own generator, seeded."""

    name = "random"

    def __init__(self, seed: int | None = None, rng: random.Random | None = None) -> None:
        """`rng`: a generator to draw from instead of one of its own (`seed` is unused)."""
        self.rng = rng if rng is not None else random.Random(seed)

    def choose(self, state: SeatWindow, seat: int) -> Move:
        moves = state.legal(seat)
        if not moves:
            raise ValueError(f"seat {seat} has no legal move now")
        return self.rng.choice(moves)
