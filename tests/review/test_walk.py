"""Walking a record costs in proportion to its moves: the states kept before each move
carry no history (a copy with one costs the game so far, so one per move cost the square
of the game: a 7,800-move upload took 10 s to replay for the viewer), and the viewer's
data, the story and the coach read the same as with the whole history."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

from coup.review.coach import decisions
from coup.review.frames import replay_frames
from coup.review.walk import walk
from coup.rules import replay
from tools.load.long_games import long_record

GOLDEN = Path(__file__).parent.parent / "golden"


def peak_bytes(record: dict[str, Any]) -> int:
    tracemalloc.start()
    try:
        replay_frames(record)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_replay_viewers_data_grows_in_proportion_to_the_moves() -> None:
    short, long = long_record(400), long_record(1600)
    ratio = peak_bytes(long) / peak_bytes(short)
    assert ratio < 5.5, f"4 times the moves took {ratio:.1f} times the memory"  # was 10


def test_the_kept_states_are_the_game_before_each_move() -> None:
    for name in ("story-bluffs", "reformation-four", "four-inquisitor"):
        record = json.loads((GOLDEN / f"{name}.json").read_text())
        w = walk(record)
        assert all(not s.history for s in w.states)
        assert len(w.states) == len(record["moves"]) + 1 == len(w.starts)
        for k in range(len(record["moves"]) + 1):
            before = replay({**record, "moves": record["moves"][:k]})
            again = w.at(k)
            assert again.history == before.history and w.starts[k] == len(before.history)
            assert again.view(0) == before.view(0) and again.view(None) == before.view(None)
        assert w.final.history == replay(record).history
        assert decisions(w, 0)
