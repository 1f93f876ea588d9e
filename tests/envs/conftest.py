"""Shared helpers for the learning-environment tests: random games through the engine."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

import coup

#: (players, keyword arguments of coup.new_game): the table shapes the tests cover
CONFIGS = [
    (4, {}),
    (2, {}),  # draft deal
    (2, {"draft": False}),
    (3, {"characters": "inquisitor"}),
    (6, {"characters": "inquisitor"}),
    (4, {"reformation": True}),
    (3, {"reformation": True, "characters": "inquisitor"}),
    (2, {"reformation": True}),  # draft deal after the allegiance
]


def _random_states(
    players: int, games: int, seed: int = 0, **options: object
) -> Iterator[coup.State]:
    """Every decision state of `games` random games (the live state, do not keep it)."""
    rng = random.Random(seed)
    for game in range(games):
        state = coup.new_game(players=players, seed=seed * 1000 + game, **options)  # type: ignore[arg-type]
        while not state.over:
            yield state
            seat = state.waiting[0]
            state.play(seat, rng.choice(state.legal(seat)))
        yield state


@pytest.fixture(params=CONFIGS, ids=lambda c: f"{c[0]}p-{'-'.join(map(str, c[1].values()))}")
def config(request: pytest.FixtureRequest) -> tuple[int, dict[str, object]]:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def random_states() -> Callable[..., Iterator[coup.State]]:
    """``random_states(players, games, seed=0, **new_game_options)``."""
    return _random_states
