"""Story tests: one per clause of docs/rules.md, each a small game that reads like the rule."""

from __future__ import annotations

import pytest
from rules_helpers import give, hand, play, table

import coup

# ---------------------------------------------------------------- cards, coins, players


def test_five_characters_three_copies_for_up_to_six_players() -> None:
    s = coup.new_game(players=6, seed=3)
    cards = [c for h in s.hands for c in h] + s.court
    assert sorted(cards) == sorted(["duke", "assassin", "captain", "ambassador", "contessa"] * 3)


def test_inquisitor_replaces_the_ambassador() -> None:
    s = coup.new_game(players=4, seed=3, characters="inquisitor")
    cards = [c for h in s.hands for c in h] + s.court
    assert "ambassador" not in cards and cards.count("inquisitor") == 3


@pytest.mark.parametrize(("players", "copies"), [(6, 3), (7, 4), (8, 4), (9, 5), (10, 5)])
def test_copies_grow_with_the_table(players: int, copies: int) -> None:
    s = coup.new_game(players=players, seed=1)
    assert s.settings.copies == copies
    assert len(s.court) + 2 * players == 5 * copies


def test_a_table_may_choose_more_copies_never_fewer() -> None:
    assert coup.new_game(players=4, seed=1, copies=4).settings.copies == 4
    with pytest.raises(coup.SettingsError, match="copies must be 4"):
        coup.new_game(players=7, copies=3)
    for bad in (1, 11):
        with pytest.raises(coup.SettingsError, match="players must be 2"):
            coup.new_game(players=bad)


def test_treasury_holds_fifty_coins_and_coins_are_public() -> None:
    s = coup.new_game(players=5, seed=2)
    assert s.coins == [2] * 5 and s.treasury == 40
    assert all(p["coins"] == 2 for p in s.view(3)["players"])


# ---------------------------------------------------------------- setup, two players


def test_each_player_is_dealt_two_cards_and_the_rest_is_the_court() -> None:
    s = coup.new_game(players=3, seed=5)
    assert all(len(h) == 2 for h in s.hands) and len(s.court) == 9


def test_two_players_the_starting_player_begins_with_one_coin() -> None:
    s = coup.new_game(players=2, seed=1, draft=False, first=1)
    assert s.coins == [2, 1] and s.turn == 1


def test_two_player_draft_deal() -> None:
    s = coup.new_game(players=2, seed=9)
    assert s.settings.draft and s.phase == "draft"
    assert [len(h) for h in s.hands] == [1, 1] and len(s.court) == 3
    # one pile of one card per character: the two dealt cards and the Court
    assert sorted([c for h in s.hands for c in h] + s.court) == sorted(s.settings.in_play)
    assert s.waiting == (0, 1)
    assert [str(m) for m in s.legal(1)] == [f"draft {c}" for c in s.settings.in_play]
    dealt = s.hands[1][0]
    s.play(1, "draft duke")
    assert s.view(0)["history"] == [{"seat": 1, "move": "draft"}]  # hidden from the other
    assert s.view(1)["history"] == [{"seat": 1, "move": "draft duke"}]
    s.play(0, "draft contessa")
    assert s.phase == "action" and s.turn == 0
    assert sorted(s.hands[1]) == sorted([dealt, "duke"])


# ---------------------------------------------------------------- influence


def test_losing_influence_is_your_choice_of_card() -> None:
    s = table([["duke", "captain"], ["assassin", "contessa"]], draft=False)
    give(s, 0, 7)
    play(s, "0 coup 1")
    assert s.waiting == (1,) and {str(m) for m in s.legal(1)} == {"lose assassin", "lose contessa"}
    play(s, "1 lose contessa")
    assert s.hands[1] == ("assassin",) and s.revealed[1] == ("contessa",)


def test_a_player_with_no_face_down_cards_is_out_and_the_last_one_wins() -> None:
    s = table([["duke", "captain"], ["assassin"] * 2, ["contessa", "duke"]])
    give(s, 0, 7)
    play(s, "0 coup 1")  # both cards alike: the loss is forced
    give(s, 2, 7)
    play(s, "1 income", "2 coup 1")
    assert not s.alive(1) and s.view(None)["history"][-1]["out"]
    give(s, 0, 7)
    give(s, 2, 7)
    play(s, "0 coup 2", "2 lose duke", "2 coup 0", "0 lose duke")
    give(s, 0, 7)
    play(s, "0 coup 2")
    assert s.over and s.winner == 0 and s.waiting == ()


