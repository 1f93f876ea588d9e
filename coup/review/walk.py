"""Replay a record and keep the state before every recorded move (and after the last).

`walk(record)` raises `coup.InvalidRecordError` exactly as `coup.replay` does, so a bad
record gets the same one-line reason everywhere (`coup replay`, `coup review`, the server).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from coup.rules import State, replay

if TYPE_CHECKING:
    from coup.rules.board import Entry
    from coup.rules.shapes import HistoryEntry


@dataclass
class Walk:
    """``states[k]`` is the game before recorded move ``k`` (``states[-1]``: the end);
    ``starts[k]`` is the length of its history then (the index of move ``k``'s entry)."""

    states: list[State]
    starts: list[int]

    @property
    def final(self) -> State:
        return self.states[-1]

    def before(self, entry: int) -> State:
        """The last kept state whose history is no longer than ``entry``."""
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= entry:
                lo = mid
            else:
                hi = mid - 1
        return self.states[lo]


def walk(record: Any) -> Walk:
    states: list[State] = []

    def keep(s: State) -> None:
        states.append(s.clone())

    replay(record, observe=keep)
    return Walk(states, [len(s.history) for s in states])


def history_entry(entry: Entry) -> HistoryEntry:
    """A state's history entry as JSON, every argument shown (the game is over)."""
    seat, move, forced, _draws, out, _audience = entry
    out_entry: HistoryEntry = {"seat": seat, "move": str(move)}
    if forced:
        out_entry["forced"] = True
    if out:
        out_entry["out"] = True
    return out_entry
