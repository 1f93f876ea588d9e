"""The observation vector's layout: its character slots, phases, actions and verbs, with
and without Reformation, and its size (`coup.envs.kernel.features` writes the vector,
``coup/envs/observation.py`` documents it field by field). Standard library and
`coup.rules` only; compiled with the rest of the kernel.
"""

from __future__ import annotations

from typing import Final

#: Character slots: slot 3 is the variant's fifth character.
SLOT: Final[dict[str, int]] = {
    "duke": 0,
    "assassin": 1,
    "captain": 2,
    "ambassador": 3,
    "inquisitor": 3,
    "contessa": 4,
}
PHASES: Final[tuple[str, ...]] = (
    "draft",
    "action",
    "react",
    "block",
    "challenge_block",
    "prove",
    "lose",
    "exchange",
    "show",
    "examine",
    "over",
)
#: What Reformation adds (at the end of each list, so that the others keep their places).
REFORMATION_PHASES: Final[tuple[str, ...]] = ("allegiance",)
REFORMATION_ACTIONS: Final[tuple[str, ...]] = ("convert", "embezzle")
REFORMATION_VERBS: Final[tuple[str, ...]] = ("allegiance", "convert", "embezzle")
ALLEGIANCES: Final[tuple[str, ...]] = ("loyalist", "reformist")
ACTIONS: Final[tuple[str, ...]] = (
    "income",
    "foreign_aid",
    "coup",
    "tax",
    "assassinate",
    "steal",
    "exchange",
    "examine",
)
VERBS: Final[tuple[str, ...]] = ACTIONS + (
    "pass",
    "challenge",
    "block",
    "reveal",
    "lose",
    "keep",
    "show",
    "return",
    "swap",
    "draft",
)
SEAT_FEATURES: Final = 19


def layout(reformation: bool) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], int]:
    """(phases, actions, verbs, features per seat) of the vector, with Reformation or not."""
    if reformation:
        return (
            PHASES + REFORMATION_PHASES,
            ACTIONS + REFORMATION_ACTIONS,
            VERBS + REFORMATION_VERBS,
            SEAT_FEATURES + len(ALLEGIANCES),
        )
    return PHASES, ACTIONS, VERBS, SEAT_FEATURES


def table_size(reformation: bool) -> int:
    """The table block's length: the phase one-hot, treasury, Court (and the Reserve)."""
    return len(layout(reformation)[0]) + 2 + (1 if reformation else 0)


def observation_size(players: int, history: int, reformation: bool = False) -> int:
    """The vector's length: hand 5, seats S·n, phase P + treasury + Court (+ Reserve),
    the action under way and what the viewer was shown 6n + A + 25, history
    h·(6 + V + 2n); S, P, A, V from `layout` (51 + 25n + h·(24 + 2n) without Reformation)."""
    _phases, actions, verbs, seat = layout(reformation)
    n = players
    return (
        5
        + seat * n
        + table_size(reformation)
        + 6 * n
        + len(actions)
        + 25
        + history * (6 + len(verbs) + 2 * n)
    )