def test_an_eliminated_players_coins_go_back_after_the_action_resolves() -> None:
    # Sepideh steals from Bahareh, whose failed block costs her last card: the steal
    # still takes her 2 coins (seeds/000), and only then do the rest go to the treasury.
    s = table([["duke", "contessa"], ["captain", "duke"], ["assassin", "duke"]])
    s.hands[2] = ("assassin",)
    s.revealed[2] = ("duke",)
    give(s, 2, 3)
    s.turn, s.waiting = 1, (1,)
    play(s, "1 steal 2", "2 block captain", "1 challenge")
    assert not s.alive(2) and s.coins == [2, 4, 0] and s.treasury == 50 - 6


# ---------------------------------------------------------------- a turn: general actions


def test_income_takes_one_coin() -> None:
    s = play(
        table([["duke", "captain"], ["assassin", "contessa"], ["duke", "captain"]]), "0 income"
    )
    assert s.coins[0] == 3 and s.turn == 1


def test_foreign_aid_takes_two_and_any_other_player_may_block_as_duke() -> None:
    s = table([["duke", "captain"], ["assassin", "contessa"], ["duke", "captain"]])
    play(s, "0 foreign_aid")
    assert s.waiting == (1, 2)
    assert [str(m) for m in s.legal(2)] == ["pass", "block duke"]  # not a claim: no challenge
    play(s, "2 block duke", "0 pass", "1 pass")
    assert s.coins[0] == 2 and s.turn == 1
    play(s, "1 foreign_aid", "2 pass", "0 pass")
    assert s.coins[1] == 4


def test_coup_costs_seven_and_cannot_be_blocked() -> None:
    s = table([["duke", "captain"], ["assassin", "contessa"], ["duke", "captain"]])
    assert not any(m.verb == "coup" for m in s.legal(0))
    give(s, 0, 7)
    play(s, "0 coup 2")
    assert s.coins[0] == 0 and s.waiting == (2,) and s.phase == "lose"


def test_ten_coins_force_a_coup() -> None:
    s = table([["duke", "captain"], ["assassin", "contessa"], ["duke", "captain"]])
    give(s, 0, 10)
    assert [str(m) for m in s.legal(0)] == ["coup 1", "coup 2"]
    with pytest.raises(coup.IllegalMoveError):
        s.play(0, "tax")


def test_a_forced_coup_against_the_last_opponent_is_played_by_the_engine() -> None:
    s = table([["duke", "captain"], ["assassin", "contessa"]], draft=False)
    give(s, 1, 9)
    play(s, "0 income", "1 income")  # 10 coins at the start of seat 1's next turn
    play(s, "0 income")
    assert s.phase == "lose" and s.waiting == (0,)  # seat 1's coup was forced
    assert s.history[-1][1] == coup.Move("coup", 0) and s.history[-1][2]


# ---------------------------------------------------------------- character actions


def test_tax_claims_duke_and_takes_three() -> None:
    s = play(table([["duke", "captain"], ["assassin", "contessa"]], draft=False), "0 tax", "1 pass")
    assert s.coins[0] == 4  # the starting player of two began with 1


def test_assassinate_pays_three_and_the_target_loses_influence() -> None:
    s = table([["assassin", "captain"], ["duke", "contessa"], ["duke", "captain"]])
    give(s, 0, 3)
    play(s, "0 assassinate 1")
    assert s.coins[0] == 0 and s.treasury == 46
    assert [str(m) for m in s.legal(1)] == ["pass", "challenge", "block contessa"]
    assert [str(m) for m in s.legal(2)] == ["pass", "challenge"]  # only the target blocks
    play(s, "1 pass", "2 pass", "1 lose duke")
    assert s.hands[1] == ("contessa",)


def test_a_blocked_assassination_loses_its_coins() -> None:
    s = table([["assassin", "captain"], ["duke", "contessa"], ["duke", "captain"]])
    give(s, 0, 3)
    play(s, "0 assassinate 1", "1 block contessa", "0 pass", "2 pass")
    assert s.coins[0] == 0 and hand(s, 1) == ["contessa", "duke"] and s.turn == 1


@pytest.mark.parametrize(("target_coins", "taken"), [(5, 2), (1, 1), (0, 0)])
def test_steal_takes_two_or_what_there_is(target_coins: int, taken: int) -> None:
    s = table([["captain", "duke"], ["duke", "contessa"], ["duke", "captain"]])
    give(s, 1, target_coins)
    play(s, "0 steal 1", "1 pass", "2 pass")
    assert s.coins[0] == 2 + taken and s.coins[1] == target_coins - taken


