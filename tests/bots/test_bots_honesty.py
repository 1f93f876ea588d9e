"""Honest never bluffs; heuristic never bluffs a character whose copies are all visible."""

from __future__ import annotations

from collections import Counter

import pytest

import coup
from coup import bots
from coup.rules.cards import blockers_of, claim_of


def claimed(state: coup.State, move: coup.Move) -> str | None:
    """The character a move claims (an action's or a block's), else None."""
    if move.verb == "block":
        return str(move.arg)
    if state.phase == "action":
        return claim_of(move.verb, state.variant)
    return None


def all_cards(state: coup.State) -> Counter[str]:
    cards: Counter[str] = Counter(state.court)
    for seat in range(state.players):
        cards.update(state.hands[seat])
        cards.update(state.revealed[seat])
    cards.update(state.drawn)
    return cards


def copies_for(state: coup.State, seat: int, character: str) -> int:
    """Copies of ``character`` that ``seat`` must reckon with: all of them, or after a
    two-player draft the pile's one plus its own pick plus whatever the others picked."""
    if not state.settings.draft:
        return all_cards(state)[character]
    others = sum(1 for other, pick in enumerate(state.picks) if other != seat and pick)
    return 1 + (state.picks[seat] == character) + others


def watch(lineup: list[str], games: int, check, **settings: object) -> int:  # type: ignore[no-untyped-def]
    """Play games; call ``check(state, seat, move)`` before each move of a watched bot."""
    claims = 0
    for game in range(games):
        state = coup.new_game(players=len(lineup), seed=game, **settings)
        players = [bots.make(name, seed=game * 10 + i) for i, name in enumerate(lineup)]
        while not state.over:
            seat = state.waiting[0]
            move = players[seat].choose(state, seat)
            claims += check(state, seat, move, lineup[seat])
            state.play(seat, move)
    return claims


@pytest.mark.parametrize("settings", [{}, {"characters": "inquisitor"}, {"draft": False}])
def test_honest_never_bluffs(settings: dict) -> None:
    def check(state: coup.State, seat: int, move: coup.Move, name: str) -> int:
        character = claimed(state, move)
        if name != "honest" or character is None:
            return 0
        assert character in state.hands[seat], (move, state.hands[seat])
        return 1

    assert watch(["honest", "heuristic", "honest", "random"], 30, check, **settings) > 100
    assert watch(["honest", "heuristic"], 30, check, **settings) > 30


def test_honest_challenges_only_provable_lies() -> None:
    def check(state: coup.State, seat: int, move: coup.Move, name: str) -> int:
        if name != "honest" or move.verb != "challenge":
            return 0
        if state.phase == "challenge_block":
            claimant, character = state.block_seat, state.block_claim
        else:
            claimant, character = state.actor, state.claim
        assert character not in state.hands[claimant]
        return 1

    watch(["honest", "heuristic", "random"], 30, check)


@pytest.mark.parametrize("settings", [{}, {"draft": False}, {"characters": "inquisitor"}])
def test_heuristic_never_bluffs_a_character_all_of_whose_copies_are_visible(
    settings: dict,
) -> None:
    def check(state: coup.State, seat: int, move: coup.Move, name: str) -> int:
        character = claimed(state, move)
        if name != "heuristic" or character is None or character in state.hands[seat]:
            return 0
        visible = sum(r.count(character) for r in state.revealed)
        visible += state.hands[seat].count(character)
        assert visible < copies_for(state, seat, character), (move, state.hands[seat])
        return 1

    bluffs = watch(["heuristic", "heuristic", "random", "heuristic"], 40, check, **settings)
    bluffs += watch(["heuristic", "heuristic"], 60, check, **settings)
    assert bluffs > 20  # it does bluff, just never a provable lie


def test_blockers_table_matches_engine() -> None:
    from coup.bots import knowledge

    for variant in ("ambassador", "inquisitor"):
        for action in ("foreign_aid", "assassinate", "steal", "tax", "exchange"):
            assert knowledge.blockers_of(action, variant) == blockers_of(action, variant)
            assert knowledge.claim_of(action, variant) == claim_of(action, variant)


def test_heuristic_decides_per_game_whether_to_bluff() -> None:
    bot = bots.make("heuristic", seed=3)
    other = bots.make("heuristic", seed=4)
    decided = []
    for game in range(24):
        state = coup.new_game(players=2, seed=game)
        seen = set()
        while not state.over:
            seat = state.waiting[0]
            if seat == 0:
                move = bot.choose(state, 0)
                seen.add(bot.bluffer)  # type: ignore[attr-defined]
            else:
                move = other.choose(state, 1)
            state.play(seat, move)
        assert len(seen) == 1  # one decision for the whole game
        decided += seen
    assert 4 <= sum(decided) <= 20  # about half the games


def test_two_honest_bots_do_not_block_each_other_for_ever() -> None:
    """Both hold Assassin and Contessa: assassinations get blocked, so they stop trying."""
    court = ["duke"] * 3 + ["captain"] * 3 + ["ambassador"] * 3 + ["assassin", "contessa"]
    hands = [["assassin", "contessa"], ["assassin", "contessa"]]
    for seed in range(5):
        state = coup.new_game(
            players=2, seed=seed, draft=False, deal={"hands": hands, "court": court}
        )
        players = [bots.make("honest", seed=seed), bots.make("honest", seed=seed + 1)]
        for _ in range(300):
            if state.over:
                break
            seat = state.waiting[0]
            state.play(seat, players[seat].choose(state, seat))
        assert state.over
