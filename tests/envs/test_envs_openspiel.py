"""python_coup in OpenSpiel: the random-simulation test, chance, resampling, ISMCTS."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from coup.envs import openspiel

openspiel.register()
openspiel.register()  # a second call does nothing


def load(**params: object) -> pyspiel.Game:
    return pyspiel.load_game("python_coup", params)


def play_to(state: pyspiel.State, rng: random.Random, decisions: int) -> None:
    """Apply chance outcomes (by their probabilities) and random actions."""
    while not state.is_terminal() and decisions > 0:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            assert sum(probs) == pytest.approx(1.0)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions -= 1


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"players": 2},
        {"players": 2, "draft": "off"},
        {"players": 3, "characters": "inquisitor"},
        {"reformation": True},
        {"players": 2, "reformation": True},
    ],
    ids=["4p", "2p-draft", "2p", "3p-inquisitor", "4p-reformation", "2p-reformation"],
)
def test_pyspiel_random_sim_test(params: dict[str, object]) -> None:
    pyspiel.random_sim_test(load(**params), num_sims=8, serialize=True, verbose=False)


def test_game_shape() -> None:
    game = load(players=3)
    assert game.num_players() == 3
    assert game.num_distinct_actions() == 61
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.information_state_tensor(0) is not None
    assert len(state.observation_tensor(1)) == game.observation_tensor_size()


def test_returns_are_zero_sum() -> None:
    rng = random.Random(1)
    for _ in range(10):
        state = load(players=4).new_initial_state()
        play_to(state, rng, 10_000)
        returns = state.returns()
        assert sum(returns) == pytest.approx(0.0)
        assert sorted(returns) == pytest.approx([-1 / 3, -1 / 3, -1 / 3, 1.0])


def test_only_own_cards_are_observed_during_the_deal() -> None:
    state = load(players=3).new_initial_state()
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 3] * 3)
    state.apply_action(2)  # seat 2 starts
    for _ in range(4):  # seats 0 and 1 have their cards
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.information_state_string(0) != state.information_state_string(1)
    assert state.information_state_string(2) == "seat 2 first 2 dealt "
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[-1][0])
    assert state.current_player() == 2
    fixed = load(players=3, first=1).new_initial_state()
    assert len(fixed.chance_outcomes()) == 5  # the deal begins at once


def test_resampling_keeps_the_information_state() -> None:
    rng = random.Random(2)
    game = load(players=4)
    for game_index in range(5):
        state = game.new_initial_state()
        play_to(state, rng, 8 + game_index * 3)
        if state.is_terminal():
            continue
        player = state.current_player()
        key = state.information_state_string(player)
        for _ in range(5):
            sample = state.resample_from_infostate(player, lambda: rng.random())
            assert sample.information_state_string(player) == key
            assert sample.observation_tensor(player) == state.observation_tensor(player)
            assert sample.legal_actions() == state.legal_actions()
            assert sample.engine is not state.engine


def test_ismcts_bot_plays_a_few_moves() -> None:
    game = load(players=3)
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        uct_c=2.0,
        max_simulations=20,
        random_state=np.random.RandomState(1),
    )
    state = game.new_initial_state()
    rng = random.Random(3)
    moves = 0
    while not state.is_terminal() and moves < 6:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == 6 or state.is_terminal()


def test_action_strings_use_the_notation() -> None:
    state = load(players=4).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    player = state.current_player()
    names = {state.action_to_string(player, a) for a in state.legal_actions()}
    assert "income" in names
    assert f"steal {(player + 1) % 4}" in names


def test_recall_logs_what_the_view_shows_privately() -> None:
    """The recall log reads the engine's state; it must follow the view's `private`."""
    rng = random.Random(5)
    game = load(players=3, characters="inquisitor")
    for _ in range(6):
        state = game.new_initial_state()
        while not state.is_terminal():
            play_to(state, rng, 1)
            if state.engine is None:
                continue
            for seat in range(3):
                private = state.engine.view(seat)["private"]
                entry = state.recall[seat][-1]
                if "drawn" in private:
                    assert entry.endswith("drawn " + " ".join(private["drawn"]))
                elif "shown" in private:
                    shown = private["shown"]
                    assert entry.endswith(f"shown {shown['seat']} {shown['card']}")
                else:
                    assert entry.endswith(":")
                assert entry.split(":")[1] == " ".join(
                    state.engine.view(seat)["players"][seat]["cards"]
                )