@pytest.mark.parametrize(("variant", "blockers"), [
    ("ambassador", ["captain", "ambassador"]), ("inquisitor", ["captain", "inquisitor"])])  # fmt: skip
def test_steal_is_blocked_by_captain_and_the_fifth_character(
    variant: str, blockers: list[str]
) -> None:
    s = coup.new_game(players=3, seed=1, characters=variant)
    play(s, "0 steal 1")
    assert [str(m) for m in s.legal(1)] == ["pass", "challenge"] + [f"block {c}" for c in blockers]


def test_ambassador_exchange_draws_two_and_keeps_as_many_as_influence() -> None:
    s = table([["ambassador", "duke"], ["duke", "contessa"], ["duke", "captain"]],
              ["assassin", "contessa"] + ["ambassador"] * 2 + ["captain"] * 2 + ["assassin"] * 2 + ["contessa"])  # fmt: skip
    play(s, "0 exchange", "1 pass", "2 pass")
    assert s.view(0)["private"]["drawn"] == ["assassin", "contessa"]
    assert s.view(1)["private"] == {} and s.view(None)["private"] == {}
    keeps = [str(m) for m in s.legal(0)]
    assert "keep assassin contessa" in keeps and "keep ambassador duke" in keeps and len(keeps) == 6
    play(s, "0 keep assassin duke")
    assert hand(s, 0) == ["assassin", "duke"] and len(s.court) == 9
    assert s.view(0)["known"]["court"] == ["ambassador", "contessa"]
    assert s.view(1)["history"][-1] == {"seat": 0, "move": "keep"}


def test_inquisitor_exchange_draws_one() -> None:
    s = coup.new_game(players=3, seed=4, characters="inquisitor")
    play(s, "0 exchange", "1 pass", "2 pass")
    assert len(s.view(0)["private"]["drawn"]) == 1
    assert all(len(m.arg) == 2 for m in s.legal(0))  # type: ignore[arg-type]


def test_examine_the_target_shows_a_card_of_their_choice_then_return_or_swap() -> None:
    s = table(
        [["inquisitor", "duke"], ["captain", "contessa"], ["duke", "assassin"]],
        characters="inquisitor",
    )
    play(s, "0 examine 1", "1 pass", "2 pass")
    assert s.phase == "show" and s.waiting == (1,)
    play(s, "1 show contessa")
    assert s.view(0)["private"] == {"shown": {"seat": 1, "card": "contessa"}}
    assert s.view(2)["private"] == {} and s.view(2)["history"][-1]["move"] == "show"
    play(s, "0 return")
    assert s.view(0)["known"]["hands"] == {"1": ["contessa"]} and hand(s, 1) == [
        "captain",
        "contessa",
    ]
    play(s, "1 income", "2 income", "0 examine 1", "1 pass", "2 pass", "1 show captain")
    court_before = len(s.court)
    s._pins = ["duke"]
    play(s, "0 swap")
    assert hand(s, 1) == ["contessa", "duke"] and len(s.court) == court_before
    assert s.view(0)["known"]["hands"] == {}  # the hand changed: what was known is gone


# ---------------------------------------------------------------- counteractions


def test_a_block_is_a_claim_and_can_be_challenged_by_anyone_but_the_blocker() -> None:
    s = table([["captain", "duke"], ["duke", "contessa"], ["duke", "captain"]])
    play(s, "0 steal 1", "1 block captain")
    assert s.phase == "challenge_block" and s.waiting == (0, 2)
    play(s, "2 challenge", "1 lose duke")  # not proved: the block fails, the steal goes ahead
    assert s.coins[:2] == [4, 0]


def test_a_block_ends_the_chance_to_challenge_the_action() -> None:
    s = table([["captain", "duke"], ["duke", "contessa"], ["duke", "captain"]])
    play(s, "0 steal 1", "1 block ambassador")
    assert all(str(m) != "challenge" or s.phase == "challenge_block" for m in s.legal(2))
    play(s, "0 pass", "2 pass")
    assert s.coins[:2] == [2, 2] and s.turn == 1


# ---------------------------------------------------------------- challenges


def test_any_other_player_may_challenge_first_challenge_wins() -> None:
    s = table([["duke", "captain"], ["assassin", "contessa"], ["duke", "captain"]])
    play(s, "0 tax")
    assert s.waiting == (1, 2)
    play(s, "2 challenge")
    assert s.phase == "prove" and s.waiting == (0,) and s.challenger == 2
    with pytest.raises(coup.IllegalMoveError, match="not their decision"):
        s.play(1, "challenge")


