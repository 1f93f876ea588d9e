"""The game state machine: whose decision it is, what is legal, what each move does.

One `State` is one game. Phases and the order of a turn follow docs/rules.md ("The order of a
turn"); the legal moves of each phase are in `legal.py`, views in `views.py`, worlds in
`determinize.py`, records in `records.py`: functions of the game's data (`Board`), which
`State` calls; replaying a record into a `State` is `replays.py`. Plain attributes and tuples
keep `clone()` and random play fast.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final, overload

from . import rng as _rng
from .board import _NO_DRAWS
from .determinize import determinize
from .legal import legal_moves
from .moves import IllegalMoveError, Move, as_move
from .records import write_record
from .settings import Deal, Settings, deal_from_seed
from .turn import ALLEGIANCE, OVER, PHASES, Turn
from .views import build_view

if TYPE_CHECKING:
    from .shapes import AnyView, Record, SeatView, SpectatorView

#: A seat's legal moves when it is not waiting (never changed).
_NO_MOVES: Final[list[Move]] = []


class State(Turn):
    """One game of Coup. Create with `coup.new_game`; see docs/engine.md."""

    __slots__ = ()  # the data is declared in Board

    # ------------------------------------------------------------------ creation
    @classmethod
    def start(
        cls, settings: Settings, names: tuple[str, ...], seed: int, deal: Deal | None = None
    ) -> State:
        """A new game; `deal` (if given) replaces the one the seed would make."""
        s = State()  # State is final: no subclass to make
        n = settings.players
        s.settings, s.names, s.seed, s.n, s.variant = settings, names, seed, n, settings.characters
        seeded, s._rs = deal_from_seed(settings, _rng.seed_state(seed))
        s.deal = deal if deal is not None else seeded
        s.hands = list(s.deal.hands)
        s.court = list(s.deal.court[::-1])
        s.revealed = [()] * n
        s.alive_flags = [True] * n
        s.n_alive = n
        s.coins = [2] * n
        if n == 2:
            s.coins[settings.first] = 1
        s.treasury = settings.treasury - 2 * n + (1 if n == 2 else 0)
        s.reformation, s.reserve, s.allegiance = settings.reformation, 0, (None,) * n
        s.turn = settings.first
        s.winner = None
        s.picks = [None] * n
        s.drew = [False] * n
        s.history = []
        s.known_court, s.known_hands = {}, {}
        s.determinized = False
        s._pins, s._draws, s._out = [], [], False
        s._clear_pending()
        if settings.reformation:  # the first move: the first player's allegiance
            s.phase, s.waiting = ALLEGIANCE, (settings.first,)
        else:
            s._open_game()
        s._legal = None
        s._legal_seat = -1
        s._autoplay()
        return s

    def clone(self) -> State:
        """An independent copy (cheap: tuples are shared, lists copied)."""
        c = State()
        c.settings, c.names, c.seed, c.n, c.variant, c.deal = (
            self.settings, self.names, self.seed, self.n, self.variant, self.deal
        )  # fmt: skip
        c.coins = self.coins[:]
        c.hands = self.hands[:]
        c.revealed = self.revealed[:]
        c.alive_flags = self.alive_flags[:]
        c.court = self.court[:]
        c.picks = self.picks[:]
        c.drew = self.drew[:]
        c.history = self.history[:]
        c.known_court = self.known_court.copy() if self.known_court else {}
        c.known_hands = self.known_hands.copy() if self.known_hands else {}
        c.reformation, c.reserve, c.allegiance = self.reformation, self.reserve, self.allegiance
        c.n_alive, c.treasury, c.turn, c.phase, c.waiting, c.winner = (
            self.n_alive, self.treasury, self.turn, self.phase, self.waiting, self.winner
        )  # fmt: skip
        c.actor, c.action, c.target, c.claim, c.block_seat, c.block_claim = (
            self.actor, self.action, self.target, self.claim, self.block_seat, self.block_claim
        )  # fmt: skip
        c.challenger, c.challenged, c.loser, c.after_lose, c.passed, c.drawn, c.shown = (
            self.challenger, self.challenged, self.loser, self.after_lose, self.passed,
            self.drawn, self.shown,
        )  # fmt: skip
        c.determinized, c._rs = self.determinized, self._rs
        c._legal_seat, c._legal = self._legal_seat, self._legal
        c._pins, c._draws, c._out = [], [], False
        return c

    # ------------------------------------------------------------------ queries
    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def players(self) -> int:
        return self.n

    def alive(self, seat: int) -> bool:
        return self.alive_flags[seat]

    def legal(self, seat: object) -> list[Move]:
        """The moves `seat` may make now, in a fixed order ([] if it may not move)."""
        # `seat` and `play`'s arguments are typed `object`: a compiled core would refuse a
        # wrong type with a bare TypeError; the pure one answers like for a seat not waiting
        if not isinstance(seat, int):
            return []
        if seat == self._legal_seat and self._legal is not None:
            return self._legal[:]
        return self._legal_for(seat)[:]

    def _legal_for(self, seat: int) -> list[Move]:
        if seat == self._legal_seat and self._legal is not None:
            return self._legal
        moves = legal_moves(self, seat) if seat in self.waiting else []
        self._legal_seat, self._legal = seat, moves
        return moves

    @overload
    def view(self, seat: int) -> SeatView: ...
    @overload
    def view(self, seat: None = None) -> SpectatorView: ...
    @overload
    def view(self, seat: int | None) -> AnyView: ...
    def view(self, seat: int | None = None) -> AnyView:
        """What `seat` may know, JSON-ready (None: a spectator). See docs/engine.md."""
        legal = self._legal_for(seat) if seat is not None and seat in self.waiting else _NO_MOVES
        return build_view(self, seat, legal)

    def determinize(self, seat: int | None, rng: random.Random) -> State:
        """A copy with everything `seat` cannot know redrawn consistently with its view."""
        return determinize(self, seat, rng, self.clone)

    def record(self) -> Record:
        """This game as a coup-record/1 dict: deal and every draw pinned."""
        return write_record(self)

    def __repr__(self) -> str:
        return f"<coup.State {self.phase} turn={self.turn} waiting={self.waiting} moves={len(self.history)}>"

    # ------------------------------------------------------------------ playing
    def play(self, seat: object, move: object) -> None:
        """Play one move; raises InvalidMoveError / IllegalMoveError and changes nothing."""
        if not isinstance(seat, int):
            raise IllegalMoveError(self._why_illegal(seat, as_move(move)))
        legal = self._legal if seat == self._legal_seat else None
        if legal is None:
            legal = self._legal_for(seat)
        for listed in legal:  # by identity first: the move usually comes from `legal()`
            if listed is move:
                m = listed
                break
        else:
            m = as_move(move)
            if m not in legal:
                raise IllegalMoveError(self._why_illegal(seat, m))
        self._apply(seat, m, False)
        if len(self.waiting) == 1:
            self._autoplay()

    def _why_illegal(self, seat: object, move: Move) -> str:
        """Why `seat` may not play `move` now, for people: players by name (seat numbers
        count from 0 only in moves and records)."""
        if type(seat) is not int or not 0 <= seat < self.n:
            return f"no player sits at seat {seat!r} (seats 0–{self.n - 1} in a record)"
        name = self._named(seat)
        if self.phase == OVER:
            return f"{name} cannot play {move}: the game is over"
        if seat not in self.waiting:
            who = ", ".join(self._named(s) for s in self.waiting)
            return f"{name} cannot play {move}: it is not their decision (waiting for {who})"
        legal = ", ".join(map(str, self._legal_for(seat)))
        return f"{name} cannot play {move} now ({self.phase}); legal: {legal}"

    def _named(self, seat: int) -> str:
        """A player as people know them: the name, else "the player in seat N" (from 1)."""
        name = self.names[seat] if seat < len(self.names) else ""
        return name or f"the player in seat {seat + 1}"

    def _autoplay(self) -> None:
        """Play forced moves: one seat waiting with exactly one legal move."""
        while len(self.waiting) == 1:
            seat = self.waiting[0]
            moves = self._legal_for(seat)
            if len(moves) != 1:
                return
            self._apply(seat, moves[0], True)

    def _apply(self, seat: int, m: Move, forced: bool) -> None:
        self._draws = _NO_DRAWS
        self._out = False
        audience = self.actor if m.verb == "show" else None
        self._legal = None
        self._do(seat, m)
        draws = self._draws
        self.history.append((seat, m, forced, tuple(draws) if draws else (), self._out, audience))


__all__ = ["PHASES", "State"]
