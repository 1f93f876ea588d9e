"""The hard bot's analysis of one decision, as the coach asks for it.

`analyse(state, seat, seed=..., samples=...)` answers, from ``seat``'s own view only:
the estimated win chance of each legal move, the move it prefers, and, when a claim is
pending that this seat may challenge, its belief that the claim is a bluff.

It is the search bot's own reasoning (`coup.bots.search.SearchBot`): worlds sampled from
the seat's view and reweighted by its belief, then every legal move played out in the
same worlds with the same playout seeds (common random numbers, so differences between
moves are sharper than each estimate), ``samples`` playouts per move. Deterministic for a
seed. The state is only ever reached through a `SeatWindow` (the seat's view, legal
moves and determinizations), as a bot at the table is.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from coup.bots.knowledge import Knowledge
from coup.bots.search import SearchBot
from coup.rules import Move, State

#: Playouts per legal move at each decision (the coach's CPU budget per decision).
SAMPLES = 96
#: Distinct worlds sampled from the view (playouts cycle through them with fresh seeds).
WORLDS = 48


class SeatWindow:
    """What the analysis is handed instead of the game: one seat's view, legal moves and
    determinizations, nothing else (asking about another seat raises)."""

    __slots__ = ("_seat", "_state")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self._seat = seat

    def _own(self, seat: int) -> int:
        if seat != self._seat:
            raise PermissionError(f"the analysis of seat {self._seat} asked about seat {seat}")
        return seat

    def view(self, seat: int) -> dict[str, Any]:
        return self._state.view(self._own(seat))

    def legal(self, seat: int) -> list[Move]:
        return self._state.legal(self._own(seat))

    def determinize(self, seat: int, rng: random.Random) -> State:
        return self._state.determinize(self._own(seat), rng)


@dataclass(frozen=True)
class Analysis:
    """One decision: each legal move's estimated win chance (in legal order), the best
    move, and the belief that the pending claim is a bluff (None when not a reaction)."""

    moves: tuple[tuple[str, float], ...]
    best: str
    bluff: float | None = None
    claimant: int | None = None
    claim: str | None = None

    def win(self, move: str) -> float:
        return dict(self.moves)[move]


def analyse(
    state: State | SeatWindow, seat: int, *, seed: int = 0, samples: int = SAMPLES
) -> Analysis:
    window = state if isinstance(state, SeatWindow) else SeatWindow(state, seat)
    legal = window.legal(seat)
    if not legal:
        raise ValueError(f"seat {seat} has no decision now")
    view = window.view(seat)
    bot = SearchBot(seed=seed)
    know = Knowledge(view)
    worlds = bot.sample_worlds(window, seat, know, min(WORLDS, samples))  # type: ignore[arg-type]
    totals = [0.0] * len(legal)
    base = bot.rng.randrange(2**32)
    for i in range(samples):
        world = worlds[i % len(worlds)]
        for m, move in enumerate(legal):
            value, _steps = bot.evaluate(world, seat, move, base + i)
            totals[m] += value
    wins = tuple((str(move), total / samples) for move, total in zip(legal, totals, strict=True))
    best = max(wins, key=lambda mw: mw[1])[0]
    claimant, claim = _pending_claim(view, legal)
    bluff = None
    if claimant is not None:
        lies = sum(1 for w in worlds if claim not in w.hands[claimant])
        bluff = lies / len(worlds)
    return Analysis(wins, best, bluff, claimant, claim)


def _pending_claim(view: dict[str, Any], legal: list[Move]) -> tuple[int | None, str | None]:
    """The claim this seat could challenge now (its claimant and character), if any."""
    pending = view.get("pending")
    if pending is None or not any(m.verb == "challenge" for m in legal):
        return None, None
    block = pending.get("block")
    if block:
        return int(block["seat"]), str(block["claim"])
    return int(pending["actor"]), str(pending["claim"])
