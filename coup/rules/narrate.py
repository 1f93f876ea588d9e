"""The game in words: one sentence per move of a view's `history`.

`describe(history, names)` turns history entries (``{"seat", "move", "forced"?, "out"?}``,
as in `State.view(seat)["history"]`) into sentences such as "Sepideh claims Ambassador to
exchange". Only what the entries show is told, so a seat's history never tells more than
that seat may know.

The sentences are the templates of `PHRASES`, in English; another language's templates
(the same keys and ``{placeholders}``) may be given instead, as `coup replay --lang` does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Final

from .reformation import CONVERT_OTHER_COST, CONVERT_SELF_COST, alternating, opposite

if TYPE_CHECKING:
    from .shapes import HistoryEntry

#: Every sentence and word the narrator says, in English, by key.
PHRASES: Final[dict[str, str]] = {
    "income": "{who} takes income",
    "foreign_aid": "{who} takes foreign aid",
    "tax": "{who} claims {claim} to take tax",
    "exchange": "{who} claims {claim} to exchange",
    "coup": "{who} launches a coup against {target}",
    "assassinate": "{who} claims {claim} to assassinate {target}",
    "steal": "{who} claims {claim} to steal from {target}",
    "examine": "{who} claims {claim} to examine {target}",
    "pass": "{who} lets it pass",
    "pass_block": "{who} lets the block stand",
    "challenge": "{who} challenges {target}",
    "challenge_block": "{who} challenges {target}'s {card}",
    "block": "{who} blocks as {card}",
    "reveal": "{who} reveals {card}, wins the challenge and draws a new card",
    "lose": "{who} loses {card}",
    "keep": "{who} keeps {cards}",
    "keep_hidden": "{who} finishes the exchange",
    "show": "{who} shows {card} to {target}",
    "show_hidden": "{who} shows a card to {target}",
    "return": "{who} gives the card back",
    "swap": "{who} makes {target} swap the card for a new one",
    "draft": "{who} drafts {card}",
    "draft_hidden": "{who} drafts a card",
    "unknown": "{who} plays {move}",
    "allegiance": "{who} chooses {allegiance}; allegiances alternate clockwise",
    "embezzle": "{who} embezzles {n} from the Reserve, claiming no Duke",
    "convert_self": "{who} pays {n} to convert to {allegiance}",
    "convert": "{who} pays {n} to convert {target} to {allegiance}",
    "convert_unknown": "a new allegiance",
    "embezzler_had_no_duke": "{embezzler} had no Duke: {sentence}",
    "embezzler_had_a_duke": "{embezzler} had a Duke: {sentence}",
    "out": "{sentence}, and is out",
    "forced": "{sentence} (forced)",
    "end": "{sentence}.",
    "and": "{first} and {second}",
    "seat": "seat {seat}",
    "duke": "Duke",
    "assassin": "Assassin",
    "captain": "Captain",
    "ambassador": "Ambassador",
    "inquisitor": "Inquisitor",
    "contessa": "Contessa",
    "loyalist": "Loyalist",
    "reformist": "Reformist",
}

_ACTIONS: Final = frozenset(
    {"income", "foreign_aid", "tax", "exchange", "coup", "assassinate", "steal", "examine"}
)
#: The character each character action claims (the exchange's is the game's fifth).
_CLAIMS: Final = {
    "tax": "duke",
    "assassinate": "assassin",
    "steal": "captain",
    "examine": "inquisitor",
}


def title(card: str) -> str:
    return card.capitalize()


class Narrator:
    """Keeps the little context a sentence needs (whose claim is challenged, and so on)."""

    def __init__(
        self,
        names: Sequence[str],
        variant: str = "ambassador",
        phrases: Mapping[str, str] | None = None,
    ) -> None:
        self.names = list(names)
        self.phrases: dict[str, str] = {**PHRASES, **(phrases or {})}
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

    def say(self, key: str, **values: object) -> str:
        """The phrase `key` with its placeholders filled in."""
        return self.phrases[key].format(**values)

    def word(self, card: str) -> str:
        """A character's or an allegiance's name ("duke" -> "Duke")."""
        return self.phrases.get(card, title(card))

    def words(self, cards: Sequence[str]) -> str:
        """Names joined as a list: "Duke and Captain" (pairs joined, left to right)."""
        told = [self.word(c) for c in cards]
        if not told:
            return ""
        joined = told[0]
        for card in told[1:]:
            joined = self.say("and", first=joined, second=card)
        return joined

    def name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return self.say("seat", seat=seat)
        return self.names[seat]

    def tell(self, entry: HistoryEntry) -> str:
        seat, text = entry["seat"], entry["move"]
        verb, _, arg = text.partition(" ")
        who = self.name(seat)
        line = self._sentence(seat, who, verb, arg)
        if entry.get("out"):
            line = self.say("out", sentence=line)
        if entry.get("forced"):
            line = self.say("forced", sentence=line)
        return self.say("end", sentence=line)

    def _sentence(self, seat: int, who: str, verb: str, arg: str) -> str:
        if verb in _REFORMATION:
            return self._reformation(seat, who, verb, arg)
        if verb in _ACTIONS:
            self.actor, self.action = seat, verb
            self.target = int(arg) if arg else None
            self.blocker = self.block_claim = self.challenger = None
            claim = self.word(_CLAIMS.get(verb, self.variant))
            return self.say(verb, who=who, claim=claim, target=self.name(self.target))
        if verb == "pass":
            return self.say("pass_block" if self.blocker is not None else "pass", who=who)
        if verb == "challenge":
            self.challenger = seat
            if self.blocker is not None:
                card = self.word(self.block_claim or "")
                return self.say(
                    "challenge_block", who=who, target=self.name(self.blocker), card=card
                )
            return self.say("challenge", who=who, target=self.name(self.actor))
        if verb == "block":
            self.blocker, self.block_claim, self.challenger = seat, arg, None
            return self.say("block", who=who, card=self.word(arg))
        if verb == "reveal":
            return self.say("reveal", who=who, card=self.word(arg))
        if verb == "lose":
            return self._embezzlement_decided(seat, self.say("lose", who=who, card=self.word(arg)))
        if verb == "keep":
            if arg:
                return self.say("keep", who=who, cards=self.words(arg.split()))
            return self.say("keep_hidden", who=who)
        if verb == "show":
            if arg:
                return self.say("show", who=who, card=self.word(arg), target=self.name(self.actor))
            return self.say("show_hidden", who=who, target=self.name(self.actor))
        if verb == "return":
            return self.say("return", who=who)
        if verb == "swap":
            return self.say("swap", who=who, target=self.name(self.target))
        if verb == "draft":
            if arg:
                return self.say("draft", who=who, card=self.word(arg))
            return self.say("draft_hidden", who=who)
        return self.say("unknown", who=who, move=f"{verb} {arg}".rstrip())

    def _reformation(self, seat: int, who: str, verb: str, arg: str) -> str:
        if verb == "allegiance":
            self.allegiance = list(alternating(seat, len(self.names), arg))
            return self.say("allegiance", who=who, allegiance=self.word(arg))
        self.actor, self.action, self.challenger = seat, verb, None
        self.blocker = self.block_claim = None
        if verb == "embezzle":
            self.target, self.embezzled = None, self.reserve
            self.reserve = 0  # given back below if the embezzler is caught
            return self.say("embezzle", who=who, n=self.embezzled)
        self.target = int(arg) if arg else None
        convert = seat if self.target is None else self.target
        cost = CONVERT_SELF_COST if self.target is None else CONVERT_OTHER_COST
        self.reserve += cost
        becomes = self.say("convert_unknown")
        if 0 <= convert < len(self.allegiance):
            now = self.allegiance[convert] = opposite(self.allegiance[convert])
            becomes = self.word(now)
        if self.target is None:
            return self.say("convert_self", who=who, n=cost, allegiance=becomes)
        return self.say(
            "convert", who=who, n=cost, target=self.name(self.target), allegiance=becomes
        )

    def _embezzlement_decided(self, seat: int, loss: str) -> str:
        """The first `lose` after an embezzlement is challenged says who was right."""
        if self.action != "embezzle" or self.challenger is None:
            return loss
        challenger, self.challenger = self.challenger, None
        embezzler = self.name(self.actor)
        if seat == challenger:
            return self.say("embezzler_had_no_duke", embezzler=embezzler, sentence=loss)
        self.reserve += self.embezzled  # caught: the Reserve stays where it was
        return self.say("embezzler_had_a_duke", embezzler=embezzler, sentence=loss)


_REFORMATION = frozenset({"allegiance", "convert", "embezzle"})


def describe(
    history: Iterable[HistoryEntry],
    names: Sequence[str],
    variant: str = "ambassador",
    phrases: Mapping[str, str] | None = None,
) -> list[str]:
    """Sentences for history entries, in order (in English unless `phrases` are given)."""
    narrator = Narrator(names, variant, phrases)
    return [narrator.tell(e) for e in history]
