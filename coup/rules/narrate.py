"""The game in words (English): one sentence per move of a view's `history`.

`describe(history, names)` turns history entries (``{"seat", "move", "forced"?, "out"?}``,
as in `State.view(seat)["history"]`) into sentences such as "Sepideh claims Ambassador to
exchange". Only what the entries show is told, so a seat's history never tells more than
that seat may know.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from .reformation import CONVERT_OTHER_COST, CONVERT_SELF_COST, alternating, opposite

if TYPE_CHECKING:
    from .shapes import HistoryEntry

_ACTIONS = {
    "income": "takes income",
    "foreign_aid": "takes foreign aid",
    "tax": "claims Duke to take tax",
    "exchange": "claims {claim} to exchange",
    "coup": "launches a coup against {target}",
    "assassinate": "claims Assassin to assassinate {target}",
    "steal": "claims Captain to steal from {target}",
    "examine": "claims Inquisitor to examine {target}",
}


def title(card: str) -> str:
    return card.capitalize()


class Narrator:
    """Keeps the little context a sentence needs (whose claim is challenged, and so on)."""

    def __init__(self, names: Sequence[str], variant: str = "ambassador") -> None:
        self.names = list(names)
        self.allegiance: list[str] = []  # Reformation: every seat's, once chosen
        self.reserve = 0  # Reformation: coins on the Treasury Reserve, as told so far
        self.variant = variant
        self.actor: int | None = None
        self.action: str | None = None
        self.target: int | None = None
        self.blocker: int | None = None
        self.block_claim: str | None = None
        self.challenger: int | None = None
        self.embezzled = 0

    def name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return f"seat {seat}"
        return self.names[seat]

    def tell(self, entry: HistoryEntry) -> str:
        seat, text = entry["seat"], entry["move"]
        verb, _, arg = text.partition(" ")
        who = self.name(seat)
        line = self._sentence(seat, who, verb, arg)
        if entry.get("out"):
            line += ", and is out"
        if entry.get("forced"):
            line += " (forced)"
        return line + "."

    def _sentence(self, seat: int, who: str, verb: str, arg: str) -> str:
        if verb in _REFORMATION:
            return self._reformation(seat, who, verb, arg)
        if verb in _ACTIONS:
            self.actor, self.action = seat, verb
            self.target = int(arg) if arg else None
            self.blocker = self.block_claim = self.challenger = None
            claim = title(self.variant)
            return f"{who} " + _ACTIONS[verb].format(claim=claim, target=self.name(self.target))
        if verb == "pass":
            if self.blocker is not None:
                return f"{who} lets the block stand"
            return f"{who} lets it pass"
        if verb == "challenge":
            self.challenger = seat
            if self.blocker is not None:
                return (
                    f"{who} challenges {self.name(self.blocker)}'s {title(self.block_claim or '')}"
                )
            return f"{who} challenges {self.name(self.actor)}"
        if verb == "block":
            self.blocker, self.block_claim, self.challenger = seat, arg, None
            return f"{who} blocks as {title(arg)}"
        if verb == "reveal":
            return f"{who} reveals {title(arg)}, wins the challenge and draws a new card"
        if verb == "lose":
            return self._embezzlement_decided(seat) + f"{who} loses {title(arg)}"
        if verb == "keep":
            if arg:
                return f"{who} keeps {' and '.join(title(c) for c in arg.split())}"
            return f"{who} finishes the exchange"
        if verb == "show":
            shown = f" {title(arg)}" if arg else " a card"
            return f"{who} shows{shown} to {self.name(self.actor)}"
        if verb == "return":
            return f"{who} gives the card back"
        if verb == "swap":
            return f"{who} makes {self.name(self.target)} swap the card for a new one"
        if verb == "draft":
            return f"{who} drafts {title(arg)}" if arg else f"{who} drafts a card"
        return f"{who} plays {verb} {arg}".rstrip()

    def _reformation(self, seat: int, who: str, verb: str, arg: str) -> str:
        if verb == "allegiance":
            self.allegiance = list(alternating(seat, len(self.names), arg))
            return f"{who} chooses {title(arg)}; allegiances alternate clockwise"
        self.actor, self.action, self.challenger = seat, verb, None
        self.blocker = self.block_claim = None
        if verb == "embezzle":
            self.target, self.embezzled = None, self.reserve
            self.reserve = 0  # given back below if the embezzler is caught
            return f"{who} embezzles {self.embezzled} from the Reserve, claiming no Duke"
        self.target = int(arg) if arg else None
        convert = seat if self.target is None else self.target
        cost = CONVERT_SELF_COST if self.target is None else CONVERT_OTHER_COST
        self.reserve += cost
        becomes = "a new allegiance"
        if 0 <= convert < len(self.allegiance):
            now = self.allegiance[convert] = opposite(self.allegiance[convert])
            becomes = title(now)
        if self.target is None:
            return f"{who} pays {cost} to convert to {becomes}"
        return f"{who} pays {cost} to convert {self.name(self.target)} to {becomes}"

    def _embezzlement_decided(self, seat: int) -> str:
        """The first `lose` after an embezzlement is challenged says who was right."""
        if self.action != "embezzle" or self.challenger is None:
            return ""
        challenger, self.challenger = self.challenger, None
        embezzler = self.name(self.actor)
        if seat == challenger:
            return f"{embezzler} had no Duke: "
        self.reserve += self.embezzled  # caught: the Reserve stays where it was
        return f"{embezzler} had a Duke: "


_REFORMATION = frozenset({"allegiance", "convert", "embezzle"})


def describe(
    history: Iterable[HistoryEntry], names: Sequence[str], variant: str = "ambassador"
) -> list[str]:
    """Sentences for history entries, in order."""
    narrator = Narrator(names, variant)
    return [narrator.tell(e) for e in history]
