"""The fixed action space: every legal move has one integer, and back again."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest

import coup
from coup.envs.actions import ActionSpace, action_count


def test_size_per_player_count() -> None:
    assert [action_count(n) for n in (2, 4, 6, 10)] == [57, 65, 73, 89]
    assert [action_count(n, reformation=True) for n in (2, 4, 6)] == [62, 72, 82]
    space = ActionSpace(4, reformation=True)
    assert space.labels[:65] == ActionSpace(4).labels  # Reformation only appends
    assert space.labels[65:] == (
        "allegiance loyalist", "allegiance reformist", "convert",
        "convert +1", "convert +2", "convert +3", "embezzle",
    )  # fmt: skip
    assert space.action_to_move(68, 2) == coup.Move("convert", 3)
    for n in range(2, 11):
        space = ActionSpace(n)
        assert len(space) == space.size == action_count(n) == len(space.labels)
        assert len(set(space.labels)) == space.size


def test_keep_combinations_are_the_twenty_multisets() -> None:
    labels = [label for label in ActionSpace(4).labels if label.startswith("keep ")]
    assert len(labels) == 20
    assert "keep duke" in labels and "keep duke duke" in labels
    assert "keep duke contessa" in labels and "keep contessa duke" not in labels


def test_targets_are_relative_to_the_mover() -> None:
    space = ActionSpace(4)
    steal_next = space.labels.index("steal +1")
    assert space.action_to_move(steal_next, 0) == coup.Move("steal", 1)
    assert space.action_to_move(steal_next, 3) == coup.Move("steal", 0)
    assert space.move_to_action("coup 2", 3) == space.labels.index("coup +3")


def test_variant_shares_the_fifth_slot() -> None:
    ambassador, inquisitor = ActionSpace(3), ActionSpace(3, "inquisitor")
    assert ambassador.size == inquisitor.size
    action = ambassador.move_to_action("block ambassador", 1)
    assert inquisitor.action_to_move(action, 1) == coup.Move("block", "inquisitor")


def test_round_trip_and_mask_over_random_games(
    config: tuple[int, dict[str, object]], random_states: Callable[..., Iterator[coup.State]]
) -> None:
    players, options = config
    characters = str(options.get("characters", "ambassador"))
    space = ActionSpace(players, characters, bool(options.get("reformation")))
    checked = 0
    for state in random_states(players, 25, seed=1, **options):
        for seat in state.waiting:
            legal = state.legal(seat)
            actions = space.actions(legal, seat)
            assert len(set(actions)) == len(legal)
            for move, action in zip(legal, actions, strict=True):
                assert space.action_to_move(action, seat) == move
                assert space.move_to_action(str(move), seat) == action
            mask = space.mask(legal, seat)
            assert mask.dtype.name == "int8" and mask.shape == (space.size,)
            assert sorted(mask.nonzero()[0].tolist()) == sorted(actions)
            assert (space.legal_mask(state, seat) == mask).all()
            checked += 1
    assert checked > 100


def test_bad_input_is_refused_clearly() -> None:
    space = ActionSpace(4)
    with pytest.raises(ValueError, match="outside 0..64"):
        space.action_to_move(65, 0)
    with pytest.raises(ValueError, match="no action"):
        space.move_to_action("coup 0", 0)  # a seat cannot target itself
    with pytest.raises(ValueError):
        ActionSpace(1)
    with pytest.raises(ValueError):
        ActionSpace(4, "jester")


def test_a_mask_asked_twice_is_equal_and_its_own_array() -> None:
    state = coup.new_game(players=4, seed=4)
    space = ActionSpace(4)
    seat = state.waiting[0]
    first, again = space.legal_mask(state, seat), space.legal_mask(state, seat)
    assert (first == again).all() and not np.shares_memory(first, again)
    first[:] = 0  # a learner writing into its mask changes nobody else's
    assert (space.legal_mask(state, seat) == again).all() and again.any()
    state.play(seat, "income")
    assert not space.legal_mask(state, seat).any()  # the next seat's turn now
    now = state.waiting[0]
    assert (space.legal_mask(state, now) == space.mask(state.legal(now), now)).all()
