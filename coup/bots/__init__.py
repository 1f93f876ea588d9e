"""Bots: players that see only a seat's view.

Every bot has a ``name`` and one method, ``choose(state, seat) -> Move``. A bot may only
call ``state.view(seat)``, ``state.legal(seat)`` and ``state.determinize(seat, rng)`` (and
then anything on the determinized copy), so it never learns what its seat may not know.
It always returns one of ``state.legal(seat)``.

```python
from coup import bots
bot = bots.make("heuristic", seed=7)       # "random" | "honest" | "heuristic" | "search"
bot = bots.for_level("hard", seed=7)       # "easy" | "medium" | "hard"
move = bot.choose(state, seat)
```
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from coup import Move, State

__all__ = ["LEVELS", "NAMES", "Bot", "for_level", "make"]


class Bot(Protocol):
    name: str

    def choose(self, state: State, seat: int) -> Move: ...


#: bot name -> (module, class); modules are imported on first use.
_REGISTRY: dict[str, tuple[str, str]] = {
    "random": ("coup.bots.baseline", "RandomBot"),
    "honest": ("coup.bots.honest", "HonestBot"),
    "heuristic": ("coup.bots.heuristic", "HeuristicBot"),
    "search": ("coup.bots.search", "SearchBot"),
    "easy": ("coup.bots.baseline", "EasyBot"),
}

NAMES: tuple[str, ...] = ("random", "honest", "heuristic", "search")
LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
_LEVEL_BOTS: dict[str, str] = {"easy": "easy", "medium": "heuristic", "hard": "search"}


def make(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A new bot by name (see ``NAMES``); ``seed`` fixes its choices."""
    if name not in _REGISTRY:
        known = ", ".join(NAMES)
        raise ValueError(f"unknown bot {name!r}; choose one of: {known}")
    module_name, class_name = _REGISTRY[name]
    cls = getattr(importlib.import_module(module_name), class_name)
    bot: Bot = cls(seed=seed, **options)
    return bot


def for_level(level: str, seed: int | None = None) -> Bot:
    """A bot for a table seat: easy (honest/random mix), medium (heuristic), hard (search)."""
    if level not in _LEVEL_BOTS:
        raise ValueError(f"unknown level {level!r}; choose one of: {', '.join(LEVELS)}")
    return make(_LEVEL_BOTS[level], seed=seed)
