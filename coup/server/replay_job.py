"""A replay for the viewer (`coup-replay/1`, docs/protocol.md *After the game*), as the
server's replay process makes it (`replay_worker.py`): from an uploaded record's bytes,
or from a finished game's record. Everything a record may hold is bounded first (its
bytes, its moves, its names: as at a table), so a replay's work and answer are bounded.

These functions run in the replay process, never on the event loop.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from coup.review.frames import replay_frames
from coup.rules import InvalidRecordError, verify
from coup.server.protocol import NAME_MAX, ProtocolError, parse_object

#: The largest record `POST /api/replay` accepts, in bytes.
MAX_RECORD = 256 * 1024
#: The most recorded moves a replay is made of (a game at a table is rarely over 200).
MAX_REPLAY_MOVES = 1000
#: The largest replay answered, in bytes (ten players with the longest names and
#: `MAX_REPLAY_MOVES` moves make about 2.6 MB).
MAX_REPLAY_BYTES = 4 * 1024 * 1024


def check_bounds(record: dict[str, Any]) -> None:
    """A record's size as a table would have let it grow: at most `MAX_REPLAY_MOVES`
    moves (`422 too_long`), names of at most `NAME_MAX` characters (`422 bad_record`)."""
    moves = record.get("moves")
    if isinstance(moves, list) and len(moves) > MAX_REPLAY_MOVES:
        raise ProtocolError(
            "too_long", f"the game has {len(moves)} moves; a replay takes {MAX_REPLAY_MOVES}", 422
        )
    names = record.get("players")
    if isinstance(names, list) and any(isinstance(n, str) and len(n) > NAME_MAX for n in names):
        raise ProtocolError(
            "bad_record", f"invalid record: a name may have at most {NAME_MAX} characters", 422
        )


def encode(reply: dict[str, Any]) -> bytes:
    """The answer's bytes (a lone surrogate in an uploaded name escaped, as JSON allows)."""
    try:
        data = orjson.dumps(reply)
    except TypeError:  # orjson.JSONEncodeError
        data = json.dumps(reply, separators=(",", ":")).encode()
    if len(data) > MAX_REPLAY_BYTES:  # not reached within the bounds above: a safety net
        raise ProtocolError("too_long", f"the replay is over {MAX_REPLAY_BYTES} bytes", 422)
    return data


def uploaded(raw: bytes) -> bytes:
    """`POST /api/replay`: the replay of an uploaded record, plus `verified`."""
    record = parse_object(raw)
    check_bounds(record)
    try:
        reply = replay_frames(record)
    except InvalidRecordError as e:
        raise ProtocolError("bad_record", str(e), 422) from None
    verified = None
    if "commitment" in record:
        ok, why = verify(record)
        if not ok:
            raise ProtocolError("bad_record", f"not verified: {why}", 422)
        verified = True
    reply["verified"] = verified
    return encode(reply)


def finished(record: dict[str, Any], table: str, game: int) -> bytes:
    """`GET /api/tables/{table}/games/{game}/replay`: a finished game's replay."""
    check_bounds(record)
    reply = replay_frames(record)
    reply["table"], reply["game"] = table, game
    return encode(reply)
