"""What bots read from a view: claims, caught bluffs, card counting, and the belief."""

from __future__ import annotations

import random

import coup
from coup import bots
from coup.bots.knowledge import BLUFF_ODDS, Knowledge
from coup.bots.search import SearchBot

HANDS = [["contessa", "duke"], ["assassin", "captain"], ["ambassador", "duke"]]
COURT = ["assassin", "assassin", "captain", "captain", "ambassador", "ambassador"]
COURT += ["contessa", "contessa", "duke"]


def scripted() -> coup.State:
    """Seat 0 taxes (true); seat 1 taxes (a bluff), is challenged by seat 2 and caught."""
    state = coup.new_game(players=3, seed=1, deal={"hands": HANDS, "court": COURT})
    for seat, move in [
        (0, "tax"), (1, "pass"), (2, "pass"),
        (1, "tax"), (2, "challenge"), (1, "lose captain"),
    ]:  # fmt: skip
        state.play(seat, move)
    return state


def test_claims_and_caught_bluffs_are_read_from_the_history() -> None:
    know = Knowledge(scripted().view(2))
    assert know.claims(0) == {"duke"}
    assert know.caught(1) == {"duke"} and know.claims(1) == set()
    assert know.cards == ["ambassador", "duke"]
    assert know.revealed["captain"] == 1
    assert know.unseen("duke") == 2 and know.unseen("captain") == 2
    assert not know.provably_false(0, "duke")
    assert know.likelihood(0, ("captain", "contessa")) == BLUFF_ODDS
    assert know.likelihood(0, ("contessa", "duke")) == 1.0


def test_provable_lies_by_counting_cards() -> None:
    """Seat 0 exchanges into two Dukes and puts the third back: seat 1's Duke is a lie."""
    hands = [["ambassador", "duke"], ["assassin", "captain"], ["contessa", "contessa"]]
    court = ["duke", "duke", "assassin", "assassin", "captain", "captain"]
    court += ["ambassador", "ambassador", "contessa"]
    state = coup.new_game(players=3, seed=1, deal={"hands": hands, "court": court})
    for seat, move in [(0, "exchange"), (1, "pass"), (2, "pass"), (0, "keep duke duke")]:
        state.play(seat, move)
    state.play(1, "tax")
    seen_by_0 = Knowledge(state.view(0))
    assert seen_by_0.known_court == ["ambassador", "duke"]
    assert seen_by_0.provably_false(1, "duke") and seen_by_0.unseen("duke") == 0
    assert not Knowledge(state.view(2)).provably_false(1, "duke")  # seat 2 cannot tell
    for name in ("honest", "heuristic"):
        assert str(bots.make(name, seed=1).choose(state, 0)) == "challenge"
    assert str(bots.make("honest", seed=1).choose(state, 2)) == "pass"


def test_search_belief_gives_the_claimant_its_claim() -> None:
    state = scripted()
    # Seat 0 claimed the Duke and was not challenged: most sampled worlds give it one.
    view_seat = 1
    know = Knowledge(state.view(view_seat))
    worlds = SearchBot(seed=3).sample_worlds(state, view_seat, know, 200)
    with_duke = sum("duke" in world.hands[0] for world in worlds) / len(worlds)
    plain = [state.determinize(view_seat, random.Random(i)) for i in range(200)]
    prior = sum("duke" in world.hands[0] for world in plain) / len(plain)
    assert with_duke > 0.8 > prior + 0.2
    for world in worlds:  # every world still matches what seat 1 sees
        assert world.view(view_seat) == state.view(view_seat)


def test_each_seat_remembers_how_often_it_doubted_the_reader() -> None:
    """Seat 2 let seat 0's tax pass and challenged seat 1's: as seat 1 reads it, seat 2
    doubted one of its claims in one chance; as seat 0 reads it, none in one."""
    state = scripted()
    as_1, as_0 = Knowledge(state.view(1)).records[2], Knowledge(state.view(0)).records[2]
    assert (as_1.challenges, as_1.chances) == (1, 1)  # the challenge is no pass
    assert (as_1.doubted_me, as_1.chances_me) == (1, 0)
    assert (as_0.doubted_me, as_0.chances_me) == (0, 1)


def test_a_second_look_at_more_worlds_before_challenging() -> None:
    """Seat 1 blocked with the Contessa and now taxes: a Duke it holds (as here) or a
    bluff on top of the block. Seat 2, holding a Duke itself, gives the bluff about one
    chance in four; the 48 worlds the search plays in hold too few different hands to
    say so reliably, and now and then hold enough bluffs (40%) to let a challenge through.
    With ``recheck`` the challenge must also pass in a pool twelve times as large."""
    hands = [["assassin", "captain"], ["contessa", "duke"], ["ambassador", "duke"]]
    hands.append(["captain", "contessa"])
    court = ["assassin", "assassin", "captain", "ambassador", "ambassador", "contessa", "duke"]
    state = coup.new_game(players=4, seed=7, deal={"hands": hands, "court": court})
    script = "0 income|1 tax|2 pass|3 pass|0 pass|2 income|3 income|0 assassinate 1"
    script += "|1 block contessa|0 pass|2 pass|3 pass|1 tax"
    for step in script.split("|"):
        seat, move = step.split(" ", 1)
        state.play(int(seat), move)
    know = Knowledge(state.view(2))
    legal = state.legal(2)
    assert [str(m) for m in legal] == ["pass", "challenge"]
    pool, weights = SearchBot(seed=0).weigh_worlds(state, 2, know, 2000)
    bluffs = sum(w for world, w in zip(pool, weights) if "duke" not in world.hands[1])
    assert 0.2 < bluffs / sum(weights) < 0.33
    kept = {0: 0, 12: 0}
    for recheck in kept:
        for seed in range(60):
            bot = SearchBot(seed=seed, recheck=recheck)
            bot.read_opponents(know)
            worlds = bot.sample_worlds(state, 2, know, 48)
            kept[recheck] += len(bot.prune(know, worlds, legal, legal[0], state)) == 2
    assert kept[0] >= 1 and kept[12] == 0
