"""Story tests for Reformation (docs/rules.md, "Reformation"): one per clause."""

from __future__ import annotations

import json
import random

import pytest
from rules_helpers import give, hand, play, table

import coup
from coup.rules.narrate import describe

L, R = "loyalist", "reformist"


def reformed(hands: list[list[str]], first: str = L, **settings: object) -> coup.State:
    """A Reformation table with these hands, seat 0 first, its allegiance chosen."""
    s = table(hands, reformation=True, **settings)
    play(s, f"{s.settings.first} allegiance {first}")
    return s


def legal(s: coup.State, seat: int) -> list[str]:
    return [str(m) for m in s.legal(seat)]


def total(s: coup.State) -> int:
    return s.treasury + s.reserve + sum(s.coins)


FOUR = [
    ["duke", "captain"],
    ["assassin", "contessa"],
    ["captain", "contessa"],
    ["duke", "assassin"],
]


# ---------------------------------------------------------------- the setting


def test_reformation_is_off_by_default_and_leaves_no_trace() -> None:
    s = coup.new_game(players=4, seed=1)
    assert not s.settings.reformation and s.phase == "action"
    view, final = s.view(0), coup.final_state_json(s)
    assert "reserve" not in view and all("allegiance" not in p for p in view["players"])
    assert "reserve" not in final and all("allegiance" not in p for p in final["players"])
    assert "reformation" not in s.record()["settings"]
    assert not any(m.verb in ("convert", "embezzle") for m in s.legal(0))


@pytest.mark.parametrize("players", range(2, 11))
@pytest.mark.parametrize("characters", ["ambassador", "inquisitor"])
def test_it_combines_with_either_fifth_character_and_every_table_size(
    players: int, characters: str
) -> None:
    s = coup.new_game(players=players, seed=players, characters=characters, reformation=True)
    assert s.settings.reformation and s.phase == "allegiance" and s.reserve == 0
    assert s.record()["settings"]["reformation"] is True


def test_a_table_setting_that_is_not_a_boolean_is_refused() -> None:
    with pytest.raises(coup.SettingsError, match="reformation must be true or false"):
        coup.new_game(players=3, reformation=1)  # type: ignore[arg-type]


# ---------------------------------------------------------------- allegiance


def test_the_first_player_chooses_and_the_others_alternate_clockwise() -> None:
    s = coup.new_game(players=5, seed=2, first=3, reformation=True)
    assert s.phase == "allegiance" and s.waiting == (3,) and s.turn == 3
    assert legal(s, 3) == ["allegiance loyalist", "allegiance reformist"]
    assert [p["allegiance"] for p in s.view(None)["players"]] == [None] * 5
    play(s, "3 allegiance reformist")
    # seat 3 reformist, then clockwise: 4 loyalist, 0 reformist, 1 loyalist, 2 reformist
    assert s.allegiance == (R, L, R, R, L)
    assert s.phase == "action" and s.turn == 3


def test_the_choice_is_the_first_move_before_a_two_player_draft() -> None:
    s = coup.new_game(players=2, seed=4, reformation=True)
    assert s.settings.draft and s.phase == "allegiance" and s.waiting == (0,)
    play(s, "0 allegiance loyalist")
    assert s.phase == "draft" and s.waiting == (0, 1) and s.allegiance == (L, R)
    assert s.record()["moves"][0] == {"seat": 0, "move": "allegiance loyalist"}


# ---------------------------------------------------------------- the Reserve, conversion


def test_the_reserve_starts_empty_and_every_view_shows_it_and_the_allegiances() -> None:
    s = reformed(FOUR)
    for seat in (None, 0, 1, 2, 3):
        view = s.view(seat)
        assert view["reserve"] == 0
        assert [p["allegiance"] for p in view["players"]] == [L, R, L, R]


def test_converting_yourself_costs_one_coin_to_the_reserve() -> None:
    s = reformed(FOUR)
    assert "convert" in legal(s, 0)
    play(s, "0 convert")
    assert s.allegiance == (R, R, L, R) and s.coins[0] == 1 and s.reserve == 1
    assert s.turn == 1 and total(s) == 50  # no claim: nobody may challenge or block it


def test_converting_another_living_player_costs_two() -> None:
    s = reformed(FOUR)
    assert [m for m in legal(s, 0) if m.startswith("convert")] == [
        "convert", "convert 1", "convert 2", "convert 3"]  # fmt: skip
    play(s, "0 convert 3")
    assert s.allegiance == (L, R, L, L) and s.coins[0] == 0 and s.reserve == 2
    assert s.turn == 1 and total(s) == 50


