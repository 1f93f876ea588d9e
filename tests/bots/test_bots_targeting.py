"""The search bot reads whom each opponent attacks from the public history alone."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import coup
from coup import Move, bots
from coup.bots.knowledge import Knowledge
from coup.bots.rollout import Playout
from coup.bots.search import SearchBot
from coup.bots.targeting import Ledger, Table, habits, read_table


def test_the_ledger_follows_every_coin_and_influence_from_the_public_moves() -> None:
    checked = 0
    for game in range(40):
        players = 2 + game % 5
        characters = "inquisitor" if game % 3 == 1 else "ambassador"
        reformation = game % 4 == 3  # conversions and embezzlements move coins too
        state = coup.new_game(
            players=players, seed=game, characters=characters, reformation=reformation
        )
        seats = [
            bots.make("medium" if s % 2 else "random", seed=game * 10 + s) for s in range(players)
        ]
        while not state.over:
            seat = state.waiting[0]
            state.play(seat, seats[seat].choose(state, seat))
            view = state.view(0)
            if view["pending"] is not None or view["phase"] != "action":
                continue
            ledger = Ledger(players, view["settings"]["first"])
            for entry in view["history"]:
                ledger.read(entry["seat"], str(entry["move"]).split())
            ledger.settle()
            for seat, player in enumerate(view["players"]):
                assert ledger.influence[seat] == player["influence"]
                if player["alive"]:
                    assert ledger.coins[seat] == player["coins"]
            checked += 1
    assert checked > 300


def positions(table: list[str], game: int) -> Iterator[coup.State]:
    """Each position of a four-player game (seed ``game``), the last one finished: the
    heuristic bot in seat 0 against three bots of ``table``."""
    state = coup.new_game(players=4, seed=game)
    seats = [bots.make("heuristic", seed=game)] + [
        bots.make(t, seed=game * 7 + i) for i, t in enumerate(table)
    ]
    while not state.over:
        seat = state.waiting[0]
        state.play(seat, seats[seat].choose(state, seat))
        yield state


def test_a_table_that_picks_on_the_weakest_is_seen_to_do_so() -> None:
    found = others = 0
    for game in range(12):
        for state in positions(["medium:cautious"] * 3, game):
            if state.phase == "action" and not state.over:
                seen = habits(state.view(0))
                found += sum(1 for habit in seen.values() if habit == "weakest")
                others += sum(1 for habit in seen.values() if habit != "weakest")
    assert found > 4 * max(1, others)
    # ... and the search bot's playouts then send those seats' attacks at the weakest.
    searcher = SearchBot(seed=1)
    searcher.read_opponents(Knowledge(state.view(0)))
    assert searcher.playout.habits is not None and "weakest" in searcher.playout.habits
    blind = SearchBot(seed=1, aim=0)  # search:aim=0, the side-by-side baseline
    blind.read_opponents(Knowledge(state.view(0)))
    assert blind.playout.habits is None


def test_a_table_that_goes_for_the_leader_shows_no_other_habit() -> None:
    others = 0
    for game in range(12):
        state = coup.new_game(players=4, seed=game)
        seats = [bots.make("medium:skeptic", seed=game * 7 + i) for i in range(4)]
        while not state.over:
            seat = state.waiting[0]
            state.play(seat, seats[seat].choose(state, seat))
        others += len(habits(state.view(0)))
    assert others <= 2


def read_after(table: list[str], games: int = 10) -> list[tuple[float, float]]:
    """(spite, grudge doubt) of each seat but 0, pooled over games: the heuristic bot in
    seat 0 against three of ``table``, each game's history read as seat 0 sees it."""
    hits = chances = doubts = doubt_chances = 0
    for game in range(games):
        *_, state = positions(table, game)
        read = read_table(state.view(0))
        hits += sum(read.spite_hits[1:])
        chances += sum(read.spite_chances[1:])
        doubts += sum(read.grudge_doubts[1:])
        doubt_chances += sum(read.grudge_chances[1:])
    return [(hits / max(1, chances), doubts / max(1, doubt_chances))]


