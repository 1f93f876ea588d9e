"""The search bot's sampled worlds: how likely a world's draft picks are before any play
(people like Dukes), and resampling worlds in proportion to their belief weights.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coup import State
    from coup.bots.knowledge import Knowledge

#: How often a character is the draft pick (of five), before seeing any play.
DRAFT_PRIOR: dict[str, float] = {
    "duke": 0.4,
    "captain": 0.2,
    "assassin": 0.2,
    "contessa": 0.12,
    "ambassador": 0.08,
    "inquisitor": 0.08,
}


def draft_prior(world: State, know: Knowledge) -> float:
    """How likely the other players' draft picks in ``world`` are (people like Dukes)."""
    cards: Counter[str] = Counter(world.court)
    for seat in range(world.players):
        cards.update(world.hands[seat])
        cards.update(world.revealed[seat])
    cards.update(world.drawn)
    cards.subtract(know.characters)
    cards.subtract(know.my_picks)
    weight = 1.0
    for character, count in cards.items():
        if count <= 0:
            continue
        weight *= DRAFT_PRIOR.get(character, 0.1) ** count
        # A pick stays in its drafter's hand until that hand draws from the Court.
        for seat in know.opponents():
            held = character in world.hands[seat] or character in world.revealed[seat]
            if not held and not know.records[seat].redrawn:
                weight *= 0.02
    return weight


def resample(
    pool: list[State], weights: list[float], count: int, rng: random.Random
) -> list[State]:
    """``count`` worlds from ``pool`` in proportion to ``weights`` (systematic resampling:
    evenly spaced pointers into the weight mass)."""
    total = sum(weights)
    if total <= 0:
        return pool[:count]
    step = total / count
    point = rng.random() * step
    chosen: list[State] = []
    acc = 0.0
    for world, weight in zip(pool, weights, strict=True):
        acc += weight
        while point < acc and len(chosen) < count:
            chosen.append(world)
            point += step
    while len(chosen) < count:
        chosen.append(pool[-1])
    return chosen
