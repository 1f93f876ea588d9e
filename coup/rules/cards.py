"""The cards of Coup: characters, which action each claims, who blocks what."""

from __future__ import annotations

from typing import Final

DUKE: Final = "duke"
ASSASSIN: Final = "assassin"
CAPTAIN: Final = "captain"
AMBASSADOR: Final = "ambassador"
INQUISITOR: Final = "inquisitor"
CONTESSA: Final = "contessa"

#: Every character the notation knows, in canonical order.
CHARACTERS: tuple[str, ...] = (DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, INQUISITOR, CONTESSA)

#: Reformation: the two allegiances.
LOYALIST: Final = "loyalist"
REFORMIST: Final = "reformist"
ALLEGIANCES: tuple[str, ...] = (LOYALIST, REFORMIST)

#: The variants: which fifth character a game uses.
VARIANTS: tuple[str, ...] = (AMBASSADOR, INQUISITOR)


def characters_in(variant: str) -> tuple[str, ...]:
    """The five characters of a game using `variant` (``ambassador`` or ``inquisitor``)."""
    return (DUKE, ASSASSIN, CAPTAIN, variant, CONTESSA)


def default_copies(players: int) -> int:
    """Copies of each character: 3 for 2–6 players, 4 for 7–8, 5 for 9–10 (docs/rules.md)."""
    if players <= 6:
        return 3
    if players <= 8:
        return 4
    return 5


def claim_of(action: str, variant: str) -> str | None:
    """The character an action claims, or None for a general action."""
    if action == "tax":
        return DUKE
    if action == "assassinate":
        return ASSASSIN
    if action == "steal":
        return CAPTAIN
    if action == "exchange":
        return variant
    if action == "examine":
        return INQUISITOR
    return None


def blockers_of(action: str, variant: str) -> tuple[str, ...]:
    """The characters that may block an action (empty: it cannot be blocked)."""
    if action == "foreign_aid":
        return (DUKE,)
    if action == "assassinate":
        return (CONTESSA,)
    if action == "steal":
        return (CAPTAIN, variant)
    return ()
