"""The league's plain styles do what their names say."""

from __future__ import annotations

import coup
from coup import bots
from coup.bots.arena import play_game


def decisions(lineup: list[str], games: int) -> list[tuple[str, str, str]]:
    """(bot, phase, move) of every decision in ``games`` games; the phase is "open" when
    a challenge was legal."""
    seen = []
    for game in range(games):
        seated = [bots.make(name, seed=game * 10 + i) for i, name in enumerate(lineup)]
        state = coup.new_game(players=len(lineup), seed=game)
        while not state.over:
            seat = state.waiting[0]
            move = seated[seat].choose(state, seat)
            open_claim = any(m.verb == "challenge" for m in state.legal(seat))
            seen.append((lineup[seat], "open" if open_claim else state.phase, str(move)))
            state.play(seat, move)
    return seen


def test_styles_finish_games_everywhere() -> None:
    for players in range(2, 11):
        lineup = [bots.STYLES[(players + i) % 3] for i in range(players)]
        for characters in ("ambassador", "inquisitor"):
            assert play_game(lineup, players, 1, characters=characters).winner is not None


def test_each_style_keeps_its_habit() -> None:
    seen = decisions(["never-challenge", "challenge-all", "duke-every-turn", "heuristic"], 20)
    never = [m for b, p, m in seen if b == "never-challenge"]
    assert never and "challenge" not in never
    asked = [m for b, p, m in seen if b == "challenge-all" and p == "open"]
    assert asked and all(m == "challenge" for m in asked)
    turns = [m for b, p, m in seen if b == "duke-every-turn" and p == "action"]
    assert turns and all(m == "tax" or m.startswith("coup ") for m in turns)
