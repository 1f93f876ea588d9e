"""A fixed integer action space for learning agents, one per player count.

Every move of Coup's notation (RECORDS.md) has one integer, the same in every state of a
game with that many players, so a policy can output a fixed-size vector and a mask says
which entries are legal now.

Two choices make the space small and easy to learn on:

* **Targets are relative to the acting seat.** ``steal +1`` is "steal from the next seat
  clockwise", whoever that is; ``coup +3`` in a 4-player game targets the seat just before
  the actor. Absolute seat numbers are only used in the notation (``steal 2``).
* **The fifth character is one slot.** Character slots are
  ``duke, assassin, captain, ambassador|inquisitor, contessa``; slot 3 means the Ambassador
  in ``characters="ambassador"`` games and the Inquisitor in ``"inquisitor"`` games. So the
  space depends on the player count only; moves a variant never has (``examine``, ``show``,
  ``return``, ``swap`` in Ambassador games) are simply never legal.

The layout for ``n`` players (``k`` = ``n - 1`` targets, 5 character slots):

=========================  =====  =============================================
block                      size   moves
=========================  =====  =============================================
general / bare actions     4      ``income``, ``foreign_aid``, ``tax``, ``exchange``
targeted actions           4·k    ``coup +1..+k``, ``assassinate +1..``, ``steal +1..``,
                                  ``examine +1..``
reactions                  2      ``pass``, ``challenge``
block C                    5      one per character slot
reveal C                   5
lose C                     5
keep ...                   20     every multiset of 1 or 2 slots: 5 singles, then the
                                  15 pairs ``(i, j)``, ``i <= j``, in order
show C                     5
examine result             2      ``return``, ``swap``
draft C                    5
=========================  =====  =============================================

In total ``53 + 4·(n-1)`` actions: 57 for 2 players, 65 for 4, 73 for 6.

**Reformation** (``reformation=True``) appends, after ``draft``, so that every other
integer keeps its move:

=========================  =====  =============================================
allegiance A               2      ``allegiance loyalist``, ``allegiance reformist``
convert                    1      convert oneself (1 coin to the Reserve)
convert +1..+k             k      convert another player (2 coins), relative seats
embezzle                   1      take the Reserve, claiming no Duke
=========================  =====  =============================================

``57 + 5·(n-1)`` actions: 62 for 2 players, 72 for 4, 82 for 6.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations_with_replacement

import numpy as np

from coup.envs.kernel.stepper import LegalMask
from coup.rules.cards import ALLEGIANCES, characters_in
from coup.rules.moves import Move
from coup.rules.state import State

#: Names of the five character slots (slot 3 is the variant's fifth character).
SLOTS: tuple[str, ...] = ("duke", "assassin", "captain", "ambassador|inquisitor", "contessa")
BARE_ACTIONS: tuple[str, ...] = ("income", "foreign_aid", "tax", "exchange")
TARGETED_ACTIONS: tuple[str, ...] = ("coup", "assassinate", "steal", "examine")
CHARACTER_VERBS: tuple[str, ...] = ("block", "reveal", "lose")
#: Every multiset of one or two character slots, in action order.
KEEP_SLOTS: tuple[tuple[int, ...], ...] = tuple(
    [(i,) for i in range(5)] + list(combinations_with_replacement(range(5), 2))
)
_INT8 = np.dtype(np.int8)  # a dtype object: frombuffer converts ``np.int8`` at every call
_frombuffer = np.frombuffer


def action_count(players: int, reformation: bool = False) -> int:
    """The size of the action space for a game of `players` players."""
    return 53 + 4 * (players - 1) + ((4 + players - 1) if reformation else 0)


class ActionSpace:
    """The integer actions of an ``players``-seat game of variant ``characters``.

    ``action_to_move(action, seat)`` and ``move_to_action(move, seat)`` translate between
    integers and the engine's :class:`coup.Move` for the seat that moves (the seat is
    needed because targets are relative to it). Both are dictionary lookups.
    """

    def __init__(
        self, players: int, characters: str = "ambassador", reformation: bool = False
    ) -> None:
        if not 2 <= players <= 10:
            raise ValueError(f"players must be 2 to 10, not {players!r}")
        if characters not in ("ambassador", "inquisitor"):
            raise ValueError(f"characters must be 'ambassador' or 'inquisitor', not {characters!r}")
        self.players = players
        self.characters = characters
        self.reformation = reformation
        self.slots: tuple[str, ...] = characters_in(characters)
        self.size = action_count(players, reformation)
        #: Human-readable label of every action, e.g. ``"steal +1"``, ``"keep duke contessa"``.
        self.labels: tuple[str, ...] = tuple(self._labels())
        self._moves: list[list[Move]] = [self._moves_for(seat) for seat in range(players)]
        self._actions: list[dict[Move, int]] = [
            {move: action for action, move in enumerate(moves)} for moves in self._moves
        ]
        self._legal_mask = LegalMask(self._actions, self.size)

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        extra = ", reformation=True" if self.reformation else ""
        return f"ActionSpace(players={self.players}, characters={self.characters!r}{extra})"

    def _labels(self) -> Iterable[str]:
        yield from BARE_ACTIONS
        for verb in TARGETED_ACTIONS:
            for k in range(1, self.players):
                yield f"{verb} +{k}"
        yield "pass"
        yield "challenge"
        for verb in CHARACTER_VERBS:
            for name in self.slots:
                yield f"{verb} {name}"
        for keep in KEEP_SLOTS:
            yield "keep " + " ".join(self.slots[i] for i in keep)
        for name in self.slots:
            yield f"show {name}"
        yield "return"
        yield "swap"
        for name in self.slots:
            yield f"draft {name}"
        if self.reformation:
            for side in ALLEGIANCES:
                yield f"allegiance {side}"
            yield "convert"
            for k in range(1, self.players):
                yield f"convert +{k}"
            yield "embezzle"

    def _moves_for(self, seat: int) -> list[Move]:
        n, slots = self.players, self.slots
        moves = [Move(verb) for verb in BARE_ACTIONS]
        for verb in TARGETED_ACTIONS:
            moves += [Move(verb, (seat + k) % n) for k in range(1, n)]
        moves += [Move("pass"), Move("challenge")]
        for verb in CHARACTER_VERBS:
            moves += [Move(verb, name) for name in slots]
        for keep in KEEP_SLOTS:
            moves.append(Move("keep", tuple(sorted(slots[i] for i in keep))))
        moves += [Move("show", name) for name in slots]
        moves += [Move("return"), Move("swap")]
        moves += [Move("draft", name) for name in slots]
        if self.reformation:
            moves += [Move("allegiance", side) for side in ALLEGIANCES]
            moves.append(Move("convert"))
            moves += [Move("convert", (seat + k) % n) for k in range(1, n)]
            moves.append(Move("embezzle"))
        assert len(moves) == self.size
        return moves

    def action_to_move(self, action: int, seat: int) -> Move:
        """The move that integer `action` stands for when `seat` plays it."""
        if not 0 <= action < self.size:
            raise ValueError(f"action {action!r} is outside 0..{self.size - 1}")
        return self._moves[seat][int(action)]

    def move_to_action(self, move: Move | str, seat: int) -> int:
        """The integer of `move` (a Move or notation) played by `seat`."""
        if isinstance(move, str):
            move = Move.parse(move)
        try:
            return self._actions[seat][move]
        except KeyError:
            raise ValueError(f"{str(move)!r} by seat {seat} has no action in {self!r}") from None

    def actions(self, moves: Sequence[Move], seat: int) -> list[int]:
        """The integers of `moves` (for example ``state.legal(seat)``), in the same order."""
        table = self._actions[seat]
        return [table[move] for move in moves]

    def mask(self, moves: Sequence[Move], seat: int) -> np.ndarray:
        """An int8 vector with 1 at the integer of each of `moves` (the legal-action mask)."""
        buffer = bytearray(self.size)
        table = self._actions[seat]
        for move in moves:
            buffer[table[move]] = 1
        return _frombuffer(buffer, _INT8)

    def legal_mask(self, state: State, seat: int) -> np.ndarray:
        """The mask of `seat`'s legal moves in `state` (int8), written by the kernel:
        the same as ``mask(state.legal(seat), seat)``, without a loop over the moves."""
        return _frombuffer(self._legal_mask.mask(state, seat), _INT8)

    def label(self, action: int) -> str:
        """A readable, seat-independent name of `action`, e.g. ``"coup +2"``."""
        return self.labels[action]
