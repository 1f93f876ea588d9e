"""The game in words (English): one sentence per move of a view's `history`.

`describe(history, names)` turns history entries (``{"seat", "move", "forced"?, "out"?}``,
as in `State.view(seat)["history"]`) into sentences such as "Sepideh claims Ambassador to
exchange". Only what the entries show is told, so a seat's history never tells more than
that seat may know.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

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
        self.variant = variant
        self.actor: int | None = None
        self.action: str | None = None
        self.target: int | None = None
        self.blocker: int | None = None
        self.block_claim: str | None = None
        self.challenger: int | None = None

    def name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return f"seat {seat}"
        return self.names[seat]

    def tell(self, entry: dict[str, Any]) -> str:
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
            return f"{who} loses {title(arg)}"
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


def describe(
    history: Iterable[dict[str, Any]], names: Sequence[str], variant: str = "ambassador"
) -> list[str]:
    """Sentences for history entries, in order."""
    narrator = Narrator(names, variant)
    return [narrator.tell(e) for e in history]
