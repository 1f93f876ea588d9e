"""`coup play` driven through a pipe, as a user (or a script) would."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import coup

ENV = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "100", "TERM": "dumb"}


def run_play(
    args: list[str], lines: list[str], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "coup", "play", *args],
        check=False,
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        timeout=timeout,
        env=ENV,
        encoding="utf-8",
    )


def assert_clean(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stdout[-3000:] + proc.stderr


@pytest.mark.parametrize(
    "options",
    [
        ["--players", "4"],
        ["--players", "3", "--variant", "inquisitor"],
        ["--players", "2"],  # the draft deal
        ["--players", "2", "--no-draft", "--seat", "1"],
        ["--players", "6", "--variant", "inquisitor", "--seat", "5"],
    ],
)
def test_play_a_whole_game_and_save_it(tmp_path: Path, options: list[str]) -> None:
    folder = tmp_path / ("a folder with a long name, " * 4)  # past the terminal's width
    folder.mkdir()
    save = folder / "game [1].json"  # not rich markup
    proc = run_play(
        [*options, "--seed", "11", "--bots", "random", "--save", str(save)], ["1"] * 600
    )
    assert_clean(proc)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    assert re.search(r"(You win!|\w+ wins\.)", proc.stdout)
    assert "All cards" in proc.stdout
    assert f"Game record saved to {save}" in proc.stdout
    assert f"coup replay {shlex.quote(str(save))})" in proc.stdout  # a command a shell takes
    record = json.loads(save.read_text())
    assert record["format"] == "coup-record/1"
    state = coup.replay(record)
    assert state.over
    assert state.names[state.winner] in proc.stdout.split("All cards")[0]


def test_play_bad_input_is_explained_and_asked_again() -> None:
    lines = ["banana", "99", "0", "", "steal 9", "income 3", "keep duke", "steal"]
    proc = run_play(["--players", "3", "--seed", "4", "--bots", "random"], lines)
    assert_clean(proc)
    assert proc.returncode == 0
    out = proc.stdout
    assert "'banana' is not a move: pick 1–" in out
    assert "There is no move 99" in out
    assert "There is no move 0" in out
    assert "Nothing typed" in out
    assert "'steal 9' is not one of your moves now" in out
    assert "'income 3' is not a move" in out
    assert "'steal' could be steal 1 or steal 2" in out
    # every refusal asks again, and the end of input says goodbye
    assert out.count("Your move") == len(lines) + 1
    assert out.rstrip().endswith("bye")


def test_play_quit_and_eof_save_the_game_so_far(tmp_path: Path) -> None:
    save = tmp_path / "partial.json"
    proc = run_play(
        ["--players", "4", "--seed", "3", "--bots", "random", "--save", str(save)], ["1"]
    )
    assert_clean(proc)
    assert proc.returncode == 0
    assert "bye" in proc.stdout
    record = json.loads(save.read_text())
    state = coup.replay(record)
    assert not state.over
    assert any(m["seat"] == 0 for m in record["moves"])


def test_play_never_shows_a_bots_hidden_cards(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    proc = run_play(["--players", "4", "--seed", "21", "--bots", "random", "--save", str(save)], [])
    assert_clean(proc)
    record = json.loads(save.read_text())
    hands = record["deal"]["hands"]
    screen = proc.stdout
    rows = re.findall(r"\b(?:Ada|Bashir|Chen)\s+\d+  (\S.*?)\s{2,}", screen)
    assert len(rows) >= 3
    for face_down in rows:  # a bot's face-down cards are only ever drawn as ▮
        assert re.fullmatch(r"▮( ▮)*|—", face_down), face_down
    # our own cards are shown
    own = ", ".join(c.capitalize() for c in sorted(hands[0]))
    assert own in screen


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--players", "11"], "a table seats 2 to 10 players"),
        (["--players", "4", "--seat", "4"], "--seat: seats are 0–3"),
        (["--players", "4", "--draft"], "the draft deal is for two players"),
        (["--bots", "wizard"], "unknown bot 'wizard'"),
        (["--name", ""], "--name"),
        (["--save", "/nonexistent/folder/g.json"], "does not exist"),
    ],
)
def test_play_bad_options_exit_2_with_a_reason(options: list[str], message: str) -> None:
    proc = run_play(options, [])
    assert_clean(proc)
    assert proc.returncode == 2
    assert message in proc.stdout + proc.stderr


def test_play_bad_option_value_is_argparse_error() -> None:
    proc = run_play(["--players", "many"], [])
    assert proc.returncode == 2
    assert "invalid int value" in proc.stderr
    assert_clean(proc)
