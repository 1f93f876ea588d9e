"""The coach: every decision of one seat in a finished game, weighed by the hard bot.

`review(record, seat)` replays the record and, before each recorded move of ``seat``
that was a real choice, asks the hard bot's analysis (`coup.bots.analysis.analyse`)
— through a `GuardedWindow` on that seat's view as it was then, never the revealed hands —
for the win chance of each legal move, the move it prefers and, for a reaction, its
belief that the claim was a bluff. A move whose estimated win chance is more than
``MARGIN`` below the preferred move's is a mistake; the preferred move is the
alternative shown. The answer (`coup-coach/1`, docs/protocol.md) is deterministic for a
record, seat, seed and budget.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from coup.bots.analysis import DEFAULT_BUDGET, analyse
from coup.bots.window import GuardedWindow
from coup.review.walk import Walk, walk

FORMAT = "coup-coach/1"
#: A move this much below the best move's estimated win chance is flagged a mistake.
MARGIN = 0.1

Progress = Callable[[int, int], None]


def decisions(w: Walk, seat: int) -> list[int]:
    """Indexes of the recorded moves of ``seat`` that were a choice (two or more legal)."""
    final = w.final
    out = []
    for k, state in enumerate(w.states[:-1]):
        entry = final.history[w.starts[k]]
        if entry[0] == seat and len(state.legal(seat)) > 1:
            out.append(k)
    return out


def decision_seed(seed: int, index: int) -> int:
    """A seed for decision ``index`` of a review made with ``seed`` (stable anywhere)."""
    digest = hashlib.sha256(f"coach:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def review(
    record: Any,
    seat: int,
    *,
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """The coach's notes for ``seat``; raises InvalidRecordError for a bad record and
    ValueError for a seat that is not at the table."""
    w = walk(record)
    final = w.final
    if type(seat) is not int or not 0 <= seat < final.players:
        raise ValueError(f"seat {seat!r} is not at this table (seats 0–{final.players - 1})")
    todo = decisions(w, seat)
    notes = []
    if progress:
        progress(0, len(todo))
    for done, k in enumerate(todo, 1):
        notes.append(note(w, seat, k, seed=seed, budget=budget))
        if progress:
            progress(done, len(todo))
    return assemble(final.names[seat], seat, notes, seed=seed, budget=budget)


def assemble(
    name: str, seat: int, notes: list[dict[str, Any]], *, seed: int, budget: int
) -> dict[str, Any]:
    """The `coup-coach/1` object from the notes of a seat's decisions."""
    return {
        "format": FORMAT,
        "seat": seat,
        "name": name,
        "seed": seed,
        "budget": budget,
        "margin": MARGIN,
        "decisions": notes,
        "mistakes": sum(1 for n in notes if n["mistake"]),
    }


def note(w: Walk, seat: int, k: int, *, seed: int, budget: int) -> dict[str, Any]:
    """The coach's note on recorded move ``k`` (made by ``seat``)."""
    state = w.at(k)
    played = str(w.final.history[w.starts[k]][1])
    window = GuardedWindow(state, seat, "the coach")
    a = analyse(window, seat, seed=decision_seed(seed, k), budget=budget)
    best_win, played_win = a.win(a.best), a.win(played)
    out: dict[str, Any] = {
        "index": k,
        "entry": w.starts[k],
        "phase": state.phase,
        "played": played,
        "moves": [{"move": m.move, "win": round(m.win, 4)} for m in a.moves],
        "best": a.best,
        "mistake": best_win - played_win > MARGIN,
        "loss": round(max(0.0, best_win - played_win), 4),
    }
    if a.pending is not None:
        out["claim"] = {
            "seat": a.pending.seat,
            "character": a.pending.character,
            "bluff": round(a.pending.bluff, 4),
        }
    return out
