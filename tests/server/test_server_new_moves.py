"""A move's new record entries are read from the history's new entries, not by writing
the whole game's record again: they are what the record says, forced moves' draws and
all."""

from __future__ import annotations

import random

import coup
from coup.rules.records import record_moves


def test_the_new_moves_are_the_end_of_the_record_at_every_move_of_whole_games() -> None:
    checked = drawn = 0
    for seed in range(1, 41):
        rng = random.Random(seed)
        state = coup.new_game(rng.choice([2, 3, 4, 6]), seed=seed, reformation=seed % 2 == 0)
        while not state.over:
            before = len(state.record()["moves"])
            start = len(state.history)
            seat = state.waiting[0]
            state.play(seat, rng.choice(state.legal(seat)))
            new = record_moves(state.history, start)
            assert new == state.record()["moves"][before:]
            checked += 1
            drawn += any("draw" in m for m in new)
    assert checked > 1000 and drawn > 20
