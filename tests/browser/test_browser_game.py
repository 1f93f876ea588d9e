"""End to end: three browsers and a spectator play a whole game at one table."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

import coup

sys.path.insert(0, str(Path(__file__).parent))

from browser_checks import axe
from browser_driver import Shots
from browser_flow import PLAYERS, open_pages, play

pytestmark = pytest.mark.browser


def test_three_browsers_play_a_full_game(browser: Any, server: str) -> None:
    pages, watcher = open_pages(browser, {"width": 1280, "height": 860})
    shots = Shots(os.environ.get("COUP_SCREENSHOTS"), "test")
    facts = play(pages, watcher, server, shots)

    record = facts["record"]
    assert record["format"] == "coup-record/1"
    assert record["players"] == [name for name, _ in PLAYERS]
    assert record["moves"] and isinstance(record["seed"], int | str)

    replayed = coup.replay(record)  # the downloaded record replays to the same end
    assert replayed.over and replayed.winner == facts["final"]["game"]["winner"]

    moves = [m["move"] for m in record["moves"]]
    assert "exchange" in moves and "challenge" in moves
    assert any(m.startswith("block ") for m in moves)

    seat_before, seat_after, name_after = facts["reloaded"]
    assert seat_after == seat_before and name_after == PLAYERS[1][0]
    assert facts["spectator_decisions"] == 0
    assert facts["rejoined"] == (seat_before, False)  # seated, and the token left the URL

    english = facts["logs"][0]
    assert "claims Ambassador to exchange" in english
    assert "blocks as Duke" in english and "challenges" in english
    assert "wins the game" in english
    persian = facts["logs"][2]
    assert "معاوضه" in persian and "به چالش می" in persian

    assert facts["dirs"] == ["ltr", "ltr", "rtl"]
    assert "<img" not in facts["chat_html"] and "&lt;img src=x" in facts["chat_html"]
    assert "salam!" in facts["chat_text"] and not facts["pwned"]
    assert facts["fair"] == "ok"
    final = facts["final"]
    assert final["table"]["seed"] and final["game"]["over"]
    assert axe(pages[0]) == [], "the end screen"
    assert axe(pages[2]) == [], "the end screen in Persian"
