"""Table settings: defaults, limits and validation (docs/protocol.md, *Table settings*)."""

from __future__ import annotations

from typing import Any

from coup.server.protocol import ProtocolError

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
CHARACTERS: tuple[str, ...] = ("ambassador", "inquisitor")
SEATS_MIN, SEATS_MAX = 2, 10
TURN_MIN, TURN_MAX = 5, 3600
REACTION_MIN, REACTION_MAX = 3, 600
REACTION_PHASES = frozenset({"react", "block", "challenge_block"})

DEFAULTS: dict[str, Any] = {
    "seats": 4,
    "characters": "ambassador",
    "draft": True,
    "reformation": False,
    "turn_timer": 0,
    "reaction_timer": 15,
    "bot_level": "easy",
    "spectator_chat": False,
    "locked": False,
}
# The settings the host may change while a game runs (alone or together).
ANY_TIME = frozenset({"spectator_chat", "locked"})


def levels() -> tuple[str, ...]:
    try:
        from coup import bots

        return tuple(bots.LEVELS)
    except (ImportError, AttributeError):
        return LEVELS


def personalities() -> tuple[str, ...]:
    """The bots' personalities a host may pick per seat (besides "random")."""
    try:
        from coup import bots

        return tuple(bots.PERSONALITIES)
    except (ImportError, AttributeError):
        return ()


def _bad(message: str) -> ProtocolError:
    return ProtocolError("bad_settings", message)


def _int(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(f"{key} must be an integer")
    return value


def merge(current: dict[str, Any], patch: Any) -> dict[str, Any]:
    """The settings after applying `patch`; raise `bad_settings` on any bad key/value."""
    if not isinstance(patch, dict):
        raise _bad("settings must be an object")
    out = dict(current)
    for key, value in patch.items():
        if key not in DEFAULTS:
            raise _bad(f"unknown setting {str(key)[:32]!r}")
        if key == "seats":
            n = _int(key, value)
            if not SEATS_MIN <= n <= SEATS_MAX:
                raise _bad(f"seats must be {SEATS_MIN}-{SEATS_MAX}")
        elif key == "characters":
            if value not in CHARACTERS:
                raise _bad(f"characters must be one of {', '.join(CHARACTERS)}")
        elif key in ("draft", "reformation", "spectator_chat", "locked"):
            if not isinstance(value, bool):
                raise _bad(f"{key} must be true or false")
        elif key == "turn_timer":
            n = _int(key, value)
            if n != 0 and not TURN_MIN <= n <= TURN_MAX:
                raise _bad(f"turn_timer must be 0 (off) or {TURN_MIN}-{TURN_MAX} seconds")
        elif key == "reaction_timer":
            n = _int(key, value)
            if n != 0 and not REACTION_MIN <= n <= REACTION_MAX:
                raise _bad(
                    f"reaction_timer must be 0 (off) or {REACTION_MIN}-{REACTION_MAX} seconds"
                )
        elif key == "bot_level" and value not in levels():
            raise _bad(f"bot_level must be one of {', '.join(levels())}")
        out[key] = value
    return out


def config() -> dict[str, Any]:
    """The body of GET /api/config."""
    from coup.server.protocol import CHAT_MAX, MAX_FRAME, NAME_MAX

    return {
        "seats": {"min": SEATS_MIN, "max": SEATS_MAX},
        "characters": list(CHARACTERS),
        "levels": list(levels()),
        "personalities": list(personalities()),
        "turn_timer": {"choices": [0, 30, 60], "min": TURN_MIN, "max": TURN_MAX},
        "reaction_timer": {"choices": [0, 10, 15, 30], "min": REACTION_MIN, "max": REACTION_MAX},
        "defaults": dict(DEFAULTS),
        "limits": {"name": NAME_MAX, "chat": CHAT_MAX, "message_bytes": MAX_FRAME},
    }
