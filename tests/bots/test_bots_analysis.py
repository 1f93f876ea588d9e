"""The hard bot's analysis: a stable, deterministic function of one seat's view."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import coup
from coup import bots
from coup.bots.analysis import Analysis, analyse


class Window:
    """Only what a seat may know: its view, legal moves and determinizations."""

    def __init__(self, state: coup.State, seat: int) -> None:
        self._state, self._seat = state, seat

    def _own(self, seat: int) -> int:
        if seat != self._seat:
            raise PermissionError(f"asked about seat {seat}")
        return seat

    def view(self, seat: int) -> dict[str, Any]:
        return self._state.view(self._own(seat))

    def legal(self, seat: int) -> list[coup.Move]:
        return self._state.legal(self._own(seat))

    def determinize(self, seat: int, rng: random.Random) -> coup.State:
        return self._state.determinize(self._own(seat), rng)


def play_until(state: coup.State, phase: str, moves: int, seed: int) -> coup.State:
    """Heuristic bots play ``moves`` decisions, then on until ``phase``."""
    players = [bots.make("heuristic", seed=seed + i) for i in range(state.players)]
    count = 0
    while not state.over and (count < moves or state.phase != phase):
        seat = state.waiting[0]
        state.play(seat, players[seat].choose(state, seat))
        count += 1
    assert not state.over
    return state


def test_a_challenge_decision_has_win_chances_and_bluff_beliefs() -> None:
    state = play_until(coup.new_game(players=4, seed=3), "react", 20, seed=1)
    seat = state.waiting[0]
    result = analyse(Window(state, seat), seat, seed=5, budget=3000)  # type: ignore[arg-type]
    assert isinstance(result, Analysis)
    assert sorted(m.move for m in result.moves) == sorted(str(m) for m in state.legal(seat))
    assert [m.win for m in result.moves] == sorted((m.win for m in result.moves), reverse=True)
    assert all(0.0 <= m.win <= 1.0 and m.samples >= 2 for m in result.moves)
    assert result.best in {m.move for m in result.moves}
    assert result.win(result.best) == max(
        m.win for m in result.moves if m.move == result.best or m.move != "challenge"
    )
    pending = result.pending
    assert pending is not None and pending.seat == state.actor and pending.seat != seat
    assert pending.character == state.claim and 0.0 <= pending.bluff <= 1.0
    assert pending in result.claims
    assert all(c.seat != seat and 0.0 <= c.bluff <= 1.0 for c in result.claims)
    json.dumps(result.as_dict())
    with pytest.raises(KeyError):
        result.win("coup 9")


def test_same_view_and_seed_give_the_same_analysis() -> None:
    """Deterministic, and computed from the seat's view only: two games that differ only
    in cards the seat cannot see get the same analysis."""
    state = play_until(coup.new_game(players=3, seed=8), "action", 6, seed=2)
    seat = state.waiting[0]
    twin = state.determinize(seat, random.Random(99))  # other hidden hands, same view
    assert twin.view(seat) == state.view(seat)
    first = analyse(state, seat, seed=1, budget=2000)
    assert analyse(state, seat, seed=1, budget=2000) == first
    assert analyse(twin, seat, seed=1, budget=2000) == first
    assert first.pending is None  # no claim is open on one's own turn


def test_bad_requests_are_refused() -> None:
    state = coup.new_game(players=2, seed=1, draft=False)
    idle = next(s for s in range(2) if s not in state.waiting)
    with pytest.raises(ValueError, match="no decision"):
        analyse(state, idle, seed=1, budget=100)
    with pytest.raises(ValueError, match="budget"):
        analyse(state, state.waiting[0], seed=1, budget=0)
