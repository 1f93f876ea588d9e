"""Coup (Rikki Tahta): an exact, fast rules engine, plus bots, learning adapters and an
online table. The engine's API is flat here: ``coup.new_game``, ``coup.replay``, ``coup.Move``.
"""

from coup.rules import (
    CHARACTERS,
    FORMAT,
    PHASES,
    VARIANTS,
    Deal,
    IllegalMoveError,
    InvalidMoveError,
    InvalidRecordError,
    Move,
    Record,
    SeatView,
    Settings,
    SettingsError,
    SpectatorView,
    State,
    commitment,
    final_state_json,
    new_game,
    replay,
    verify,
)

__version__ = "0.1.0"

__all__ = [
    "CHARACTERS", "FORMAT", "PHASES", "VARIANTS",
    "Deal", "IllegalMoveError", "InvalidMoveError", "InvalidRecordError", "Move", "Record",
    "SeatView", "Settings", "SettingsError", "SpectatorView", "State",
    "commitment", "final_state_json", "new_game", "replay", "verify",
]  # fmt: skip
