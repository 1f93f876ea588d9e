"""Game records, `coup-record/1` (docs/records.md): the format, its seeds and commitments,
and writing a game's record (replaying one: replays.py)."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .board import Board, Entry
    from .shapes import Record, RecordMove

FORMAT = "coup-record/1"


class InvalidRecordError(ValueError):
    """A record that is malformed, or whose move is illegal; says where and why.

    ``index``, ``seat`` and ``move`` name the offending move (None for a record-level error;
    ``index`` counts from 0, as the record's list). The message is for people: it counts
    moves from 1 and names the player (``name``) when the record does, as in
    ``move 6 by Sepideh ('income'): illegal: ...``.
    """

    def __init__(
        self,
        reason: str,
        index: int | None = None,
        seat: Any = None,
        move: Any = None,
        name: str | None = None,
    ) -> None:
        self.reason, self.index, self.seat, self.move = reason, index, seat, move
        if index is None:
            text = f"invalid record: {reason}"
        else:
            by = f" by {name}" if name else f" (seat {seat!r})" if seat is not None else ""
            said = f" ({move!r})" if move is not None else ""
            text = f"move {index + 1}{by}{said}: {reason}"
        super().__init__(text)


#: Seeds above this are written as decimal strings: a JavaScript number holds no more exactly.
EXACT_IN_JSON = 2**53


def seed_as_written(seed: int) -> int | str:
    """A record's ``seed``: the number itself, or its decimal string above 2^53."""
    return str(seed) if seed > EXACT_IN_JSON else seed


def read_seed(raw: Any) -> int:
    """A record's ``seed`` (a JSON number or a decimal string); raises InvalidRecordError."""
    if type(raw) is int and raw >= 0:
        return raw
    if (
        isinstance(raw, str)
        and 0 < len(raw) <= 100
        and raw.isascii()
        and raw.isdigit()
        and (raw == "0" or raw[0] != "0")
    ):
        return int(raw)
    raise InvalidRecordError(
        f"seed must be a non-negative integer or its decimal string, not {raw!r:.60}"
    )


def commitment(seed: int | str) -> str:
    """The fair-shuffle commitment of a seed (or of its decimal string, as records write
    seeds above 2^53): hex SHA-256 of ``str(seed)``."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


def record_moves(history: list[Entry], start: int = 0) -> list[RecordMove]:
    """The record's moves for the history entries from `start` on (`start` where a
    player's own move begins): forced moves that follow a move carry their draws on it."""
    moves: list[RecordMove] = []
    for seat, move, forced, draws, _out, _aud in history[start:]:
        if forced:
            if draws and moves:
                moves[-1].setdefault("draw", []).extend(draws)
            continue
        entry: RecordMove = {"seat": seat, "move": str(move)}
        if draws:
            entry["draw"] = list(draws)
        moves.append(entry)
    return moves


def write_record(s: Board) -> Record:
    if s.determinized:
        raise ValueError("a determinized copy is a guess, not a game: it has no record")
    return {
        "format": FORMAT,
        "players": list(s.names),
        "settings": s.settings.as_dict(),
        "deal": s.deal.as_dict(),
        "seed": seed_as_written(s.seed),
        "moves": record_moves(s.history),
    }


__all__ = [
    "FORMAT",
    "InvalidRecordError",
    "commitment",
    "read_seed",
    "record_moves",
    "seed_as_written",
    "write_record",
]
