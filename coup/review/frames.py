"""A finished game move by move, for the replay viewer (`coup-replay/1`, docs/protocol.md).

Frame ``k`` is the table before recorded move ``k`` (the last frame: the end), every
hand open; ``history`` says how many entries of the log had happened by then. The log
is given once with every argument shown (``all``) and once as each seat saw it
(``seats[i]``: `keep`/`show`/`draft` arguments of others hidden), so the viewer can draw
the table from one seat's view or with all hands open. Only for games that are over.
"""

from __future__ import annotations

from typing import Any

from coup.review.story import tell_walk
from coup.review.walk import Walk, history_entry, walk
from coup.rules import State

FORMAT = "coup-replay/1"


def replay_frames(record: Any) -> dict[str, Any]:
    """The viewer's data for a record; raises InvalidRecordError for a bad record."""
    return frames_of(walk(record))


def frames_of(w: Walk) -> dict[str, Any]:
    final = w.final
    moves = [
        {"seat": seat, "move": str(move)} for seat, move, forced, *_ in final.history if not forced
    ]
    return {
        "format": FORMAT,
        "players": list(final.names),
        "settings": final.settings.as_dict(),
        "over": final.over,
        "winner": final.winner,
        "frames": [frame(s, start) for s, start in zip(w.states, w.starts, strict=True)],
        "moves": moves,
        "log": {
            "all": [history_entry(e) for e in final.history],
            "seats": [final.view(seat)["history"] for seat in range(final.players)],
        },
        "story": tell_walk(w),
    }


def frame(s: State, history: int) -> dict[str, Any]:
    """The table ``s`` (a state without its history, `walk.Walk`), every hand open, after
    ``history`` entries of the log."""
    view = s.view(None)
    for player in view["players"]:
        player["cards"] = sorted(s.hands[player["seat"]])
    out: dict[str, Any] = {
        key: view[key]
        for key in ("players", "treasury", "court", "turn", "phase", "pending", "waiting")
    }
    if "reserve" in view:  # Reformation: the Treasury Reserve
        out["reserve"] = view["reserve"]
    out["history"] = history
    if s.phase == "exchange":
        out["drawn"] = sorted(s.drawn)
    return out
