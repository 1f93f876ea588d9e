"""Determinization: a copy of the game in which everything a seat cannot know is redrawn.

Used by search bots (sample worlds consistent with what a seat knows). The result depends
only on what the seat may know (its view) and on `rng`: two states that look the same to
the seat give the same world for the same rng. What the seat knows is kept: its own
cards, every face-up card, the cards it was shown (exchange draw, an examined card) and
the hard facts of `view["known"]` (public ones too: a challenged embezzler's Duke); coins,
allegiances, the Reserve, phase and history are public. An embezzler whose challenger is
losing influence is known to hold no Duke until the redraw: worlds that give them one are
drawn again.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import TypeVar

from .board import SPECTATOR, Board, Entry, hidden_from
from .cards import DUKE
from .moves import Move
from .reformation import lacks_duke
from .settings import Deal

#: A world is of the game's own class (`State`): a fresh copy made by its `clone`, redrawn.
World = TypeVar("World", bound=Board)


#: Draws of a world before giving up on a "no Duke" fact (the true world keeps it, so each
#: draw has a fair chance; in practice one or two do).
_TRIES = 200


def determinize(
    s: Board, seat: int | None, rng: random.Random, clone: Callable[[], World]
) -> World:
    """A world for `seat`: a copy made by `clone` (of `s`) whose hidden cards are redrawn."""
    lacking = lacks_duke(s) if s.reformation else None
    world = _world(s, seat, rng, clone())
    if lacking is None or lacking == seat:
        return world
    for _ in range(_TRIES):
        if DUKE not in world.hands[lacking]:
            break
        world = _world(s, seat, rng, clone())
    return world


def _world(s: Board, seat: int | None, rng: random.Random, c: World) -> World:
    c.determinized = True
    n = s.n
    seen_exchange = s.phase == "exchange" and seat == s.actor
    seen_shown = s.phase == "examine" and seat is not None and seat in (s.actor, s.target)

    # The cards whose places the seat knows.
    fixed: Counter[str] = Counter()
    for r in s.revealed:
        fixed.update(r)
    if seat is not None:
        fixed.update(s.hands[seat])
        if seen_exchange:
            fixed.update(s.drawn)
    known_court = list(s.known_court.get(seat, ())) if seat is not None else []
    viewer = SPECTATOR if seat is None else seat
    known_hands = {t: list(v) for (w, t), v in s.known_hands.items() if w == viewer}
    if s.phase == "over":  # every hand is shown at the end
        known_hands = {t: list(s.hands[t]) for t in range(n) if t != seat}
    shown_target = s.target if seen_shown and s.target != seat else None
    for cards in known_hands.values():
        fixed.update(cards)
    fixed.update(known_court)
    if shown_target is not None and s.shown not in known_hands.get(shown_target, []):
        known_hands.setdefault(shown_target, []).append(s.shown)  # type: ignore[arg-type]
        fixed[s.shown] += 1  # type: ignore[index]

    universe, guessed = _universe(s, seat, fixed, rng)
    unknown = list((universe - fixed).elements())
    unknown.sort()
    rng.shuffle(unknown)
    # Draft: another player's (guessed) pick is still in their hand until they draw or
    # turn that character face up; their other card came from the shuffled pile.
    others = [t for t, p in enumerate(s.picks) if p is not None and t != seat]
    pick_of = dict(zip(others, guessed, strict=True))
    for t, pick in pick_of.items():
        hand = known_hands.setdefault(t, [])
        if s.drew[t] or pick in s.revealed[t] or pick in hand or len(hand) >= len(s.hands[t]):
            continue
        unknown.remove(pick)
        hand.append(pick)

    # Redeal: other hands (their known cards first), the pending exchange draw, the Court.
    for t in range(n):
        if t == seat:
            continue
        size = len(s.hands[t])
        hand = known_hands.get(t, [])[:size]
        while len(hand) < size:
            hand.append(unknown.pop())
        c.hands[t] = tuple(sorted(hand))
    if s.phase == "exchange" and not seen_exchange:
        c.drawn = tuple(unknown.pop() for _ in s.drawn)
    court = known_court + unknown
    rng.shuffle(court)
    assert len(court) == len(s.court), "determinize: card count mismatch"
    c.court = court
    if s.phase == "examine" and not seen_shown:
        c.shown = rng.choice(c.hands[s.target])  # type: ignore[index]
    if s.settings.draft:  # others' picks, as guessed
        c.picks = [pick_of.get(t, p) for t, p in enumerate(s.picks)]

    # Nothing of what other seats know, nor the true hidden moves, nor the seed and the
    # deal they came from, may stay in the copy (a world may be handed to a bot elsewhere).
    c.seed = 0
    c.deal = Deal(tuple(() for _ in range(n)), ())
    c.known_court = {seat: s.known_court[seat]} if seat in s.known_court else {}
    c.known_hands = {k: v for k, v in s.known_hands.items() if k[0] == viewer}
    c.history = [_redact(e, seat) for e in s.history]
    c._rs = rng.getrandbits(64)
    c._legal = None
    return c


def _universe(
    s: Board, seat: int | None, fixed: Counter[str], rng: random.Random
) -> tuple[Counter[str], list[str]]:
    """The multiset of cards in play, as far as `seat` knows it, and the guessed picks."""
    if not s.settings.draft:
        return Counter(s.settings.deck()), []
    # Draft: one pile (one card of each character) plus each player's pick. The seat
    # knows its own pick; the other pick is any character consistent with what is seen.
    base = Counter(s.settings.in_play)
    picks = [p for t, p in enumerate(s.picks) if t == seat and p is not None]
    base.update(picks)
    unknown_picks = sum(1 for t, p in enumerate(s.picks) if p is not None and t != seat)
    # The picks must at least cover what is seen beyond the pile and known picks.
    guessed = sorted((fixed - base).elements())
    guessed += [rng.choice(s.settings.in_play) for _ in range(unknown_picks - len(guessed))]
    rng.shuffle(guessed)
    base.update(guessed)
    return base, guessed


def _redact(e: Entry, seat: int | None) -> Entry:
    mover, move, forced, _draws, out, audience = e
    if hidden_from(e, seat):
        move = Move(move.verb)
    return (mover, move, forced, (), out, audience)