def test_conversion_needs_the_coins_and_a_living_target() -> None:
    s = reformed(FOUR)
    give(s, 0, 1)
    assert [m for m in legal(s, 0) if m.startswith("convert")] == ["convert"]
    give(s, 0, 0)
    assert not [m for m in legal(s, 0) if m.startswith("convert")]
    give(s, 0, 7)
    play(s, "0 coup 1", "1 lose assassin", "1 income", "2 income", "3 income")
    give(s, 0, 7)
    play(s, "0 coup 1")  # the last card: forced, and out
    assert not s.alive(1) and s.turn == 2
    assert [m for m in legal(s, 2) if m.startswith("convert")] == [
        "convert", "convert 3", "convert 0"]  # fmt: skip
    with pytest.raises(coup.IllegalMoveError):
        s.play(2, "convert 1")


# ---------------------------------------------------------------- the restriction


def test_no_coup_assassination_or_steal_against_your_own_allegiance() -> None:
    s = reformed(FOUR)
    give(s, 0, 7)
    moves = legal(s, 0)
    assert "coup 1" in moves and "coup 3" in moves and "coup 2" not in moves
    assert "assassinate 1" in moves and "assassinate 2" not in moves
    assert "steal 3" in moves and "steal 2" not in moves
    with pytest.raises(coup.IllegalMoveError):
        s.play(0, "steal 2")


def test_no_examine_of_your_own_allegiance() -> None:
    s = reformed(FOUR, characters="inquisitor")
    moves = legal(s, 0)
    assert "examine 1" in moves and "examine 3" in moves and "examine 2" not in moves


def test_ten_coins_force_a_coup_on_the_other_allegiance() -> None:
    s = reformed(FOUR)
    give(s, 0, 10)
    assert legal(s, 0) == ["coup 1", "coup 3"]


def test_only_the_other_allegiance_is_asked_to_block_foreign_aid() -> None:
    s = reformed(FOUR)
    play(s, "0 foreign_aid")
    assert s.waiting == (1, 3)  # seat 2 shares seat 0's allegiance: not asked
    play(s, "1 pass", "3 block duke", "0 pass", "1 pass", "2 pass")
    assert s.coins[0] == 2 and s.turn == 1


def test_the_restriction_is_lifted_while_all_living_players_share_one_allegiance() -> None:
    s = reformed([["duke", "captain"], ["assassin", "contessa"], ["captain", "contessa"]])
    assert "steal 2" not in legal(s, 0)
    play(s, "0 convert 1")  # every one a loyalist
    assert s.allegiance == (L, L, L)
    assert "steal 2" in legal(s, 1) and "steal 0" in legal(s, 1)
    play(s, "1 foreign_aid")
    assert s.waiting == (2, 0)  # and everyone may block
    play(s, "2 pass", "0 pass", "2 convert")  # checked again after a conversion
    assert s.allegiance == (L, L, R) and "steal 1" not in legal(s, 0)
    play(s, "0 foreign_aid")
    assert s.waiting == (2,)


def test_it_is_checked_again_after_an_elimination() -> None:
    # L R L R: once both reformists are out, the two loyalists may act on each other
    s = reformed([["duke", "captain"], ["assassin", "assassin"], ["captain", "contessa"],
                  ["duke", "duke"]])  # fmt: skip
    give(s, 0, 7)
    play(s, "0 coup 1", "1 income")  # two alike: the loss is forced
    give(s, 2, 7)
    play(s, "2 coup 1", "3 income")
    assert not s.alive(1) and "steal 2" not in legal(s, 0)
    give(s, 0, 7)
    play(s, "0 coup 3")
    give(s, 2, 7)
    play(s, "2 coup 3")
    assert not s.alive(3) and s.turn == 0
    assert "steal 2" in legal(s, 0)


def test_challenges_are_never_restricted() -> None:
    s = reformed(FOUR)
    play(s, "0 tax")
    assert "challenge" in legal(s, 2)  # seat 2 shares seat 0's allegiance


# ---------------------------------------------------------------- embezzlement


def test_embezzle_needs_coins_on_the_reserve() -> None:
    s = reformed(FOUR)
    assert "embezzle" not in legal(s, 0)
    play(s, "0 convert")
    assert "embezzle" in legal(s, 1)


def test_an_unchallenged_embezzlement_takes_the_whole_reserve_and_cannot_be_blocked() -> None:
    s = reformed(FOUR)
    play(s, "0 convert 1", "1 convert")
    assert s.reserve == 3
    play(s, "2 embezzle")
    assert s.waiting == (3, 0, 1) and legal(s, 3) == ["pass", "challenge"]
    play(s, "3 pass", "0 pass", "1 pass")
    assert s.coins[2] == 5 and s.reserve == 0 and total(s) == 50


def test_a_challenged_duke_holder_loses_an_influence_and_takes_nothing() -> None:
    s = reformed(FOUR)
    play(s, "0 convert 1", "1 convert", "2 income")
    play(s, "3 embezzle", "1 challenge")
    assert s.phase == "lose" and s.waiting == (3,)  # no reveal step
    assert legal(s, 3) == ["lose assassin", "lose duke"]  # their choice
    assert s.view(0)["known"]["hands"] == {"3": ["duke"]}  # a Duke was shown to be there
    assert s.view(None)["known"]["hands"] == {"3": ["duke"]}
    play(s, "3 lose assassin")
    assert s.coins[3] == 2 and s.reserve == 3 and s.turn == 0 and total(s) == 50
    assert s.view(1)["known"]["hands"] == {"3": ["duke"]}  # the card left is that Duke
    d = s.determinize(1, random.Random(1))
    assert d.hands[3] == ("duke",)


