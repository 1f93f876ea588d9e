"""What a bot is handed instead of the game: one seat's window on it.

A bot may only ask about its own seat: its view, its legal moves and determinizations
from its view. `SeatWindow` is that contract as a type: `Bot.choose` takes one, so a bot
that reads anything else of the game (another seat's cards, the Court) is a type error.
A `State` is a `SeatWindow` too (a test or a local game hands it over as it is);
`GuardedWindow` also enforces the contract at run time (asking about another seat raises
PermissionError), for the bots at the online table and for the post-game coach.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from coup import Move, State
    from coup.rules.shapes import SeatView


class SeatWindow(Protocol):
    """What a bot may ask of the game, each time about its own `seat`."""

    def view(self, seat: int) -> SeatView:
        """All `seat` may know (docs/engine.md)."""
        ...

    def legal(self, seat: int) -> list[Move]:
        """`seat`'s legal moves now."""
        ...

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A world consistent with `seat`'s view: a whole game, everything hidden redrawn."""
        ...


class GuardedWindow:
    """A `SeatWindow` on one seat of ``state`` that refuses questions about another."""

    __slots__ = ("_seat", "_state", "_who")

    def __init__(self, state: State, seat: int, who: str = "a bot") -> None:
        self._state = state
        self._seat = seat
        self._who = who

    def _own(self, seat: int) -> int:
        if seat != self._seat:
            raise PermissionError(f"{self._who} in seat {self._seat} asked about seat {seat}")
        return seat

    def view(self, seat: int) -> SeatView:
        return self._state.view(self._own(seat))

    def legal(self, seat: int) -> list[Move]:
        return list(self._state.legal(self._own(seat)))

    def determinize(self, seat: int, rng: random.Random) -> State:
        return self._state.determinize(self._own(seat), rng)


__all__ = ["GuardedWindow", "SeatWindow"]
