"""What a bot is handed instead of the game: one seat's window on it.

A bot may only ask about its own seat: its view, its legal moves and determinizations
from its view. `SeatWindow` enforces that contract (asking about another seat raises
PermissionError), for the bots at the table and for the post-game coach alike.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from coup import Move, State


class SeatWindow:
    """One seat's view, legal moves and determinizations of ``state``, nothing else."""

    __slots__ = ("_seat", "_state", "_who")

    def __init__(self, state: State, seat: int, who: str = "a bot") -> None:
        self._state = state
        self._seat = seat
        self._who = who

    def _own(self, seat: int) -> int:
        if seat != self._seat:
            raise PermissionError(f"{self._who} in seat {self._seat} asked about seat {seat}")
        return seat

    def view(self, seat: int) -> dict[str, Any]:
        return self._state.view(self._own(seat))

    def legal(self, seat: int) -> list[Move]:
        return list(self._state.legal(self._own(seat)))

    def determinize(self, seat: int, rng: random.Random) -> State:
        return self._state.determinize(self._own(seat), rng)
