"""The game's data and its bookkeeping: coins and the treasury, hands, the Court and its
draws, seats in and out, and the history entries that record it all.

`Board` declares the data; `Turn` (turn.py) adds the moves' effects, `State` (state.py)
creation, queries and `play`.
"""

from __future__ import annotations

from typing import Final

from . import rng as _rng
from .moves import IllegalMoveError, Move
from .settings import Deal, Settings

#: Who knows a public fact about a hand: every seat, and spectators under this key.
SPECTATOR: Final = -1

#: Moves whose argument only the mover (and, for `show`, the examiner) may see.
PRIVATE_VERBS: Final = frozenset({"keep", "show", "draft"})


class PinError(IllegalMoveError):
    """A record pinned a draw of a card that is not in the Court."""


# A history entry: (seat, move, forced, draws, out, audience)
#   draws: cards drawn from the Court during this move; out: the mover was knocked out;
#   audience: another seat that may see a private move's argument (the examiner of a show).
Entry = tuple[int, Move, bool, tuple[str, ...], bool, int | None]


def hidden_from(entry: Entry, seat: int | None) -> bool:
    """Is this history entry's argument secret for `seat`? (Only the mover, and for a `show`
    the examiner, see a private move's card; a spectator sees none.)"""
    mover, move, _forced, _draws, _out, audience = entry
    return move.verb in PRIVATE_VERBS and seat != mover and (seat is None or seat != audience)


_NO_DRAWS: Final[list[str]] = []

#: Seats clockwise from each start: _ORDERS[n][start] = (start, start+1, ...) mod n.
_ORDERS: Final = [[tuple((a + i) % n for i in range(n)) for a in range(n)] for n in range(11)]


class Board:
    """The game's data and its bookkeeping (the base of `Turn` and `State`)."""

    __slots__ = (
        "_draws",
        "_legal",
        "_legal_seat",
        "_out",
        "_pins",
        "_rs",
        "action",
        "actor",
        "after_lose",
        "alive_flags",
        "allegiance",
        "block_claim",
        "block_seat",
        "challenged",
        "challenger",
        "claim",
        "coins",
        "court",
        "deal",
        "determinized",
        "drawn",
        "drew",
        "hands",
        "history",
        "known_court",
        "known_hands",
        "loser",
        "n",
        "n_alive",
        "names",
        "passed",
        "phase",
        "picks",
        "reformation",
        "reserve",
        "revealed",
        "seed",
        "settings",
        "shown",
        "target",
        "treasury",
        "turn",
        "variant",
        "waiting",
        "winner",
    )  # fmt: skip

    settings: Settings
    names: tuple[str, ...]
    seed: int
    n: int
    variant: str
    deal: Deal
    coins: list[int]
    hands: list[tuple[str, ...]]
    revealed: list[tuple[str, ...]]
    alive_flags: list[bool]
    n_alive: int
    court: list[str]  # top card last
    treasury: int
    reformation: bool  # the Reformation expansion is on
    reserve: int  # coins on the Treasury Reserve (Reformation)
    allegiance: tuple[str | None, ...]  # per seat (Reformation); None before the choice
    turn: int
    phase: str
    waiting: tuple[int, ...]
    winner: int | None
    actor: int | None
    action: str | None
    target: int | None
    claim: str | None
    block_seat: int | None
    block_claim: str | None
    challenger: int | None
    challenged: str | None  # "action" or "block" while a challenge is under way
    loser: int | None
    after_lose: str
    passed: tuple[int, ...]
    drawn: tuple[str, ...]
    shown: str | None
    picks: list[str | None]
    history: list[Entry]
    known_court: dict[int, tuple[str, ...]]
    known_hands: dict[tuple[int, int], tuple[str, ...]]
    determinized: bool
    drew: list[bool]  # has the seat drawn from the Court since the deal (public)
    _rs: int
    _legal_seat: int
    _legal: list[Move] | None
    _pins: list[str]
    _draws: list[str]
    _out: bool

    # --- bookkeeping --------------------------------------------------------
    def _gain(self, seat: int, amount: int) -> None:
        amount = min(amount, self.treasury)  # the treasury is finite
        self.coins[seat] += amount
        self.treasury -= amount

    def _clockwise(self, start: int, include_start: bool) -> tuple[int, ...]:
        seats = _ORDERS[self.n][start][0 if include_start else 1 :]
        if self.n_alive == self.n:
            return seats
        alive = self.alive_flags
        return tuple(s for s in seats if alive[s])

    def _return_coins_of_the_out(self) -> None:
        if self.n_alive == self.n:
            return
        for seat in range(self.n):
            if not self.alive_flags[seat] and self.coins[seat]:
                self.treasury += self.coins[seat]
                self.coins[seat] = 0

    def _take_from_hand(self, seat: int, card: str) -> None:
        hand = list(self.hands[seat])
        hand.remove(card)
        self.hands[seat] = tuple(hand)

    def _lose_card(self, seat: int, card: str) -> None:
        self._take_from_hand(seat, card)
        self.revealed[seat] = tuple(sorted(self.revealed[seat] + (card,)))
        if self.known_hands:
            for key, cards in list(self.known_hands.items()):
                if key[1] == seat and card in cards:
                    rest = list(cards)
                    rest.remove(card)
                    if rest:
                        self.known_hands[key] = tuple(rest)
                    else:
                        del self.known_hands[key]
        if not self.hands[seat]:
            self.alive_flags[seat] = False
            self.n_alive -= 1
            self._out = True

    def _shuffle(self) -> None:
        self._rs = _rng.shuffle(self._rs, self.court)

    def _draw(self) -> str:
        if self._pins:
            card = self._pins.pop(0)
            court = self.court
            if card not in court:
                raise PinError(f"the record pins a draw of {card!r}, which is not in the Court")
            court.pop(len(court) - 1 - court[::-1].index(card))  # the one nearest the top
        else:
            card = self.court.pop()
        if self._draws is _NO_DRAWS:
            self._draws = []
        self._draws.append(card)
        if self.known_court:
            self.known_court = {}
        return card

    def _draw_into(self, seat: int) -> None:
        self.drew[seat] = True
        card = self._draw()
        self.hands[seat] = tuple(sorted(self.hands[seat] + (card,)))
        self._invalidate_hand(seat)

    def _invalidate_hand(self, seat: int) -> None:
        if self.known_hands:
            for key in [k for k in self.known_hands if k[1] == seat]:
                del self.known_hands[key]
