"""The search bot reads whom each opponent attacks from the public history alone."""

from __future__ import annotations

import coup
from coup import bots
from coup.bots.knowledge import Knowledge
from coup.bots.search import SearchBot
from coup.bots.targeting import Ledger, habits


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


def test_a_table_that_picks_on_the_weakest_is_seen_to_do_so() -> None:
    found = others = 0
    for game in range(12):
        table = ["medium:cautious"] * 3
        state = coup.new_game(players=4, seed=game)
        seats = [bots.make("heuristic", seed=game)] + [
            bots.make(t, seed=game * 7 + i) for i, t in enumerate(table)
        ]
        while not state.over:
            seat = state.waiting[0]
            state.play(seat, seats[seat].choose(state, seat))
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