def test_vengeful_players_are_seen_to_hit_back_and_to_doubt_whoever_hit_them() -> None:
    ((spite, doubt),) = read_after(["medium:vengeful"] * 3)
    ((calm_spite, calm_doubt),) = read_after(["medium:honest"] * 3)
    # A vengeful player's coups and assassinations go for its last attacker when the
    # leader rule would pick someone else; an honest one's hardly ever do.
    assert spite > 0.7
    assert calm_spite < 0.3
    # Holding a grudge against seat 0, it challenges seat 0's claims (60% in character).
    assert doubt > 0.35
    assert calm_doubt < 0.1


def test_spite_is_each_seats_own_evidence_then_the_tables_then_the_prior() -> None:
    table = Table({}, [None] * 4, [0] * 4, [0] * 4, [0] * 4, [0] * 4)
    assert table.spite(2, prior=0.1, weight=1.0) == 0.1  # nobody has shown anything
    table.spite_chances[1] = table.spite_hits[1] = 2
    assert table.spite(1, prior=0.1, weight=1.0) == pytest.approx((2 + 0.1) / (2 + 1))
    assert table.spite(2, prior=0.1, weight=1.0) == pytest.approx(
        (1 + 0.1) / (1 + 1)
    )  # half weight
    table.spite_hits[1] = 0
    assert table.spite(1, prior=0.1, weight=1.0) == pytest.approx(0.1 / 3)


def test_the_searchers_own_attack_makes_an_enemy_in_its_playouts() -> None:
    state = coup.new_game(players=4, seed=2)
    playout = Playout()
    playout.grudges = [None] * 4
    steal = Move("steal", 2)
    playout.run(state.clone(), random.Random(1), limit=0, root=(0, steal))
    assert playout.grudge == [None] * 4  # without spite the old playouts: no grudge kept
    playout.spite = playout.spite_me = [0.0, 1.0, 1.0, 1.0]
    playout.me = 0
    playout.run(state.clone(), random.Random(1), limit=0, root=(0, steal))
    assert playout.grudge == [None, None, 0, None]
    # ... and a seat that always hits back sends its coup at the searcher, not the leader.
    coups = [Move("coup", s) for s in (0, 1, 3)]
    assert playout.victim(state, 2, coups, random.Random(5)).arg == 0
    playout.spite_me = [0.0] * 4
    picks = {playout.victim(state, 2, coups, random.Random(r)).arg for r in range(20)}
    assert picks != {0}


def test_a_challenge_won_in_a_playout_makes_an_enemy_of_the_one_caught() -> None:
    state = coup.new_game(players=4, seed=0)
    assert "duke" not in state.hands[0]
    state.play(0, Move("tax"))  # a bluff ...
    state.play(1, Move("challenge"))  # ... caught: seat 0 must lose an influence
    assert state.phase == "prove" and state.waiting == (0,)
    playout = Playout()
    playout.grudges = [None] * 4
    playout.won_grudges = False
    playout.run(state.clone(), random.Random(1), limit=1)
    assert playout.grudge == [None] * 4  # the playouts before: only attacks made enemies
    playout.won_grudges = True
    playout.run(state.clone(), random.Random(1), limit=1)
    assert playout.grudge == [1, None, None, None]  # as at the table (Ledger, grudge())


def test_a_seat_that_hits_back_is_expected_to_doubt_whom_it_hits_back_at() -> None:
    table = Table({}, [None] * 4, [0] * 4, [0] * 4, [0] * 4, [0] * 4)
    searcher = SearchBot(seed=1)
    # No evidence: its challenges of the bot's claims, or the spite prior's share if more.
    assert searcher.grudge_prior(table, 2, 0.05) == pytest.approx(0.6 * 0.15)
    assert searcher.grudge_prior(table, 2, 0.2) == 0.2
    table.spite_chances[2] = table.spite_hits[2] = 2  # seat 2 hit back twice of two
    assert searcher.grudge_prior(table, 2, 0.05) == pytest.approx(0.6 * (2 + 0.15) / 3)
    assert searcher.grudge_prior(table, 1, 0.05) == pytest.approx(0.6 * (1 + 0.15) / 2)
    # search:doubt_spite=0: the bot before, which shrank towards its challenges alone.
    assert SearchBot(seed=1, doubt_spite=0).grudge_prior(table, 2, 0.05) == 0.05
