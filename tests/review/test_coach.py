"""The coach: every real decision of a seat, from that seat's view, deterministic."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import coup
from coup.bots.window import GuardedWindow
from coup.review.coach import review

GOLDEN = Path(__file__).parent.parent / "golden"


def record(name: str = "story-bluffs") -> Any:
    return json.loads((GOLDEN / f"{name}.json").read_text())


def test_every_choice_of_the_seat_is_weighed_and_the_same_seed_gives_the_same_notes() -> None:
    notes = review(record(), 1, budget=2000)
    assert notes["format"] == "coup-coach/1" and notes["name"] == "Sepideh"
    mine = [i for i, m in enumerate(record()["moves"]) if m["seat"] == 1]
    assert [d["index"] for d in notes["decisions"]] == mine  # each was a choice
    for d in notes["decisions"]:
        moves = [m["move"] for m in d["moves"]]
        assert d["played"] in moves and d["best"] in moves
        assert all(0.0 <= m["win"] <= 1.0 for m in d["moves"])
        best = max(m["win"] for m in d["moves"])
        played = next(m["win"] for m in d["moves"] if m["move"] == d["played"])
        assert d["mistake"] == (best - played > notes["margin"])
    assert review(record(), 1, budget=2000) == notes
    assert review(record(), 1, budget=2000, seed=5) != notes


def test_a_reaction_carries_the_belief_that_the_claim_is_a_bluff() -> None:
    notes = review(record(), 2, budget=2000)
    by_index = {d["index"]: d for d in notes["decisions"]}
    # Move 2: Bahareh may challenge Mahshid's tax; move 6: her own steal (no claim to doubt).
    assert by_index[2]["claim"]["seat"] == 0 and by_index[2]["claim"]["character"] == "duke"
    assert 0.0 <= by_index[2]["claim"]["bluff"] <= 1.0
    assert "claim" not in by_index[6]


def test_the_coach_sees_only_the_seats_view() -> None:
    with pytest.raises(PermissionError):
        GuardedWindow(coup.replay(record()), 0).view(1)
    # The hands outside the view do not change the notes: swap the others' hands (the same
    # cards overall, so the game replays alike) and coach Mahshid again.
    first = {**record(), "moves": record()["moves"][:11]}
    swapped = {**first, "deal": {**record()["deal"], "hands": [["duke", "contessa"],
               ["duke", "assassin"], ["ambassador", "captain"]]}}  # fmt: skip
    a, b = review(first, 0, budget=1500), review(swapped, 0, budget=1500)
    assert a == b and len(a["decisions"]) == 4
    # ... while Mahshid's own cards do change them.
    mine = {**first, "deal": {**record()["deal"], "hands": [["duke", "captain"],
            ["contessa", "assassin"], ["ambassador", "duke"]]}}  # fmt: skip
    assert review(mine, 0, budget=1500) != a


def test_a_seat_not_at_the_table_is_refused() -> None:
    with pytest.raises(ValueError, match="not at this table"):
        review(record(), 3)


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "coup", "review", *args],
        input=stdin, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_coup_review_prints_the_story_and_the_notes() -> None:
    out = run(str(GOLDEN / "story-bluffs.json"), "--seat", "2", "--budget", "1500")
    assert out.returncode == 0, out.stderr
    assert "Bahareh (seat 2)" in out.stdout and "Out, in order: Sepideh, Bahareh" in out.stdout
    assert "Mahshid's Duke claim:" in out.stdout


def test_coup_review_json_is_the_coachs_answer() -> None:
    out = run(str(GOLDEN / "story-bluffs.json"), "--seat", "0", "--budget", "1500", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == review(record(), 0, budget=1500)


def test_coup_review_refuses_a_bad_record_as_coup_replay_does() -> None:
    bad = {**record(), "moves": [{"seat": 2, "move": "tax"}]}
    out = run("-", stdin=json.dumps(bad))
    replayed = subprocess.run([sys.executable, "-m", "coup", "replay", "-"],
        input=json.dumps(bad), capture_output=True, text=True, check=False)  # fmt: skip
    assert out.returncode == 2 and replayed.returncode == 2
    assert out.stderr.removeprefix("coup review: ") == replayed.stderr.removeprefix("coup replay: ")
    assert run(str(GOLDEN / "story-bluffs.json"), "--seat", "7").returncode == 2
