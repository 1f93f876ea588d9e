"""Bots: players that see only a seat's view.

Every bot has a ``name`` and one method, ``choose(state, seat) -> Move``. ``state`` is a
``SeatWindow`` (window.py): a bot may only call ``state.view(seat)``, ``state.legal(seat)``
and ``state.determinize(seat, rng)`` (and then anything on the determinized copy), so it
never learns what its seat may not know; mypy refuses anything else. It always returns one
of ``state.legal(seat)``.

```python
from coup import bots
bot = bots.make("heuristic", seed=7)       # "random" | "honest" | "heuristic" | "search"
bot = bots.make("medium:skeptic", seed=7)  # a level and a personality (PERSONALITIES)
bot = bots.for_level("hard", "bluffer", seed=7)
move = bot.choose(state, seat)
```
The league's other styles (``STYLES``) are plain rule-following players with one habit.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from coup import Move
    from coup.bots.window import SeatWindow

__all__ = ["LEVELS", "NAMES", "PERSONALITIES", "STYLES", "Bot", "for_level", "make"]


class Bot(Protocol):
    name: str

    def choose(self, state: SeatWindow, seat: int) -> Move: ...


#: bot name -> (module, class); modules are imported on first use.
_REGISTRY: dict[str, tuple[str, str]] = {
    "random": ("coup.bots.baseline", "RandomBot"),
    "honest": ("coup.bots.honest", "HonestBot"),
    "heuristic": ("coup.bots.heuristic", "HeuristicBot"),
    "search": ("coup.bots.search", "SearchBot"),
    "never-challenge": ("coup.bots.styles", "NeverChallengeBot"),
    "challenge-all": ("coup.bots.styles", "ChallengeAllBot"),
    "duke-every-turn": ("coup.bots.styles", "DukeEveryTurnBot"),
}

NAMES: tuple[str, ...] = ("random", "honest", "heuristic", "search")
#: Plain styles of the opponent league, written from the rules alone (styles.py).
STYLES: tuple[str, ...] = ("never-challenge", "challenge-all", "duke-every-turn")
LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
#: Personalities a level may take ("random": a fresh one each game).
PERSONALITIES: tuple[str, ...] = ("honest", "bluffer", "skeptic", "vengeful", "cautious")


def make(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A new bot by name: one of ``NAMES`` or ``STYLES``, a level (``"easy"``,
    ``"medium"``: a random personality each game; ``"hard"``: the search bot), or a
    level and a personality, ``"medium:skeptic"``. ``seed`` fixes its choices."""
    level, _, persona = name.partition(":")
    if level in LEVELS and (persona or level != "hard"):
        persona = persona or "random"
        if persona not in (*PERSONALITIES, "random"):
            known = ", ".join((*PERSONALITIES, "random"))
            raise ValueError(f"unknown personality {persona!r}; choose one of: {known}")
        if level == "hard":
            from coup.bots.search import SearchBot

            return SearchBot(seed=seed, personality=persona, **options)
        from coup.bots.personality import PersonalityBot

        return PersonalityBot(seed=seed, personality=persona, level=level, **options)
    if name == "hard":
        name = "search"
    if name not in _REGISTRY:
        known = ", ".join((*NAMES, *STYLES, *LEVELS))
        raise ValueError(f"unknown bot {name!r}; choose one of: {known} (or level:personality)")
    module_name, class_name = _REGISTRY[name]
    cls = getattr(importlib.import_module(module_name), class_name)
    bot: Bot = cls(seed=seed, **options)
    return bot


def for_level(level: str, personality: str = "random", seed: int | None = None) -> Bot:
    """A bot for a table seat: a level (easy, medium, hard) with a personality (one of
    ``PERSONALITIES``, or "random": a fresh draw each game)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of: {', '.join(LEVELS)}")
    return make(f"{level}:{personality}", seed=seed)
