"""Bots play legal moves only, never raise, and see only their own view."""

from __future__ import annotations

import random

import pytest

import coup
from coup import bots
from coup.bots.arena import play_game
from coup.bots.window import GuardedWindow

FAST = {"search": {"sims": 12, "worlds": 6}, "hard:vengeful": {"sims": 12, "worlds": 6}}


def make(name: str, seed: int) -> bots.Bot:
    return bots.make(name, seed=seed, **FAST.get(name, {}))


def test_interface_names_and_levels() -> None:
    assert bots.NAMES == ("random", "honest", "heuristic", "search")
    assert bots.LEVELS == ("easy", "medium", "hard")
    for name in bots.NAMES:
        assert bots.make(name, seed=1).name == name
    for level in bots.LEVELS:
        assert callable(bots.for_level(level, seed=1).choose)
    with pytest.raises(ValueError, match="unknown bot"):
        bots.make("grandmaster")
    with pytest.raises(ValueError, match="unknown level"):
        bots.for_level("impossible")


@pytest.mark.parametrize(
    ("lineup", "settings"),
    [
        (["random", "honest"], {}),
        (["heuristic", "random"], {}),
        (["heuristic", "heuristic"], {"draft": False}),
        (["honest", "heuristic", "random", "easy"], {}),
        (["heuristic", "honest", "heuristic"], {"characters": "inquisitor"}),
        (["random", "heuristic", "random", "honest", "heuristic", "random", "easy"], {}),
        (["heuristic", "search:sims=6:worlds=3", "random", "honest", "easy"] * 2, {}),
        (
            ["search:sims=6:worlds=3", "heuristic", "easy", "honest", "random", "heuristic"],
            {"characters": "inquisitor"},
        ),
    ],
)
def test_bots_finish_games_with_legal_moves(lineup: list[str], settings: dict) -> None:
    games = 3 if any(spec.startswith("search") for spec in lineup) else 12
    for game in range(games):
        result = play_game(lineup, deal_seed=game, bot_seed=game, **settings)
        assert result.winner is not None  # play() raised on any illegal move
        assert sorted(result.places) == list(range(1, len(lineup) + 1))


@pytest.mark.parametrize("settings", [{}, {"characters": "inquisitor"}])
def test_search_bot_finishes_games(settings: dict) -> None:
    lineup = ["search:sims=12:worlds=6", "heuristic", "search:sims=8:worlds=4"]
    for game in range(2):
        assert play_game(lineup, deal_seed=game, bot_seed=game, **settings).winner is not None
    duel = ["search:sims=12:worlds=6", "heuristic"]
    assert play_game(duel, deal_seed=3, bot_seed=3).winner is not None


def positions(players: int, seed: int, **settings: object) -> list[coup.State]:
    """Every decision point of a random game (copies), for handing to bots."""
    rng = random.Random(seed)
    state = coup.new_game(players=players, seed=seed, **settings)
    seen = []
    while not state.over:
        seen.append(state.clone())
        seat = state.waiting[0]
        state.play(seat, rng.choice(state.legal(seat)))
    return seen


def twins(players: int, seed: int, **settings: object) -> list[tuple[coup.State, coup.State]]:
    """Pairs of positions, seat 0 to move, from two games dealt differently (another
    seat's card and the Court's order differ) that look the same to seat 0."""
    rng = random.Random(seed)
    first = coup.new_game(players=players, seed=seed, **settings)
    deal = first.record()["deal"]
    hands = [list(hand) for hand in deal["hands"]]
    court = list(deal["court"])
    swap = next(i for i, card in enumerate(court) if card not in hands[1])
    hands[1][0], court[swap] = court[swap], hands[1][0]
    court.reverse()
    second = coup.new_game(
        players=players, seed=seed, deal={"hands": hands, "court": court}, **settings
    )
    pairs = []
    while not first.over and first.view(0) == second.view(0):
        if first.waiting[0] == 0:
            pairs.append((first.clone(), second.clone()))
        seat = first.waiting[0]
        move = rng.choice(first.legal(seat))
        if move not in second.legal(seat):
            break
        first.play(seat, move)
        second.play(seat, move)
    return pairs


@pytest.mark.parametrize(
    "name",
    ["random", "honest", "heuristic", "search", "easy", "medium:skeptic", "hard:vengeful"]
    + list(bots.STYLES),
)
def test_bots_use_only_their_view(name: str) -> None:
    """Two states dealt differently but looking the same to a seat get the same move."""
    checked = 0
    cases = [(2, {}), (2, {"draft": False}), (3, {"characters": "inquisitor"}), (4, {})]
    for players, settings in cases:
        for seed in range(6):
            for first, second in twins(players, seed, **settings):
                assert first.hands != second.hands or first.court != second.court
                a = make(name, seed=99).choose(first, 0)
                b = make(name, seed=99).choose(second, 0)
                assert a == b, (name, first, first.view(0))
                checked += 1
    assert checked > 40


def test_search_is_deterministic_for_a_seed() -> None:
    for state in positions(3, seed=4)[::7]:
        seat = state.waiting[0]
        first = bots.make("search", seed=7, sims=30).choose(state.clone(), seat)
        again = bots.make("search", seed=7, sims=30).choose(state.clone(), seat)
        assert first == again
    lineup = ["search:sims=10:worlds=5", "search:sims=10:worlds=5"]
    one = play_game(lineup, deal_seed=8, bot_seed=8, keep_record=True).record
    two = play_game(lineup, deal_seed=8, bot_seed=8, keep_record=True).record
    assert one == two


def test_search_is_deterministic_across_processes() -> None:
    """Same seed, same game, whatever the process's string hashing."""
    import os
    import subprocess
    import sys

    script = (
        "import json; from coup.bots.arena import play_game;"
        "r = play_game(['search:steps=500', 'heuristic', 'search:sims=15'], 3, 3, True);"
        "print(json.dumps(r.record['moves']))"
    )
    outputs = set()
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1


@pytest.mark.parametrize(("players", "reformation"), [(2, False), (4, False), (4, True)])
def test_bots_need_nothing_but_the_interface(players: int, reformation: bool) -> None:
    lineup = ["search", "heuristic", "honest", "easy", "random", "medium:bluffer"]
    lineup += ["hard:vengeful", *bots.STYLES]
    for game in range(2 if players == 2 else 3):
        state = coup.new_game(players=players, seed=game, reformation=reformation)
        seats = [make(lineup[(i + game * 4) % len(lineup)], seed=i) for i in range(players)]
        while not state.over:
            seat = state.waiting[0]
            state.play(seat, seats[seat].choose(GuardedWindow(state, seat), seat))
