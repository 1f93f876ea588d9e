"""coup.rules — the pure game core: cards, settings and deal, moves and notation, the state
machine, legal moves, per-seat views, records and replay. Standard library only.
The shapes of views and records are TypedDicts (`shapes.py`): plain dicts at run time."""

from __future__ import annotations

import secrets
from functools import lru_cache
from typing import Any

from .core import CORE  # first: it chooses the compiled or the pure-Python modules

# isort: split
from .cards import CHARACTERS, VARIANTS, characters_in, default_copies
from .moves import IllegalMoveError, InvalidMoveError, Move
from .records import FORMAT, InvalidRecordError, commitment
from .replays import final_state_json, replay, verify
from .settings import Deal, Settings, SettingsError, check_deal
from .shapes import FinalState, Record, SeatView, SpectatorView
from .state import PHASES, State


@lru_cache(maxsize=16)
def _default_names(players: int) -> tuple[str, ...]:
    return tuple(f"Player {i + 1}" for i in range(max(players, 0)))


def _settings(*args: Any) -> Settings:
    """Settings.make, remembered per table shape (keyed by type too: True is not 1)."""
    try:
        return _checked_settings(args, tuple(map(type, args)))
    except TypeError:  # unhashable arguments: check them the long way (and say why)
        return Settings.make(*args)


@lru_cache(maxsize=64)
def _checked_settings(args: tuple[Any, ...], types: tuple[type, ...]) -> Settings:
    return Settings.make(*args)


def new_game(
    players: int | list[str] | tuple[str, ...] = 4,
    seed: int | None = None,
    characters: str = "ambassador",
    copies: int | None = None,
    draft: bool | None = None,
    treasury: int = 50,
    first: int = 0,
    deal: dict[str, Any] | None = None,
    reformation: bool = False,
) -> State:
    """A new game. `players` is a count or a list of names; `seed` fixes the deal and every
    shuffle (None: a fresh 128-bit secret); `reformation` turns the expansion on.
    Raises SettingsError for impossible settings."""
    if isinstance(players, (list, tuple)):
        names = tuple(str(p) for p in players)
    elif type(players) is int:
        names = _default_names(players)
    else:
        raise SettingsError(f"players must be a count or a list of names, not {players!r}")
    settings = _settings(len(names), characters, copies, draft, treasury, first, reformation)
    if seed is None:
        seed = secrets.randbits(128)
    elif type(seed) is not int or seed < 0:
        raise SettingsError(f"seed must be a non-negative integer, not {seed!r}")
    fixed = check_deal(settings, deal) if deal is not None else None
    return State.start(settings, names, seed, fixed)


__all__ = [
    "CHARACTERS",
    "CORE",
    "FORMAT",
    "PHASES",
    "VARIANTS",
    "Deal",
    "FinalState",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidRecordError",
    "Move",
    "Record",
    "SeatView",
    "Settings",
    "SettingsError",
    "SpectatorView",
    "State",
    "characters_in",
    "check_deal",
    "commitment",
    "default_copies",
    "final_state_json",
    "new_game",
    "replay",
    "verify",
]  # fmt: skip