def test_a_proved_claim_costs_the_challenger_and_the_card_is_redrawn() -> None:
    s = table([["duke", "captain"], ["assassin", "contessa"], ["duke", "captain"]])
    play(s, "0 tax", "1 challenge")
    s._pins = ["ambassador"]
    play(s, "0 reveal duke")
    assert hand(s, 0) == ["ambassador", "captain"] and "duke" in s.court
    assert s.phase == "lose" and s.waiting == (1,)
    play(s, "1 lose assassin")
    assert s.coins[0] == 5 and s.turn == 1  # then the action goes ahead


def test_declining_to_prove_loses_and_a_failed_action_refunds_its_coins() -> None:
    s = table([["assassin", "captain"], ["duke", "contessa"], ["duke", "captain"]])
    give(s, 0, 3)
    play(s, "0 assassinate 1", "2 challenge")
    assert [str(m) for m in s.legal(0)] == ["reveal assassin", "lose assassin", "lose captain"]
    play(s, "0 lose captain")  # does not want to prove it
    assert s.coins[0] == 3 and hand(s, 1) == ["contessa", "duke"] and s.turn == 1


def test_double_loss_challenging_a_true_assassin() -> None:
    s = table([["assassin", "captain"], ["duke", "contessa"], ["duke", "captain"]])
    give(s, 0, 3)
    play(s, "0 assassinate 1", "1 challenge", "0 reveal assassin", "1 lose duke")
    assert s.phase == "block" and [str(m) for m in s.legal(1)] == ["pass", "block contessa"]
    play(s, "1 pass")  # the last card goes to the assassination (forced)
    assert not s.alive(1) and s.revealed[1] == ("contessa", "duke")


def test_double_loss_bluffing_contessa() -> None:
    s = table([["assassin", "captain"], ["duke", "captain"], ["duke", "captain"]])
    give(s, 0, 3)
    play(s, "0 assassinate 1", "1 block contessa", "0 challenge", "1 lose duke")
    assert not s.alive(1) and s.coins[0] == 0


def test_after_a_failed_challenge_the_target_may_still_block() -> None:
    s = table([["captain", "duke"], ["captain", "contessa"], ["duke", "assassin"]])
    play(s, "0 steal 1", "2 challenge", "0 reveal captain", "2 lose duke")
    assert s.phase == "block" and s.waiting == (1,)
    play(s, "1 block captain", "0 pass", "2 pass")
    assert s.coins[:2] == [2, 2]


# ---------------------------------------------------------------- order, treasury, turns


def test_takes_from_the_treasury_are_capped_at_what_it_holds() -> None:
    s = coup.new_game(players=3, seed=1, treasury=7)  # 6 coins dealt, 1 left
    play(s, "0 tax", "1 pass", "2 pass")
    assert s.coins[0] == 3 and s.treasury == 0
    play(s, "1 income")
    assert s.coins[1] == 2


def test_the_turn_passes_clockwise_to_the_next_player_still_in() -> None:
    s = table([["duke", "captain"], ["assassin", "assassin"], ["duke", "captain"]])
    give(s, 0, 7)
    play(s, "0 coup 1")  # forced loss
    give(s, 0, 7)
    play(s, "1 income", "2 income", "0 coup 1")
    assert not s.alive(1) and s.turn == 2


def test_an_illegal_move_says_why_and_changes_nothing() -> None:
    s = coup.new_game(players=3, seed=1)
    before = s.view(None)
    with pytest.raises(coup.IllegalMoveError, match="not their decision"):
        s.play(1, "income")
    with pytest.raises(coup.IllegalMoveError, match="legal:"):
        s.play(0, "coup 1")
    with pytest.raises(coup.InvalidMoveError, match="unknown verb"):
        s.play(0, "fly")
    with pytest.raises(coup.InvalidMoveError, match="unknown character"):
        s.play(0, "block queen")
    with pytest.raises(ValueError):
        s.play(0, "steal 0")  # yourself
    assert s.view(None) == before


def test_notation_round_trips() -> None:
    for text in [
        "income",
        "steal 2",
        "block ambassador",
        "keep contessa duke",
        "keep duke",
        "draft duke",
    ]:
        assert str(coup.Move.parse(text)) == text
    assert str(coup.Move.parse("keep duke contessa")) == "keep contessa duke"  # any order
    for bad in ["", "steal", "steal x", "steal  2", "keep", "keep a b c", "income 1", "steal 01"]:
        with pytest.raises(coup.InvalidMoveError):
            coup.Move.parse(bad)
