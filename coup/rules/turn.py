"""The order of one turn (docs/rules.md): what each move does, from the announced action through
challenges and blocks to its resolution.

`Turn` adds the moves' effects to the game's data (`Board`, board.py); `State` (state.py)
adds creation, queries and `play`.
"""

from __future__ import annotations

from typing import Final

from . import reformation as _reformation
from .board import Board
from .cards import claim_of
from .moves import Move

# The phases (`Final`: a compiled core compares with the constants themselves).
ALLEGIANCE: Final = "allegiance"
DRAFT: Final = "draft"
ACTION: Final = "action"
REACT: Final = "react"
BLOCK: Final = "block"
CHALLENGE_BLOCK: Final = "challenge_block"
PROVE: Final = "prove"
LOSE: Final = "lose"
EXCHANGE: Final = "exchange"
SHOW: Final = "show"
EXAMINE: Final = "examine"
OVER: Final = "over"
PHASES: Final = (
    ALLEGIANCE,
    DRAFT,
    ACTION,
    REACT,
    BLOCK,
    CHALLENGE_BLOCK,
    PROVE,
    LOSE,
    EXCHANGE,
    SHOW,
    EXAMINE,
    OVER,
)

#: The actions that claim a character (or, embezzle, the lack of one).
_CLAIMS: Final = frozenset({"tax", "steal", "assassinate", "exchange", "examine", "embezzle"})

#: What happens after a `lose` in phase LOSE.
END: Final = "end"
PROVED_ACTION: Final = "proved_action"
PROVED_BLOCK: Final = "proved_block"


class Turn(Board):
    """The moves' effects (the base of `State`)."""

    __slots__ = ()

    # --- one move -----------------------------------------------------------
    def _do(self, seat: int, m: Move) -> None:
        """What move `m` of `seat` does (it is legal: the caller checked). One chain of
        comparisons, most frequent verbs first: a compiled core runs it in C."""
        verb = m.verb
        if verb == "pass":
            self._do_pass(seat, m)
        elif verb in _CLAIMS:
            self._do_claim(seat, m)
        elif verb == "income":
            self._do_income(seat, m)
        elif verb == "lose":
            self._do_lose(seat, m)
        elif verb == "challenge":
            self._do_challenge(seat, m)
        elif verb == "block":
            self._do_block(seat, m)
        elif verb == "foreign_aid":
            self._do_foreign_aid(seat, m)
        elif verb == "coup":
            self._do_coup(seat, m)
        elif verb == "reveal":
            self._do_reveal(seat, m)
        elif verb == "keep":
            self._do_keep(seat, m)
        elif verb == "show":
            self._do_show(seat, m)
        elif verb == "return":
            self._do_return(seat, m)
        elif verb == "swap":
            self._do_swap(seat, m)
        elif verb == "convert":
            self._do_convert(seat, m)
        elif verb == "draft":
            self._do_draft(seat, m)
        elif verb == "allegiance":
            self._do_allegiance(seat, m)
        else:
            raise ValueError(f"no such move: {m}")

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
        if self.reformation:  # only players who may block it are asked (there is always one)
            self.waiting = tuple(s for s in self.waiting if _reformation.may_oppose(self, s, seat))

    def _do_claim(self, seat: int, m: Move) -> None:
        self._announce(seat, m)
        if m.verb == "assassinate":
            self.coins[seat] -= 3
            self.treasury += 3
        self._open_react()

    # tax, steal, assassinate, exchange, examine and embezzle (a claim of no Duke; only a
    # challenge can stop it) are all `_do_claim` (see `_do`)

    def _do_convert(self, seat: int, m: Move) -> None:
        self._announce(seat, m)
        _reformation.convert(self, seat, self.target)
        self._end_turn()

    def _announce(self, seat: int, m: Move) -> None:
        self.actor, self.action = seat, m.verb
        self.target = m.arg if type(m.arg) is int else None
        self.claim = claim_of(m.verb, self.variant)

    # --- reactions ----------------------------------------------------------
    def _do_pass(self, seat: int, m: Move) -> None:
        self.passed += (seat,)
        self.waiting = tuple([s for s in self.waiting if s != seat])
        if self.waiting:
            return
        if self.phase == CHALLENGE_BLOCK:
            self._end_turn()  # the block stands: the action fails, its coins stay paid
        else:
            self._resolve()

    def _do_challenge(self, seat: int, m: Move) -> None:
        self.challenger = seat
        if self.action == "embezzle":
            self._challenge_embezzlement(seat)
        elif self.phase == CHALLENGE_BLOCK:
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

    def _challenge_embezzlement(self, challenger: int) -> None:
        """Decided from the hand itself: a Duke holder loses an influence and takes nothing;
        otherwise the challenger loses one, then the hand is redrawn (`_resolve`)."""
        actor: int = self.actor  # type: ignore[assignment]
        self.challenged = "action"
        if _reformation.holds_duke(self, actor):
            _reformation.known_to_hold_duke(self, actor)
            self._lose(actor, END)
        else:
            self._lose(challenger, PROVED_ACTION)

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
        elif self.phase == PROVE:  # the claimant declined to prove
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
        elif action == "embezzle":
            if self.challenger is not None:  # proved by showing the whole hand
                _reformation.redraw_hand(self, actor)
            _reformation.take_reserve(self, actor)
        self._end_turn()

    def _do_keep(self, seat: int, m: Move) -> None:
        pool = list(self.hands[seat] + self.drawn)
        for card in m.arg:  # type: ignore[union-attr]
            pool.remove(card)
        self.hands[seat] = m.arg  # type: ignore[assignment]
        self.drew[seat] = True
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

    def _do_allegiance(self, seat: int, m: Move) -> None:
        self.allegiance = _reformation.alternating(seat, self.n, m.arg)  # type: ignore[arg-type]
        self._open_game()

    def _do_draft(self, seat: int, m: Move) -> None:
        card: str = m.arg  # type: ignore[assignment]
        self.picks[seat] = card
        self.hands[seat] = tuple(sorted(self.hands[seat] + (card,)))
        self.waiting = tuple(s for s in self.waiting if s != seat)
        if not self.waiting:
            self._begin_turn(self.settings.first)

    # --- the flow of turns ---------------------------------------------------
    def _open_game(self) -> None:
        """After the first player's allegiance (Reformation): the draft, or the first turn."""
        if self.settings.draft:
            self.phase = DRAFT
            self.waiting = self._clockwise(self.settings.first, include_start=True)
        else:
            self._begin_turn(self.settings.first)

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

    def _finish(self) -> None:
        self._return_coins_of_the_out()
        self._clear_pending()
        self.phase, self.waiting = OVER, ()
        self.winner = self.alive_flags.index(True)
