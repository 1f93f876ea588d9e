"""Plain styles for the opponent league, written from the rules alone.

These players share nothing with the heuristic or search bots (no card counting, no
belief): each reads its view, does the obvious thing with the cards it holds, and has one
habit that names it. The hard bot was never tuned against them.

- ``never-challenge``: never challenges anything.
- ``challenge-all``: challenges every claim it is allowed to.
- ``duke-every-turn``: claims the Duke (tax) on every turn it cannot coup, and blocks
  every foreign aid as the Duke, whatever it holds; never challenges.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coup import Move
    from coup.bots.window import SeatWindow
    from coup.rules.shapes import SeatView

#: Cards it would rather keep, best first (it loses and gives back from the end).
PREFERENCE = ("duke", "assassin", "captain", "contessa", "inquisitor", "ambassador")


def _rank(card: str) -> int:
    return PREFERENCE.index(card) if card in PREFERENCE else len(PREFERENCE)


class PlainBot:
    """Acts with what it holds: coup at 7, assassinate, tax, steal, foreign aid, income;
    blocks only with cards it holds; reveals when it can."""

    name = "plain"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: SeatWindow, seat: int) -> Move:
        legal = state.legal(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal move now")
        texts = [str(m) for m in legal]
        view = state.view(seat)
        pick = self.pick(view, view["players"][seat]["cards"] or [], texts)
        return legal[texts.index(pick)] if pick in texts else legal[0]

    def pick(self, view: SeatView, hand: list[str], legal: list[str]) -> str:
        phase = view["phase"]
        if phase == "action":
            return self.action(view, hand, legal)
        if phase in ("react", "block", "challenge_block"):
            return self.reaction(view, hand, legal)
        if phase == "prove":
            reveals = [m for m in legal if m.startswith("reveal ")]
            return reveals[0] if reveals else self.give_up(legal)
        if phase in ("lose", "show"):
            return self.give_up(legal)
        if phase == "exchange":
            return min(
                (m for m in legal if m.startswith("keep ")),
                key=lambda m: sorted(_rank(c) for c in m.split()[1:]),
            )
        if phase == "examine":  # an examined Duke, Assassin or Captain is sent back
            shown = view.get("private", {}).get("shown")
            card = shown["card"] if shown else None
            return "swap" if card in PREFERENCE[:3] else "return"
        if phase == "draft":
            return min((m for m in legal if m.startswith("draft ")), key=lambda m: _rank(m[6:]))
        return self.rng.choice(legal)

    @staticmethod
    def give_up(legal: list[str]) -> str:
        """Lose (or show) the card it values least."""
        return max(legal, key=lambda m: _rank(m.split()[-1]))

    # -- its turn ---------------------------------------------------------------------
    def action(self, view: SeatView, hand: list[str], legal: list[str]) -> str:
        me = view["players"][view["seat"]]
        others = [p for p in view["players"] if p["alive"] and p["seat"] != view["seat"]]
        strongest = max(others, key=lambda p: (p["influence"], p["coins"]))["seat"]
        richest = max(others, key=lambda p: p["coins"])
        if f"coup {strongest}" in legal:
            return f"coup {strongest}"
        if "assassin" in hand and f"assassinate {strongest}" in legal:
            return f"assassinate {strongest}"
        if "duke" in hand:
            return "tax"
        if "captain" in hand and richest["coins"] >= 2:
            return f"steal {richest['seat']}"
        exchanger = "ambassador" in hand or "inquisitor" in hand
        if exchanger and me["coins"] < 7 and "contessa" not in hand and self.rng.random() < 0.3:
            return "exchange"
        return "foreign_aid" if "foreign_aid" in legal else legal[0]

    # -- other players' turns --------------------------------------------------------
    def reaction(self, view: SeatView, hand: list[str], legal: list[str]) -> str:
        if self.challenges(view) and "challenge" in legal:
            return "challenge"
        for move in legal:
            if move.startswith("block ") and move.split()[1] in hand:
                return move
        return "pass"

    def challenges(self, view: SeatView) -> bool:
        return False


class NeverChallengeBot(PlainBot):
    name = "never-challenge"


class ChallengeAllBot(PlainBot):
    name = "challenge-all"

    def challenges(self, view: SeatView) -> bool:
        return True


class DukeEveryTurnBot(PlainBot):
    name = "duke-every-turn"

    def action(self, view: SeatView, hand: list[str], legal: list[str]) -> str:
        coups = [m for m in legal if m.startswith("coup ")]
        if coups:
            return super().action(view, hand, legal)
        return "tax"

    def reaction(self, view: SeatView, hand: list[str], legal: list[str]) -> str:
        if "block duke" in legal:
            return "block duke"
        return super().reaction(view, hand, legal)
