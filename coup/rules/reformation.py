"""Reformation (docs/rules.md, "Reformation"): allegiances, the Treasury Reserve, conversion,
embezzlement, and the same-allegiance restriction on targets and on blocking Foreign Aid.

Functions over the game's data (`Board`); the moves that use them are in turn.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .board import SPECTATOR
from .cards import DUKE, LOYALIST, REFORMIST

if TYPE_CHECKING:
    from .board import Board

#: What a conversion costs: of one's own allegiance, of another player's.
CONVERT_SELF_COST: Final = 1
CONVERT_OTHER_COST: Final = 2


def opposite(allegiance: str | None) -> str:
    return REFORMIST if allegiance == LOYALIST else LOYALIST


def alternating(first: int, players: int, choice: str) -> tuple[str, ...]:
    """Every seat's allegiance: the first player's choice, then alternating clockwise."""
    other = opposite(choice)
    return tuple(choice if (seat - first) % players % 2 == 0 else other for seat in range(players))


def united(b: Board) -> bool:
    """Do all players still in the game share one allegiance? (The restriction is lifted.)"""
    seen = {b.allegiance[s] for s in range(b.n) if b.alive_flags[s]}
    return len(seen) <= 1


def may_oppose(b: Board, seat: int, other: int) -> bool:
    """May `seat` Coup, Assassinate, Steal from or Examine `other`, or block `other`'s
    Foreign Aid? Not when they share an allegiance, unless every living player does."""
    if not b.reformation or b.allegiance[seat] != b.allegiance[other]:
        return True
    return united(b)


def convert(b: Board, seat: int, target: int | None) -> None:
    """Pay the Reserve to change one's own allegiance (target None) or another's."""
    cost = CONVERT_SELF_COST if target is None else CONVERT_OTHER_COST
    who = seat if target is None else target
    b.coins[seat] -= cost
    b.reserve += cost
    flipped = list(b.allegiance)
    flipped[who] = opposite(flipped[who])
    b.allegiance = tuple(flipped)


def holds_duke(b: Board, seat: int) -> bool:
    return DUKE in b.hands[seat]


def known_to_hold_duke(b: Board, seat: int) -> None:
    """A challenged embezzler held a Duke: every other seat (and spectators) now knows one
    of their face-down cards is a Duke, until it is turned up or their hand changes."""
    for viewer in (*range(b.n), SPECTATOR):
        if viewer == seat:
            continue
        known = b.known_hands.get((viewer, seat), ())
        if DUKE not in known:
            b.known_hands[viewer, seat] = tuple(sorted((*known, DUKE)))


def redraw_hand(b: Board, seat: int) -> None:
    """After a failed challenge of an embezzlement: the whole face-down hand goes back to the
    Court, the Court is shuffled, and as many cards are drawn."""
    hand = b.hands[seat]
    b.hands[seat] = ()
    b.court.extend(hand)
    b._shuffle()
    for _ in hand:
        b._draw_into(seat)


def take_reserve(b: Board, seat: int) -> None:
    b.coins[seat] += b.reserve
    b.reserve = 0


def lacks_duke(b: Board) -> int | None:
    """The seat everyone knows holds no Duke now: an embezzler whose challenger is losing
    influence, before the redraw. None when there is no such seat."""
    if b.action == "embezzle" and b.phase == "lose" and b.loser == b.challenger:
        return b.actor
    return None
