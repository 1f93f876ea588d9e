"""`coup play` in process: reading a move, Ctrl-C, and playing without coup.bots."""

from __future__ import annotations

import builtins
import json
import sys
from pathlib import Path

import pytest

import coup
from coup.cli import play

NAMES = ["Guest", "Ada", "Bashir", "Mary Ann"]
ACTIONS = ["income", "foreign_aid", "tax", "steal 1", "steal 2", "steal 3", "exchange"]


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("1", "income"),
        (" 7 ", "exchange"),
        ("income", "income"),
        ("INCOME", "income"),
        ("foreign aid", "foreign_aid"),
        ("foreign_aid", "foreign_aid"),
        ("steal   2", "steal 2"),
        ("steal ada", "steal 1"),
        ("steal Mary Ann", "steal 3"),
        ("inc", "income"),
        ("ex", "exchange"),
    ],
)
def test_read_choice_accepts(text: str, move: str) -> None:
    assert play.read_choice(text, ACTIONS, NAMES) == move


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "Nothing typed"),
        ("8", "There is no move 8"),
        ("steal", "could be steal 1 or steal 2 or steal 3"),
        ("steal 0", "is not one of your moves now"),
        ("block duke", "is not one of your moves now"),
        ("fly away", "is not a move"),
    ],
)
def test_read_choice_explains(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason) as info:
        play.read_choice(text, ACTIONS, NAMES)
    assert "\n" not in str(info.value)


def test_read_choice_keep_in_any_order() -> None:
    legal = ["keep ambassador duke", "keep contessa duke", "keep ambassador contessa"]
    assert play.read_choice("keep duke contessa", legal, NAMES) == "keep contessa duke"
    assert play.read_choice("2", legal, NAMES) == "keep contessa duke"


def test_ctrl_c_says_bye_and_saves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(prompt: object = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", interrupted)
    save = tmp_path / "g.json"
    code = play.main(["--seed", "5", "--bots", "random", "--save", str(save)])
    out = capsys.readouterr().out
    assert code == 130
    assert "bye" in out
    assert coup.replay(json.loads(save.read_text())).players == 4


def test_plays_without_coup_bots(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "coup.bots", None)  # import coup.bots -> ImportError
    monkeypatch.delattr(coup, "bots", raising=False)  # if another test imported it
    label, make = play.pick_bots(None)
    assert label == "random"
    state = coup.new_game(players=3, seed=1)
    seat = state.waiting[0]
    assert make(1).choose(state, seat) in state.legal(seat)
    with pytest.raises(ValueError, match="not available"):
        play.pick_bots("heuristic")
    answers = iter(["1"] * 500)
    monkeypatch.setattr(builtins, "input", lambda prompt="": next(answers))
    assert play.main(["--seed", "2", "--players", "3"]) == 0
    assert "random bots" in capsys.readouterr().out


def test_default_bots_are_the_best_available() -> None:
    from coup import bots

    label, make = play.pick_bots(None)
    assert label in bots.NAMES
    better = play.PREFERENCE[: play.PREFERENCE.index(label)]
    for name in better:  # every better kind failed to build
        with pytest.raises(Exception):  # noqa: B017 - whatever the bot module raises
            bots.make(name, seed=0)
    state = coup.new_game(players=4, seed=3)
    seat = state.waiting[0]
    assert make(3).choose(state, seat) in state.legal(seat)


def test_log_tells_a_run_of_passes_in_one_line() -> None:
    from coup.cli import play_screen

    names = ["Guest", "Ada", "Bashir", "Chen"]
    history = [
        {"seat": 0, "move": "tax"},
        {"seat": 1, "move": "pass"},
        {"seat": 2, "move": "pass"},
        {"seat": 3, "move": "pass"},
        {"seat": 1, "move": "income"},
    ]
    lines, fresh = play_screen.grouped_log(history, names, "ambassador", seen=2)
    assert len(lines) == 3
    assert all(name in lines[1] for name in ("Ada", "Bashir", "Chen"))
    assert fresh == 2  # the passes (partly new) and the income
    lines, fresh = play_screen.grouped_log(history, names, "ambassador", seen=0)
    assert fresh == 3
