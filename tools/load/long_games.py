"""Long legal records, the worst a replay may be asked for: every turn an exchange that
keeps the same cards, every other seat passing, so the game runs as long as wanted.
For the replay's tests and `coup loadtest --fuzz`."""

from __future__ import annotations

from typing import Any

import coup

#: A 24-character name of 4-byte characters: the longest name a table takes, in bytes.
WIDE_NAME = "\U0001f451" * 24


def long_record(moves: int, players: int = 2, *, names: list[str] | None = None) -> dict[str, Any]:
    """A legal `coup-record/1` of exactly `moves` recorded moves (the game not over)."""
    seats = names or [f"{WIDE_NAME[:20]}{i:04d}" for i in range(players)]
    state = coup.new_game(seats, seed=7, draft=False)
    played = 0
    while played < moves:
        seat = state.waiting[0]
        legal = state.legal(seat)
        texts = [str(m) for m in legal]
        pick = next((i for i, t in enumerate(texts) if t == "exchange"), None)
        if pick is None:
            pick = next((i for i, t in enumerate(texts) if t == "pass"), None)
        if pick is None:
            pick = next((i for i, t in enumerate(texts) if t.startswith("keep")), 0)
        state.play(seat, legal[pick])
        played += 1
    return {**state.record()}  # a plain dict: callers change it to build bad records
