"""The game state machine: whose decision it is, what is legal, what each move does.

One `State` is one game. Phases and the order of a turn follow RULES.md ("Order of one
turn"); the legal moves of each phase are in `legal.py`, views in `views.py`, records in
`records.py`. Plain attributes and tuples keep `clone()` and random play fast.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from . import rng as _rng
from .cards import claim_of
from .legal import legal_moves
from .moves import IllegalMoveError, Move, as_move
from .settings import Deal, Settings

if TYPE_CHECKING:
    from .records import Record

DRAFT, ACTION, REACT, BLOCK, CHALLENGE_BLOCK = (
    "draft",
    "action",
    "react",
    "block",
    "challenge_block",
)
PROVE, LOSE, EXCHANGE, SHOW, EXAMINE, OVER = "prove", "lose", "exchange", "show", "examine", "over"
PHASES = (DRAFT, ACTION, REACT, BLOCK, CHALLENGE_BLOCK, PROVE, LOSE, EXCHANGE, SHOW, EXAMINE, OVER)

#: What happens after a `lose` in phase LOSE.
END, PROVED_ACTION, PROVED_BLOCK = "end", "proved_action", "proved_block"

#: Moves whose argument only the mover (and, for `show`, the examiner) may see.
PRIVATE_VERBS = frozenset({"keep", "show", "draft"})


class PinError(IllegalMoveError):
    """A record pinned a draw of a card that is not in the Court."""


# A history entry: (seat, move, forced, draws, out, audience)
#   draws: cards drawn from the Court during this move; out: the mover was knocked out;
#   audience: another seat that may see a private move's argument (the examiner of a show).
Entry = tuple[int, Move, bool, tuple[str, ...], bool, int | None]


class State:
    """One game of Coup. Create with `coup.new_game`; see docs/engine.md."""

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
    _rs: int
    _legal_seat: int
    _legal: list[Move] | None
    _pins: list[str]
    _draws: list[str]
    _out: bool

    # ------------------------------------------------------------------ creation
    @classmethod
    def start(
        cls, settings: Settings, names: tuple[str, ...], seed: int, deal: Deal | None = None
    ) -> State:
        """A new game; `deal` (if given) replaces the one the seed would make."""
        from .settings import deal_from_seed

        s = cls.__new__(cls)
        n = settings.players
        s.settings, s.names, s.seed, s.n, s.variant = settings, names, seed, n, settings.characters
        seeded, s._rs = deal_from_seed(settings, _rng.seed_state(seed))
        s.deal = deal if deal is not None else seeded
        s.hands = list(s.deal.hands)
        s.court = list(reversed(s.deal.court))
        s.revealed = [()] * n
        s.alive_flags = [True] * n
        s.n_alive = n
        s.coins = [2] * n
        if n == 2:
            s.coins[settings.first] = 1
        s.treasury = settings.treasury - sum(s.coins)
        s.turn = settings.first
        s.winner = None
        s.picks = [None] * n
        s.history = []
        s.known_court, s.known_hands = {}, {}
        s.determinized = False
        s._pins, s._draws, s._out = [], [], False
        s._clear_pending()
        if settings.draft:
            s.phase = DRAFT
            s.waiting = s._clockwise(settings.first, include_start=True)
        else:
            s._begin_turn(settings.first)
        s._legal = None
        s._legal_seat = -1
        s._autoplay()
        return s

    def clone(self) -> State:
        """An independent copy (cheap: tuples are shared, lists copied)."""
        c = State.__new__(State)
        c.settings, c.names, c.seed, c.n, c.variant, c.deal = (
            self.settings, self.names, self.seed, self.n, self.variant, self.deal
        )  # fmt: skip
        c.coins = self.coins[:]
        c.hands = self.hands[:]
        c.revealed = self.revealed[:]
        c.alive_flags = self.alive_flags[:]
        c.court = self.court[:]
        c.picks = self.picks[:]
        c.history = self.history[:]
        c.known_court = self.known_court.copy() if self.known_court else {}
        c.known_hands = self.known_hands.copy() if self.known_hands else {}
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
        return self.phase is OVER

    @property
    def players(self) -> int:
        return self.n

    def alive(self, seat: int) -> bool:
        return self.alive_flags[seat]

    def legal(self, seat: int) -> list[Move]:
        """The moves `seat` may make now, in a fixed order ([] if it may not move)."""
        if seat == self._legal_seat and self._legal is not None:
            return self._legal[:]
        return self._legal_for(seat)[:]

    def _legal_for(self, seat: int) -> list[Move]:
        if seat == self._legal_seat and self._legal is not None:
            return self._legal
        moves = legal_moves(self, seat) if seat in self.waiting else []
        self._legal_seat, self._legal = seat, moves
        return moves

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What `seat` may know, JSON-ready (None: a spectator). See docs/engine.md."""
        from .views import build_view

        return build_view(self, seat)

    def determinize(self, seat: int | None, rng: random.Random) -> State:
        """A copy with everything `seat` cannot know redrawn consistently with its view."""
        from .determinize import determinize

        return determinize(self, seat, rng)

    def record(self) -> Record:
        """This game as a coup-record/1 dict: deal and every draw pinned."""
        from .records import write_record

        return write_record(self)

    def __repr__(self) -> str:
        return f"<coup.State {self.phase} turn={self.turn} waiting={self.waiting} moves={len(self.history)}>"

    # ------------------------------------------------------------------ playing
    def play(self, seat: int, move: Move | str) -> None:
        """Play one move; raises InvalidMoveError / IllegalMoveError and changes nothing."""
        m = move if type(move) is Move else as_move(move)
        legal = self._legal if seat == self._legal_seat else None
        if legal is None:
            legal = self._legal_for(seat)
        if m not in legal:
            raise IllegalMoveError(self._why_illegal(seat, m))
        self._apply(seat, m, False)
        if len(self.waiting) == 1:
            self._autoplay()

    def _why_illegal(self, seat: int, move: Move) -> str:
        if type(seat) is not int or not 0 <= seat < self.n:
            return f"seat {seat!r} is not at this table (seats 0–{self.n - 1})"
        if self.phase is OVER:
            return f"seat {seat} cannot play {move}: the game is over"
        if seat not in self.waiting:
            who = ", ".join(map(str, self.waiting))
            return f"seat {seat} cannot play {move}: it is not their decision (waiting: {who})"
        legal = ", ".join(map(str, self._legal_for(seat)))
        return f"seat {seat} cannot play {move} now ({self.phase}); legal: {legal}"

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
        _DISPATCH[m.verb](self, seat, m)
        draws = self._draws
        self.history.append((seat, m, forced, tuple(draws) if draws else (), self._out, audience))

    # --- the action ---------------------------------------------------------
    def _do_income(self, seat: int, m: Move) -> None:
        self._announce(seat, m)
        self._gain(seat, 1)
        self._end_turn()

    def _do_coup(self, seat: int, m: Move) -> None:
        self._announce(seat, m)
        self.coins[seat] -= 7
        self.treasury += 7
        self._lose(m.arg, END)  # type: ignore[arg-type]

    def _do_foreign_aid(self, seat: int, m: Move) -> None:
        self._announce(seat, m)
        self._open_react()

    def _do_claim(self, seat: int, m: Move) -> None:
        self._announce(seat, m)
        if m.verb == "assassinate":
            self.coins[seat] -= 3
            self.treasury += 3
        self._open_react()

    _do_tax = _do_steal = _do_assassinate = _do_exchange = _do_examine = _do_claim

    def _announce(self, seat: int, m: Move) -> None:
        self.actor, self.action = seat, m.verb
        self.target = m.arg if type(m.arg) is int else None
        self.claim = claim_of(m.verb, self.variant)

    # --- reactions ----------------------------------------------------------
    def _do_pass(self, seat: int, m: Move) -> None:
        self.passed += (seat,)
        w = self.waiting
        i = w.index(seat)
        self.waiting = w[:i] + w[i + 1 :]
        if self.waiting:
            return
        if self.phase is CHALLENGE_BLOCK:
            self._end_turn()  # the block stands: the action fails, its coins stay paid
        else:
            self._resolve()

    def _do_challenge(self, seat: int, m: Move) -> None:
        self.challenger = seat
        if self.phase is CHALLENGE_BLOCK:
            self._prove(self.block_seat, "block")  # type: ignore[arg-type]
        else:
            self._prove(self.actor, "action")  # type: ignore[arg-type]

    def _do_block(self, seat: int, m: Move) -> None:
        self.block_seat, self.block_claim = seat, m.arg  # type: ignore[assignment]
        self.phase = CHALLENGE_BLOCK
        self.passed = ()
        self.waiting = tuple(s for s in self._clockwise(self.actor, True) if s != seat)  # type: ignore[arg-type]

    def _prove(self, claimant: int, what: str) -> None:
        self.phase, self.challenged, self.waiting = PROVE, what, (claimant,)

    def _do_reveal(self, seat: int, m: Move) -> None:
        card: str = m.arg  # type: ignore[assignment]
        self._take_from_hand(seat, card)
        self.court.append(card)
        self._shuffle()
        self._draw_into(seat)
        cont = PROVED_ACTION if self.challenged == "action" else PROVED_BLOCK
        self._lose(self.challenger, cont)  # type: ignore[arg-type]

    def _do_lose(self, seat: int, m: Move) -> None:
        self._lose_card(seat, m.arg)  # type: ignore[arg-type]
        if self.n_alive == 1:
            self._finish()
        elif self.phase is PROVE:  # the claimant declined to prove
            if self.challenged == "action":
                if self.action == "assassinate":  # a failed action's coins come back
                    self.coins[self.actor] += 3  # type: ignore[index]
                    self.treasury -= 3
                self._end_turn()
            else:
                self._resolve()  # the block failed: the action goes ahead
        else:
            self._continue(self.after_lose)

    def _lose(self, seat: int, cont: str) -> None:
        if not self.alive_flags[seat]:
            self._continue(cont)
            return
        self.phase, self.loser, self.after_lose, self.waiting = LOSE, seat, cont, (seat,)

    def _continue(self, cont: str) -> None:
        if cont == END or cont == PROVED_BLOCK:  # PROVED_BLOCK: the block stands
            self._end_turn()
        elif self.action in ("assassinate", "steal") and self.alive_flags[self.target]:  # type: ignore[index]
            self.phase, self.passed, self.waiting = BLOCK, (), (self.target,)  # type: ignore[assignment]
            self.challenger = self.challenged = None
        else:
            self._resolve()

    # --- resolution ---------------------------------------------------------
    def _resolve(self) -> None:
        action, actor, target = self.action, self.actor, self.target
        assert actor is not None
        if action == "foreign_aid":
            self._gain(actor, 2)
        elif action == "tax":
            self._gain(actor, 3)
        elif action == "steal":
            assert target is not None
            took = min(2, self.coins[target])
            self.coins[target] -= took
            self.coins[actor] += took
        elif action == "assassinate":
            self._lose(target, END)  # type: ignore[arg-type]
            return
        elif action == "exchange":
            k = 2 if self.variant == "ambassador" else 1
            self.drawn = tuple(self._draw() for _ in range(min(k, len(self.court))))
            self._invalidate_hand(actor)
            self.phase, self.waiting = EXCHANGE, (actor,)
            return
        elif action == "examine" and self.alive_flags[target]:  # type: ignore[index]
            self.phase, self.waiting = SHOW, (target,)  # type: ignore[assignment]
            return
        self._end_turn()

    def _do_keep(self, seat: int, m: Move) -> None:
        pool = list(self.hands[seat] + self.drawn)
        for card in m.arg:  # type: ignore[union-attr]
            pool.remove(card)
        self.hands[seat] = m.arg  # type: ignore[assignment]
        self.court.extend(pool)
        self._shuffle()
        self.drawn = ()
        self.known_court[seat] = tuple(sorted(pool))
        self._end_turn()

    def _do_show(self, seat: int, m: Move) -> None:
        self.shown = m.arg  # type: ignore[assignment]
        self.phase, self.waiting = EXAMINE, (self.actor,)  # type: ignore[assignment]

    def _do_return(self, seat: int, m: Move) -> None:
        target, shown = self.target, self.shown
        assert target is not None and shown is not None
        known = self.known_hands.get((seat, target), ())
        if known.count(shown) < self.hands[target].count(shown):
            self.known_hands[seat, target] = tuple(sorted((*known, shown)))
        self._end_turn()

    def _do_swap(self, seat: int, m: Move) -> None:
        target: int = self.target  # type: ignore[assignment]
        self._take_from_hand(target, self.shown)  # type: ignore[arg-type]
        self.court.append(self.shown)  # type: ignore[arg-type]
        self._shuffle()
        self._draw_into(target)
        self._end_turn()

    def _do_draft(self, seat: int, m: Move) -> None:
        card: str = m.arg  # type: ignore[assignment]
        self.picks[seat] = card
        self.hands[seat] = tuple(sorted(self.hands[seat] + (card,)))
        self.waiting = tuple(s for s in self.waiting if s != seat)
        if not self.waiting:
            self._begin_turn(self.settings.first)

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

    def _open_react(self) -> None:
        self.phase, self.passed = REACT, ()
        self.waiting = self._clockwise(self.actor, False)  # type: ignore[arg-type]

    def _clear_pending(self) -> None:
        self.actor = self.action = self.target = self.claim = None
        self.block_seat = self.block_claim = self.challenger = self.challenged = None
        self.loser, self.after_lose, self.passed, self.drawn, self.shown = None, END, (), (), None

    def _begin_turn(self, seat: int) -> None:
        self._clear_pending()
        self.turn, self.phase, self.waiting = seat, ACTION, (seat,)

    def _end_turn(self) -> None:
        self._return_coins_of_the_out()
        if self.n_alive == 1:
            self._finish()
            return
        self._begin_turn(self._clockwise(self.turn, False)[0])

    def _return_coins_of_the_out(self) -> None:
        if self.n_alive == self.n:
            return
        for seat in range(self.n):
            if not self.alive_flags[seat] and self.coins[seat]:
                self.treasury += self.coins[seat]
                self.coins[seat] = 0

    def _finish(self) -> None:
        self._return_coins_of_the_out()
        self._clear_pending()
        self.phase, self.waiting = OVER, ()
        self.winner = self.alive_flags.index(True)

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
        card = self._draw()
        self.hands[seat] = tuple(sorted(self.hands[seat] + (card,)))
        self._invalidate_hand(seat)

    def _invalidate_hand(self, seat: int) -> None:
        if self.known_hands:
            for key in [k for k in self.known_hands if k[1] == seat]:
                del self.known_hands[key]


_NO_DRAWS: list[str] = []

#: Seats clockwise from each start: _ORDERS[n][start] = (start, start+1, ...) mod n.
_ORDERS = [[tuple((a + i) % n for i in range(n)) for a in range(n)] for n in range(11)]

_DISPATCH = {name[4:]: getattr(State, name) for name in dir(State) if name.startswith("_do_")}

__all__ = ["PHASES", "PinError", "State"]
