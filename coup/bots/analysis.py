"""The hard bot's analysis of one decision, for other code to call (the post-game coach).

```python
from coup.bots.analysis import analyse
result = analyse(state, seat, seed=1, budget=14_000)
result.best                       # the move the hard bot prefers, e.g. "challenge"
result.win("pass")                # its estimated win chance after that move (0..1)
result.pending                    # the claim open to challenge now, if any:
                                  #   ClaimBelief(seat=2, character="captain", bluff=0.62)
```

``analyse`` reads only what ``seat`` may know: it calls ``state.view(seat)``,
``state.legal(seat)`` and ``state.determinize(seat, rng)``, so ``state`` may also be
a seat window that allows nothing else. It is deterministic: the same view, ``seed`` and
``budget`` give the same ``Analysis``, however loaded the machine (the budget counts
playout steps, never seconds). The signature and the fields below are stable.

How the numbers are made (docs/bots.md, "The hard bot"): the seat's belief weighs worlds
redrawn by ``determinize`` by how well each explains what every opponent claimed, blocked
and passed up, and by each opponent's bluffing and challenging seen so far in the game;
every legal move is then played in the same worlds and each game finished by the hard
bot's playout policy, in which each opponent plays at the bluff and challenge rates
observed for it. A move's win chance is the mean result of its playouts (a win 1, a loss
0; with three or more players left a playout stops after a horizon and scores the seat's
share of influence and coins).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from coup.bots.knowledge import NO_DUKE, Knowledge

if TYPE_CHECKING:
    from coup import Move
    from coup.bots.window import SeatWindow

__all__ = ["DEFAULT_BUDGET", "Analysis", "ClaimBelief", "MoveChance", "analyse"]

#: Playout steps (engine moves) ``analyse`` spends by default: about 0.1 s here.
DEFAULT_BUDGET = 14_000


@dataclass(frozen=True)
class MoveChance:
    """One legal move and the seat's estimated chance to win the game after it."""

    move: str  # notation, e.g. "challenge", "steal 2", "keep duke contessa"
    win: float  # estimated win chance, 0..1
    samples: int  # playouts behind the estimate


@dataclass(frozen=True)
class ClaimBelief:
    """The seat's belief that an opponent's claim of ``character`` is a bluff."""

    seat: int  # who claimed it
    character: str  # or "no_duke": an embezzlement (Reformation), a claim of no Duke
    bluff: float  # probability, 0..1, that the claim is false


@dataclass(frozen=True)
class Analysis:
    """What the hard bot thinks of one decision of ``seat`` (see ``analyse``)."""

    seat: int
    moves: tuple[MoveChance, ...]  # every legal move, best estimate first
    best: str  # the move the hard bot prefers (see ``analyse``)
    pending: ClaimBelief | None  # the claim a challenge would now be against, if any
    claims: tuple[ClaimBelief, ...]  # each live opponent's claims made with its hand now
    seed: int
    budget: int

    def win(self, move: Move | str) -> float:
        """The estimated win chance after ``move`` (a legal move, Move or notation)."""
        text = str(move)
        for chance in self.moves:
            if chance.move == text:
                return chance.win
        raise KeyError(f"{text!r} is not a legal move of seat {self.seat} here")

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: {"seat", "best", "moves": [{"move", "win", "samples"}], "pending",
        "claims": [{"seat", "character", "bluff"}], "seed", "budget"}."""

        def claim(c: ClaimBelief) -> dict[str, Any]:
            return {"seat": c.seat, "character": c.character, "bluff": c.bluff}

        return {
            "seat": self.seat,
            "best": self.best,
            "moves": [{"move": m.move, "win": m.win, "samples": m.samples} for m in self.moves],
            "pending": None if self.pending is None else claim(self.pending),
            "claims": [claim(c) for c in self.claims],
            "seed": self.seed,
            "budget": self.budget,
        }


def analyse(
    state: SeatWindow, seat: int, *, seed: int = 0, budget: int = DEFAULT_BUDGET
) -> Analysis:
    """The hard bot's analysis of ``seat``'s decision now, from ``seat``'s view only.

    ``moves`` holds every legal move with its estimated win chance, all played in the
    same sampled worlds (so their differences are meaningful), best first; ties keep the
    order of ``state.legal(seat)``. ``best`` is the hard bot's preferred move: the best
    estimate, except that a challenge is only preferred when the claim is at least 40%
    likely a bluff (playouts undervalue letting a true claim stand). ``pending`` is the
    belief about the claim open to challenge (the block's when a block is pending);
    ``claims`` the beliefs about every live opponent's claims made with the hand it holds
    now (sorted by seat, then character). ``budget`` counts playout steps; ``seed``
    fixes every random choice. Raises ValueError when ``seat`` has no decision now.
    """
    from coup.bots.search import SearchBot
    from coup.bots.worlds import resample

    if budget < 1:
        raise ValueError("budget must be at least 1 playout step")
    legal = state.legal(seat)
    if not legal:
        raise ValueError(f"seat {seat} has no decision now")
    know = Knowledge(state.view(seat))
    bot = SearchBot(seed=seed, steps=budget)
    bot.read_opponents(know)
    pool, weights = bot.weigh_worlds(state, seat, know, bot.worlds * bot.oversample)
    total = sum(weights) or 1.0

    def belief(claimant: int, character: str) -> ClaimBelief:
        lies = 0.0
        for world, weight in zip(pool, weights, strict=True):
            hand = world.hands[claimant]
            # An embezzlement (no Duke) is a lie when the hand holds a Duke.
            lie = "duke" in hand if character == NO_DUKE else character not in hand
            lies += weight if lie else 0.0
        return ClaimBelief(claimant, character, lies / total)

    claims = tuple(
        belief(other, character)
        for other in sorted(know.opponents())
        for character in sorted(
            know.records[other].active | ({NO_DUKE} if know.records[other].no_duke else set())
        )
    )
    pending = None
    open_claim = _open_claim(know)
    if open_claim is not None and open_claim[0] != seat:
        pending = belief(*open_claim)
    worlds = resample(pool, weights, bot.worlds, bot.rng)
    totals, counts = bot.flat(worlds, seat, legal, budget)
    chances = [MoveChance(str(m), totals[m] / counts[m], counts[m]) for m in legal]
    order = sorted(range(len(legal)), key=lambda i: (-chances[i].win, i))
    moves = tuple(chances[i] for i in order)
    gate = pending is None or pending.bluff >= bot.doubt
    best = next(m.move for m in moves if gate or m.move != "challenge")
    return Analysis(seat, moves, best, pending, claims, seed, budget)


def _open_claim(know: Knowledge) -> tuple[int, str] | None:
    """(claimant, character) of the claim a challenge would now be against."""
    pending = know.pending
    if pending is None or know.phase not in ("react", "challenge_block"):
        return None
    block = pending.get("block")
    if block:
        return int(block["seat"]), str(block["claim"])
    if pending.get("claim"):
        return int(pending["actor"]), str(pending["claim"])
    if pending.get("action") == "embezzle":
        return int(pending["actor"]), NO_DUKE
    return None
