"""A fast playout policy for the search bot, played inside sampled worlds.

In a determinized world every hand is known to the program, but each seat here still
plays only from its *own* cards and the public table: it claims what it holds (and bluffs
now and then), blocks with what it holds, and challenges claims it can count to be false
or, rarely, on a hunch. Reading the world's attributes directly keeps a playout cheap.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from coup.bots.knowledge import BASE_VALUE
from coup.bots.targeting import ATTACKS

if TYPE_CHECKING:
    from coup import Move, State


class Playout:
    """Playout parameters; the defaults model a cautious, mostly honest table."""

    def __init__(
        self,
        bluff: float = 0.15,
        block_bluff: float = 0.1,
        last_card_contessa: float = 0.5,
        challenge: float = 0.06,
        coup_at: int = 7,
    ) -> None:
        self.bluff = bluff
        self.block_bluff = block_bluff
        self.last_card_contessa = last_card_contessa
        self.challenge = challenge
        self.coup_at = coup_at
        # Per seat, when an opponent model is set (search.py): the chance it bluffs on a
        # turn and the chance it challenges a claim (aimed at it or not).
        self.bluffs: list[float] | None = None
        self.challenges: list[float] | None = None
        # ... and, when set, the chance it challenges a claim of seat ``me`` (the searcher).
        self.doubts_me: list[float] | None = None
        self.me = -1
        # Per seat, when its habit is known (targeting.py): whom its coups and
        # assassinations go for ("richest", "weakest", "grudge"); None: the leader, roughly.
        self.habits: list[str | None] | None = None
        # With a "grudge" habit: whom each seat last saw attack it, at the playout's start
        # (and, in ``grudge``, during it).
        self.grudges: list[int | None] | None = None
        self.grudge: list[int | None] = []
        # Per seat, when grudges are read by the evidence (search ``spite``): the chance
        # its coup or assassination goes for its grudge instead, and the chance it
        # challenges a claim of ``me`` while it holds a grudge against ``me``.
        self.spite: list[float] | None = None
        self.spite_me: list[float] | None = None  # ... when the grudge is against ``me``
        self.grudge_doubts: list[float] | None = None
        # Whether a challenge won in the playout makes a grudge too (the claimant who
        # loses an influence for it holds one against its challenger), as at the table.
        self.won_grudges = True

    # ------------------------------------------------------------------------------------
    def run(
        self,
        world: State,
        rng: random.Random,
        limit: int = 400,
        root: tuple[int, Move] | None = None,
    ) -> int:
        """Play ``world`` on to the end (or ``limit`` decisions); returns the decisions made.
        ``root``: the move just played by the searcher (a grudge against it if an attack)."""
        # The moves come from the engine's own legal list, so the playout applies them
        # without the legality check of ``play`` (the hot loop of the search); should the
        # engine's internals change, it falls back to the public ``play``.
        steps = 0
        apply = getattr(world, "_apply", None)
        autoplay = getattr(world, "_autoplay", None)
        fast = apply is not None and autoplay is not None
        grudges = self.grudges
        if grudges is not None:
            self.grudge = grudge = list(grudges)
            if root is not None and self.spite is not None:
                actor, first = root
                if first.verb in ATTACKS and type(first.arg) is int:
                    grudge[first.arg] = actor
        while world.phase != "over" and steps < limit:
            seat = world.waiting[0]
            move = self.move(world, seat, rng)
            if grudges is not None:
                if move.verb in ATTACKS and type(move.arg) is int:
                    grudge[move.arg] = seat
                elif move.verb == "lose" and self.won_grudges and world.phase == "prove":
                    grudge[seat] = world.challenger
            if fast:
                apply(seat, move, False)  # type: ignore[misc]
                autoplay()  # type: ignore[misc]
            else:
                world.play(seat, move)
            steps += 1
        return steps

    def move(self, w: State, seat: int, rng: random.Random) -> Move:
        legal = w._legal_for(seat) if hasattr(w, "_legal_for") else w.legal(seat)
        if len(legal) == 1:
            return legal[0]
        phase = w.phase
        hand = w.hands[seat]
        if phase == "action":
            return self.act(w, seat, hand, legal, rng)
        if phase == "react" or phase == "block":
            return self.react(w, seat, hand, legal, rng)
        if phase == "challenge_block":
            if self.doubt(w, seat, w.block_seat, w.block_claim, w.actor == seat, rng):  # type: ignore[arg-type]
                return legal[1]
            return legal[0]
        if phase == "prove":
            return legal[0] if legal[0].verb == "reveal" else _worst(legal)
        if phase == "lose":
            return _worst(legal)
        if phase == "exchange":
            return max(legal, key=_keep_worth)
        if phase == "show":
            return _worst(legal)
        if phase == "examine":
            shown = w.shown or "ambassador"
            return legal[1] if BASE_VALUE.get(shown, 3.0) >= 4.0 else legal[0]
        return rng.choice(legal)

    # ------------------------------------------------------------------------------------
    def act(
        self, w: State, seat: int, hand: tuple[str, ...], legal: list[Move], rng: random.Random
    ) -> Move:
        coins = w.coins[seat]
        if coins >= self.coup_at:
            coups = [m for m in legal if m.verb == "coup"]
            if coups:
                return self.victim(w, seat, coups, rng)
        bluffing = rng.random() < (self.bluffs[seat] if self.bluffs else self.bluff)
        if coins >= 3 and ("assassin" in hand or (bluffing and rng.random() < 0.3)):
            hits = [m for m in legal if m.verb == "assassinate"]
            if hits:
                return self.victim(w, seat, hits, rng)
        if "duke" in hand or (bluffing and rng.random() < 0.6):
            return _find(legal, "tax") or legal[0]
        if "captain" in hand or bluffing:
            steals = [m for m in legal if m.verb == "steal" and w.coins[m.arg] >= 2]  # type: ignore[index]
            if steals:
                return max(steals, key=lambda m: w.coins[m.arg] + rng.random())  # type: ignore[index]
        if w.reformation and w.reserve >= 2 and "duke" not in hand:
            embezzle = _find(legal, "embezzle")
            if embezzle is not None:
                return embezzle
        if w.variant in hand and rng.random() < 0.4:
            return _find(legal, "exchange") or legal[0]
        if rng.random() < 0.5:
            return _find(legal, "foreign_aid") or legal[0]
        return legal[0]  # income

    def victim(self, w: State, seat: int, attacks: list[Move], rng: random.Random) -> Move:
        """The coup or assassination this seat makes: at its habitual victim when known."""
        habit = self.habits[seat] if self.habits is not None else None
        if self.spite is not None:
            enemy = self.grudge[seat]
            chance = (self.spite_me if enemy == self.me else self.spite)[seat]  # type: ignore[index]
            if rng.random() < chance:
                for m in attacks:
                    if m.arg == enemy:
                        return m
        if habit == "grudge":
            enemy = self.grudge[seat]
            for m in attacks:
                if m.arg == enemy:
                    return m
            habit = None
        if habit == "weakest":
            return max(attacks, key=lambda m: rng.random() - _threat(w, m.arg))  # type: ignore[arg-type]
        if habit == "richest":
            return max(attacks, key=lambda m: w.coins[m.arg] + rng.random())  # type: ignore[index]
        return max(attacks, key=lambda m: _threat(w, m.arg) + rng.random())  # type: ignore[arg-type]

    def react(
        self, w: State, seat: int, hand: tuple[str, ...], legal: list[Move], rng: random.Random
    ) -> Move:
        blocks = [m for m in legal if m.verb == "block"]
        for m in blocks:
            if m.arg in hand and (w.action != "foreign_aid" or rng.random() < 0.7):
                return m
        if blocks and w.action != "foreign_aid":
            if w.action == "assassinate" and len(hand) == 1:
                if rng.random() < self.last_card_contessa:
                    return blocks[0]
            elif rng.random() < self.block_bluff:
                return rng.choice(blocks)
        if w.action == "embezzle" and w.phase == "react":  # a claim of no Duke
            return legal[1] if rng.random() < self.challenge_rate(seat) else legal[0]
        claim = w.claim if w.phase == "react" else None
        if claim is not None and self.doubt(w, seat, w.actor, claim, w.target == seat, rng):  # type: ignore[arg-type]
            return legal[1]
        return legal[0]

    def doubt(
        self, w: State, seat: int, claimant: int, claim: str, aimed: bool, rng: random.Random
    ) -> bool:
        """Challenge? Always when the cards one sees prove the claim false."""
        seen = w.hands[seat].count(claim)
        for cards in w.revealed:
            seen += cards.count(claim)
        if seen >= w.settings.copies:
            return True
        if self.grudge_doubts is not None and claimant == self.me == self.grudge[seat]:
            return rng.random() < self.grudge_doubts[seat]
        if self.doubts_me is not None and claimant == self.me:
            return rng.random() < self.doubts_me[seat]
        if self.challenges is not None:
            return rng.random() < self.challenges[seat]
        return rng.random() < (self.challenge * (2.0 if aimed else 0.5))

    def challenge_rate(self, seat: int) -> float:
        return self.challenges[seat] if self.challenges is not None else self.challenge


def _find(legal: list[Move], verb: str) -> Move | None:
    for m in legal:
        if m.verb == verb:
            return m
    return None


def _worst(legal: list[Move]) -> Move:
    loses = [m for m in legal if m.verb in ("lose", "show")]
    return min(loses, key=lambda m: BASE_VALUE.get(m.arg, 3.0))  # type: ignore[arg-type]


def _keep_worth(m: Move) -> float:
    cards: tuple[str, ...] = m.arg  # type: ignore[assignment]
    return sum(BASE_VALUE.get(c, 3.0) for c in cards) + (0.6 if len(set(cards)) > 1 else 0.0)


def _threat(w: State, seat: int) -> float:
    return 3.0 * len(w.hands[seat]) + w.coins[seat] / 3.0
