"""The kernel's step for the learning adapters (`coup.envs.kernel.stepper`)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from observation_oracle import encode

import coup
from coup.envs.actions import ActionSpace
from coup.envs.kernel.stepper import ILLEGAL, OUTSIDE, SETTLE, Stepper
from coup.envs.observation import ObservationEncoder


def make(players: int, max_moves: int = 2000, **game: object) -> tuple[Stepper, ActionSpace]:
    reformation = bool(game.get("reformation", False))
    actions = ActionSpace(players, str(game.get("characters", "ambassador")), reformation)
    encoder = ObservationEncoder(players, 12, reformation)
    stepper = Stepper(encoder.features, actions._legal_mask, actions._moves, max_moves)
    return stepper, actions


def test_refused_actions_change_nothing() -> None:
    stepper, actions = make(4)
    state = coup.new_game(players=4, seed=3)
    stepper.start(state)
    seat = state.waiting[0]
    before = state.view(None)
    assert stepper.play(seat, -1) == OUTSIDE
    assert stepper.play(seat, actions.size) == OUTSIDE
    coup_next = actions.move_to_action(f"coup {(seat + 1) % 4}", seat)  # 2 coins: illegal
    assert stepper.play(seat, coup_next) == ILLEGAL
    other = (seat + 1) % 4  # not its decision
    assert stepper.play(other, actions.move_to_action("income", other)) == ILLEGAL
    assert state.view(None) == before and stepper.played == 0


def test_steps_match_the_engine_and_the_buffers_match_the_encoder() -> None:
    for players, game in [(2, {}), (4, {}), (6, {}), (3, {"reformation": True})]:
        stepper, actions = make(players, **game)
        encoder = ObservationEncoder(players, 12, bool(game.get("reformation", False)))
        rng = random.Random(players)
        for seed in range(3):
            state = coup.new_game(players=players, seed=seed, **game)  # type: ignore[arg-type]
            twin = state.clone()
            stepper.start(state)
            seat = state.waiting[0]
            while True:
                stepper.fill(seat)
                obs = np.frombuffer(stepper.obs, np.float32)
                assert np.array_equal(obs, encode(encoder.layout, state.view(seat)))
                assert bytes(stepper.mask) == bytes(actions.mask(state.legal(seat), seat))
                move = rng.choice(state.legal(seat))
                twin.play(seat, move)
                after = stepper.play(seat, actions.move_to_action(move, seat))
                assert state.history == twin.history
                if after == SETTLE:
                    if state.over:
                        break
                    stepper.settled()
                    after = state.waiting[0]
                assert after == state.waiting[0]
                seat = after


def test_settle_at_max_moves() -> None:
    stepper, actions = make(4, max_moves=3)
    state = coup.new_game(players=4, seed=1)
    stepper.start(state)
    results = []
    for _ in range(3):
        seat = state.waiting[0]
        results.append(stepper.play(seat, actions.move_to_action(state.legal(seat)[0], seat)))
    assert results[-1] == SETTLE and stepper.played == 3


def test_the_mask_written_by_fill_names_the_same_moves_as_the_legal_list() -> None:
    # after `fill`, `move` reads the action's move from the mask's table; without it, from
    # the legal moves: both must agree for every integer, legal or not
    for players, game in [(4, {}), (3, {"reformation": True}), (2, {"characters": "inquisitor"})]:
        stepper, actions = make(players, **game)
        rng = random.Random(players)
        for seed in range(3):
            state = coup.new_game(players=players, seed=seed, **game)  # type: ignore[arg-type]
            stepper.start(state)
            while not state.over:
                seat = state.waiting[0]
                unfilled = [stepper.move(seat, a) for a in range(-1, actions.size + 1)]
                stepper.fill(seat)
                filled = [stepper.move(seat, a) for a in range(-1, actions.size + 1)]
                assert filled == unfilled
                legal = state.legal(seat)
                assert [m for m in filled if m is not None] == sorted(
                    legal, key=lambda m: actions.move_to_action(m, seat)
                )
                state.play(seat, rng.choice(legal))


def test_a_stepper_writes_into_a_row_of_bigger_buffers_of_its_sizes() -> None:
    stepper, actions = make(3)
    state = coup.new_game(players=3, seed=6)
    stepper.start(state)
    size = len(stepper.obs)
    rows, masks = bytearray(3 * size), bytearray(3 * actions.size)
    with pytest.raises(ValueError, match="no room"):
        stepper.write_into(rows, 2 * size + 4, masks, 0)
    with pytest.raises(ValueError, match="no room"):
        stepper.write_into(rows, 2, masks, 0)  # float32 starts at a multiple of 4
    stepper.write_into(rows, size, masks, actions.size)
    seat = state.waiting[0]
    stepper.fill(seat)
    encoder = ObservationEncoder(3)
    assert bytes(rows[size : 2 * size]) == bytes(encoder.features.observe(state, seat))
    assert bytes(masks[actions.size : 2 * actions.size]) == bytes(actions.legal_mask(state, seat))
    assert not any(rows[:size]) and not any(rows[2 * size :])
