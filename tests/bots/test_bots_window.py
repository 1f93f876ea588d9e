"""Bots see only their seat: `Bot.choose` takes a `SeatWindow`, so a bot that reads more of
the game is a type error (mypy, as `make test` runs it), and a `GuardedWindow` refuses at
run time any question about another seat."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from mypy import api

import coup
from coup.bots.window import GuardedWindow

ROOT = Path(__file__).resolve().parents[2]

BOTS = """
import random

import coup
from coup.bots import Bot
from coup.bots.window import SeatWindow


class Fair:
    name = "fair"

    def choose(self, state: SeatWindow, seat: int) -> coup.Move:
        cards = state.view(seat)["players"][seat]["cards"]
        world = state.determinize(seat, random.Random(len(cards or [])))
        return world.legal(seat)[0] if world.hands[seat] else state.legal(seat)[0]


class Peeking:
    name = "peeking"

    def choose(self, state: SeatWindow, seat: int) -> coup.Move:
        print(state.hands)
        return state.legal(seat)[0]


bot: Bot = Fair()
game = coup.new_game(players=2, seed=1)
bot.choose(game, game.waiting[0])  # a State is a SeatWindow
"""


def test_a_bot_that_reads_more_than_its_seat_is_a_type_error(tmp_path: Path) -> None:
    snippet = tmp_path / "bots_snippet.py"
    snippet.write_text(BOTS)
    out, _err, status = api.run(
        ["--strict", "--cache-dir", str(ROOT / ".mypy_cache"), str(snippet)]
    )
    errors = [line for line in out.splitlines() if ": error:" in line]
    assert status == 1 and len(errors) == 1, out
    line = BOTS.splitlines().index("        print(state.hands)") + 1
    assert f'bots_snippet.py:{line}: error: "SeatWindow" has no attribute "hands"' in errors[0]


def test_a_guarded_window_answers_only_about_its_seat() -> None:
    state = coup.new_game(players=3, seed=1)
    window = GuardedWindow(state, 1, "the test")
    assert window.view(1) == state.view(1)
    assert window.legal(1) == state.legal(1)
    assert window.determinize(1, random.Random(1)).hands[1] == state.hands[1]
    with pytest.raises(PermissionError, match="the test in seat 1 asked about seat 0"):
        window.view(0)
