"""Bots in Reformation games: legal everywhere; embezzlement read as a claim of no Duke;
the heuristic converts and embezzles."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import coup
from coup import bots
from coup.bots.analysis import analyse
from coup.bots.arena import play_game
from coup.bots.knowledge import NO_DUKE, Knowledge
from coup.cli import tournament

EVERY = [
    *(f"{level}:{p}" for level in ("easy", "medium") for p in (*bots.PERSONALITIES, "random")),
    *bots.STYLES,
    "heuristic",
    "honest",
    "random",
    "search:sims=6:worlds=3",
    "hard:bluffer:sims=4:worlds=2",
]


@pytest.mark.parametrize("characters", ["ambassador", "inquisitor"])
def test_every_bot_finishes_reformation_games(characters: str) -> None:
    for players in range(2, 11):
        lineup = [EVERY[(players * 7 + i) % len(EVERY)] for i in range(players)]
        result = play_game(lineup, players, 1, characters=characters, reformation=True)
        assert result.winner is not None  # play() raised on any illegal move


def view_with(history: list[dict[str, object]]) -> Knowledge:
    view = coup.new_game(players=3, seed=1, reformation=True).view(0)
    view["history"] = history
    return Knowledge(view)


def test_an_embezzlement_is_a_claim_of_no_duke() -> None:
    know = view_with([{"seat": 0, "move": "allegiance loyalist"}, {"seat": 1, "move": "embezzle"}])
    assert know.reformation and know.records[1].no_duke
    assert know.likelihood(1, ("duke", "captain"), 0.1) == pytest.approx(0.1)
    assert know.likelihood(1, ("captain", "contessa"), 0.1) == 1.0
    # Challenged, and the challenger lost: the embezzler's hand was redrawn.
    redrawn = view_with(
        [
            {"seat": 1, "move": "embezzle"},
            {"seat": 2, "move": "challenge"},
            {"seat": 2, "move": "lose captain"},
        ]
    )
    assert not redrawn.records[1].no_duke and redrawn.records[1].redrawn
    assert redrawn.records[1].tested == 1 and redrawn.records[1].lies == 0
    # Challenged, and the embezzler lost: it held a Duke.
    caught = view_with(
        [
            {"seat": 1, "move": "embezzle"},
            {"seat": 0, "move": "challenge"},
            {"seat": 1, "move": "lose duke"},
        ]
    )
    assert caught.records[1].lies == 1 and NO_DUKE in caught.records[1].caught


def test_the_analysis_gives_the_belief_about_an_embezzlement() -> None:
    players = [bots.make("heuristic", seed=i) for i in range(4)]
    for game in range(40):
        state = coup.new_game(players=4, seed=game, reformation=True)
        while not state.over and not (state.phase == "react" and state.action == "embezzle"):
            seat = state.waiting[0]
            state.play(seat, players[seat].choose(state, seat))
        if not state.over:
            break
    else:  # pragma: no cover
        pytest.fail("no embezzlement in 40 games")
    seat = state.waiting[0]
    result = analyse(state, seat, seed=1, budget=1500)
    assert result.pending is not None
    assert (result.pending.seat, result.pending.character) == (state.actor, NO_DUKE)
    assert 0.0 <= result.pending.bluff <= 1.0
    assert {m.move for m in result.moves} == {"pass", "challenge"}


def test_the_heuristic_converts_and_embezzles_honestly() -> None:
    seen: Counter[str] = Counter()
    for game in range(12):
        state = coup.new_game(players=4, seed=game, reformation=True)
        seated = [bots.make("heuristic", seed=game * 4 + i, bluff_chance=0.0) for i in range(4)]
        while not state.over:
            seat = state.waiting[0]
            move = seated[seat].choose(state, seat)
            if move.verb == "embezzle":
                seen["embezzle"] += 1
                seen["lie"] += "duke" in state.hands[seat]
            elif move.verb == "convert":
                seen["convert"] += 1
            state.play(seat, move)
    assert seen["embezzle"] >= 3 and seen["convert"] >= 3
    assert seen["lie"] == 0  # a bot that does not bluff embezzles only without a Duke


def test_tournament_reformation(capsys: pytest.CaptureFixture[str]) -> None:
    code = tournament.main(
        ["--seats", "heuristic,honest,random", "--games", "3", "--reformation", "--json"]
        + ["--quiet", "--jobs", "1"]
    )
    summary = json.loads(capsys.readouterr().out)
    assert code == 0 and summary["settings"] == {"reformation": True}
    assert sum(row["wins"] for row in summary["bots"]) == 3