def test_a_failed_challenge_costs_the_challenger_then_the_hand_is_redrawn() -> None:
    s = reformed(FOUR)
    play(s, "0 convert 1", "1 convert")  # reserve 3
    play(s, "2 embezzle", "0 challenge")
    assert s.phase == "lose" and s.waiting == (0,) and s.loser == 0
    assert hand(s, 2) == ["captain", "contessa"]  # not yet redrawn
    s._pins = ["assassin", "duke"]
    play(s, "0 lose captain")
    assert hand(s, 2) == ["assassin", "duke"]  # the whole hand went back, shuffled, redrawn
    assert s.coins[2] == 5 and s.reserve == 0 and s.turn == 3 and total(s) == 50
    record = s.record()
    assert record["moves"][-1] == {"seat": 0, "move": "lose captain", "draw": ["assassin", "duke"]}
    again = coup.replay(json.loads(json.dumps(record)))
    assert again.hands == s.hands and again.view(None) == s.view(None)


def test_the_redraw_after_a_forced_loss_is_pinned_on_the_last_recorded_move() -> None:
    s = reformed(FOUR)
    play(s, "0 convert 1", "1 convert")
    s.hands[0], s.revealed[0] = ("duke",), ("captain",)
    play(s, "2 embezzle", "0 challenge")  # seat 0's last card goes: forced, and out
    assert not s.alive(0) and s.coins[2] == 5 and s.turn == 3
    last = s.record()["moves"][-1]
    assert last["move"] == "challenge" and len(last["draw"]) == 2


def test_a_challenge_that_ends_the_game_resolves_nothing_more() -> None:
    s = reformed([["duke", "captain"], ["captain", "contessa"]], draft=False)
    play(s, "0 convert")  # the starting player of two has 1 coin
    s.hands[0], s.revealed[0] = ("duke",), ("captain",)
    play(s, "1 embezzle", "0 challenge")
    assert s.over and s.winner == 1
    assert s.reserve == 1 and s.coins[1] == 2 and hand(s, 1) == ["captain", "contessa"]
    assert total(s) == 50


def test_during_the_challengers_loss_everyone_knows_the_embezzler_has_no_duke() -> None:
    s = reformed(FOUR)
    play(s, "0 convert 1", "1 convert", "2 embezzle", "0 challenge")
    assert s.phase == "lose" and s.waiting == (0,)
    for seed in range(60):
        for seat in (None, 0, 1, 3):
            assert "duke" not in s.determinize(seat, random.Random(seed)).hands[2]


# ---------------------------------------------------------------- notation and words


def test_the_new_moves_in_notation() -> None:
    for text in ["allegiance loyalist", "allegiance reformist", "convert", "convert 3", "embezzle"]:
        assert str(coup.Move.parse(text)) == text
    assert coup.Move.parse("convert 3") == coup.Move("convert", 3)
    for bad in ["allegiance", "allegiance catholic", "convert x", "convert 1 2", "embezzle 1",
                "convert 01", "convert ²"]:  # fmt: skip
        with pytest.raises(coup.InvalidMoveError):
            coup.Move.parse(bad)


def test_the_game_is_told_in_words() -> None:
    s = reformed(FOUR, names=["Sara", "Dara", "Mina", "Azar"])
    play(s, "0 convert 1", "1 convert", "2 embezzle", "0 challenge")
    s._pins = ["captain", "contessa"]
    play(s, "0 lose captain", "3 convert", "0 income", "1 embezzle", "2 challenge")
    play(s, "2 lose contessa", "2 convert", "3 embezzle", "0 challenge", "3 lose assassin")
    lines = describe(s.view(None)["history"], s.names)
    assert lines == [
        "Sara chooses Loyalist; allegiances alternate clockwise.",
        "Sara pays 2 to convert Dara to Loyalist.",
        "Dara pays 1 to convert to Reformist.",
        "Mina embezzles 3 from the Reserve, claiming no Duke.",
        "Sara challenges Mina.",
        "Mina had no Duke: Sara loses Captain.",
        "Azar pays 1 to convert to Loyalist.",
        "Sara takes income.",
        "Dara embezzles 1 from the Reserve, claiming no Duke.",
        "Mina challenges Dara.",
        "Dara had no Duke: Mina loses Contessa.",
        "Mina pays 1 to convert to Reformist.",
        "Azar embezzles 1 from the Reserve, claiming no Duke.",
        "Sara challenges Azar.",
        "Azar had a Duke: Azar loses Assassin.",
    ]
