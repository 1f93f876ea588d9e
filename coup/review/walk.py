"""Replay a record and keep the table before every recorded move (and after the last).

`walk(record)` raises `coup.InvalidRecordError` exactly as `coup.replay` does, so a bad
record gets the same one-line reason everywhere (`coup replay`, `coup review`, the server).

The states kept are copies *without their history* (`starts[k]` says how long it was):
a copy with its history costs the length of the game, so keeping one per move would cost
the square of it. `Walk.at(k)` gives a state with its history back, for the one
decision that needs it (the coach's).
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
    """``states[k]`` is the table before recorded move ``k`` (``states[-1]``: the end),
    its history left out; ``starts[k]`` is the length of its history then (the index of
    move ``k``'s entry); ``final`` is the game's end, history and all."""

    states: list[State]
    starts: list[int]
    final: State

    def before(self, entry: int) -> int:
        """The index of the last kept state whose history is no longer than ``entry``."""
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= entry:
                lo = mid
            else:
                hi = mid - 1
        return lo

    def at(self, k: int) -> State:
        """The game before recorded move ``k``, with its history (a copy)."""
        state = self.states[k].clone()
        state.history = self.final.history[: self.starts[k]]
        return state


def bare_copy(s: State) -> State:
    """A copy of ``s`` without its history: as cheap early in a game as late."""
    history, s.history = s.history, []
    try:
        return s.clone()
    finally:
        s.history = history


def walk(record: Any) -> Walk:
    states: list[State] = []
    starts: list[int] = []

    def keep(s: State) -> None:
        states.append(bare_copy(s))
        starts.append(len(s.history))

    final = replay(record, observe=keep)
    return Walk(states, starts, final)


def history_entry(entry: Entry) -> HistoryEntry:
    """A state's history entry as JSON, every argument shown (the game is over)."""
    seat, move, forced, _draws, out, _audience = entry
    out_entry: HistoryEntry = {"seat": seat, "move": str(move)}
    if forced:
        out_entry["forced"] = True
    if out:
        out_entry["out"] = True
    return out_entry
