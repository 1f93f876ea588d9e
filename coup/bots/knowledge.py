"""What a seat knows, read from its view: its cards, the visible cards, everyone's claims.

Bots share this reading of ``state.view(seat)``; nothing here looks at hidden state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from coup.rules.shapes import HistoryEntry, Pending, PlayerView, SeatView

#: The character each claimed action names (the exchange/examine pair depends on the game).
ACTION_CLAIMS: dict[str, str] = {"tax": "duke", "assassinate": "assassin", "steal": "captain"}
ACTIONS = frozenset(
    {
        "income", "foreign_aid", "coup", "tax", "assassinate", "steal", "exchange", "examine",
        "convert", "embezzle",
    }
)  # fmt: skip
#: `know.pending or NO_PENDING` reads every field of the action under way as None when
#: there is none.
NO_PENDING: Mapping[str, Any] = MappingProxyType({})
#: What an embezzlement claims (Reformation): holding no Duke.
NO_DUKE = "no_duke"
#: Odds of a claim when the claimant lacks the character, against when it holds it.
BLUFF_ODDS = 0.15
#: Odds that a holder of the character passes up a block with it.
PASS_ODDS: dict[str, float] = {
    "contessa": 0.1,
    "captain": 0.4,
    "ambassador": 0.4,
    "inquisitor": 0.4,
    "duke": 0.6,
}
#: Base worth of holding each character (higher is kept longer).
BASE_VALUE: dict[str, float] = {
    "duke": 5.0,
    "assassin": 4.4,
    "captain": 4.0,
    "contessa": 3.6,
    "inquisitor": 3.0,
    "ambassador": 2.6,
}


def claim_of(action: str, characters: str) -> str | None:
    """The character an action claims, or None for income, foreign aid and coup."""
    if action in ACTION_CLAIMS:
        return ACTION_CLAIMS[action]
    if action == "exchange":
        return "inquisitor" if characters == "inquisitor" else "ambassador"
    if action == "examine":
        return "inquisitor"
    return None


def blockers_of(action: str, characters: str) -> tuple[str, ...]:
    """Characters that may block an action."""
    if action == "foreign_aid":
        return ("duke",)
    if action == "assassinate":
        return ("contessa",)
    if action == "steal":
        return ("captain", "inquisitor" if characters == "inquisitor" else "ambassador")
    return ()


@dataclass
class SeatRecord:
    """Public facts about one seat read from the history."""

    claims: set[str] = field(default_factory=set)  # characters claimed and not disproved
    caught: set[str] = field(default_factory=set)  # characters it failed to prove
    proved: set[str] = field(default_factory=set)  # characters it revealed to a challenge
    passed_block: Counter[str] = field(default_factory=Counter)  # blocker chances passed up
    challenges: int = 0
    chances: int = 0  # claims by others this seat could have challenged
    doubted_me: int = 0  # ... of those, the reading seat's claims it challenged
    chances_me: int = 0  # ... and could have
    tested: int = 0  # its claims that were challenged
    lies: int = 0  # ... and turned out bluffs
    no_duke: bool = False  # it embezzled (claimed to hold no Duke) with this hand
    # Evidence about the hidden hand it holds now (cleared when that hand changes):
    active: set[str] = field(default_factory=set)  # claims made with this hand
    passes: Counter[str] = field(default_factory=Counter)  # blocks it could have made, not

    redrawn: bool = False  # its hand took cards from the Court since the deal

    def new_hand(self) -> None:
        self.redrawn = True
        self.active.clear()
        self.passes.clear()
        self.no_duke = False


class Knowledge:
    """A seat's reading of its view."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        self.seat: int = view["seat"]
        settings = view["settings"]
        self.variant: str = settings.get("characters", "ambassador")
        self.copies: int = settings["copies"]
        self.draft: bool = bool(settings.get("draft"))
        self.characters: tuple[str, ...] = (
            "duke",
            "assassin",
            "captain",
            "inquisitor" if self.variant == "inquisitor" else "ambassador",
            "contessa",
        )
        self.players: list[PlayerView] = view["players"]
        # Reformation: the Treasury Reserve and each seat's allegiance.
        self.reformation: bool = bool(settings.get("reformation"))
        self.reserve: int = int(view.get("reserve") or 0)
        self.allegiance: list[str | None] = [p.get("allegiance") for p in self.players]
        me = self.players[self.seat]
        self.cards: list[str] = list(me["cards"] or [])
        self.coins: int = me["coins"]
        self.pending: Pending | None = view.get("pending")
        self.phase: str = view["phase"]
        known = view.get("known") or {}
        self.known_court: list[str] = list(known.get("court") or [])
        self.known_hands: dict[int, list[str]] = {
            int(k): list(v) for k, v in (known.get("hands") or {}).items()
        }
        self.revealed: Counter[str] = Counter()
        for p in self.players:
            self.revealed.update(p["revealed"])
        self.records: list[SeatRecord] = [SeatRecord() for _ in self.players]
        self._read_history(view.get("history") or [])

    # -- seats -------------------------------------------------------------------------
    def alive(self, seat: int) -> bool:
        return bool(self.players[seat]["alive"])

    def influence(self, seat: int) -> int:
        return int(self.players[seat]["influence"])

    def coins_of(self, seat: int) -> int:
        return int(self.players[seat]["coins"])

    def opponents(self) -> list[int]:
        return [p["seat"] for p in self.players if p["alive"] and p["seat"] != self.seat]

    # -- counting cards ------------------------------------------------------------------
    def unseen(self, character: str, holder: int | None = None) -> int:
        """Copies of a character this seat cannot place (outside ``holder``'s hidden hand)."""
        seen = self.revealed[character] + self.cards.count(character)
        seen += self.known_court.count(character)
        for seat, hand in self.known_hands.items():
            if seat != holder and seat != self.seat:
                seen += hand.count(character)
        return max(0, self.max_copies(character) - seen)

    def max_copies(self, character: str) -> int:
        """How many copies of ``character`` may be in the game (fewer after a draft)."""
        if not self.draft:
            return self.copies
        return 1 + self.my_picks.count(character) + self.other_picks

    def all_visible(self, character: str) -> bool:
        """True when every copy of ``character`` is face up or in this seat's own hand."""
        seen = self.revealed[character] + self.cards.count(character)
        return seen >= self.max_copies(character)

    def provably_false(self, seat: int, character: str) -> bool:
        """True when ``seat`` cannot hold ``character``, by counting the cards one can see
        (``NO_DUKE``, an embezzlement's claim: true when it is known to hold a Duke)."""
        if character == NO_DUKE:
            if seat == self.seat:
                return "duke" in self.cards
            return "duke" in self.known_hands.get(seat, [])
        if seat == self.seat:
            return character not in self.cards
        hand = self.known_hands.get(seat)
        if hand is not None and character in hand:
            return False
        if hand is not None and len(hand) >= self.influence(seat):
            return True
        return self.unseen(character, holder=seat) == 0

    # -- the history ---------------------------------------------------------------------
    def _read_history(self, history: list[HistoryEntry]) -> None:
        claim: tuple[int, str] | None = None  # the claim currently open to challenge
        challenged: tuple[int, str] | None = None
        action: str | None = None
        target: int | None = None
        blocked = False
        self.my_picks: list[str] = []
        self.other_picks = 0
        records = self.records
        for entry in history:
            seat = entry["seat"]
            words = str(entry["move"]).split()
            verb = words[0]
            arg = words[1] if len(words) > 1 else None
            record = records[seat]
            if verb == "lose" and challenged is not None and challenged[1] == NO_DUKE:
                embezzler = records[challenged[0]]
                embezzler.tested += 1
                if seat == challenged[0]:  # it held a Duke after all
                    embezzler.lies += 1
                    embezzler.no_duke = False
                    embezzler.caught.add(NO_DUKE)
                else:  # the challenger lost: the embezzler's hand was redrawn
                    embezzler.new_hand()
                challenged = None
                continue
            if verb == "reveal" or verb == "lose":
                if challenged is not None and seat == challenged[0]:
                    record.tested += 1
                    record.lies += verb == "lose"
                    if verb == "reveal":
                        record.proved.add(challenged[1])
                    else:
                        record.caught.add(challenged[1])
                        record.claims.discard(challenged[1])
                    challenged = None
                if arg is not None:
                    record.active.discard(arg)
                    if verb == "reveal":
                        record.passes.clear()
                        record.redrawn = True
                continue
            if verb in ACTIONS:
                action, blocked = verb, False
                target = int(arg) if arg is not None else None
                character = claim_of(verb, self.variant)
                claim = (seat, character) if character else None
                if verb == "embezzle":
                    claim = (seat, NO_DUKE)
                    record.no_duke = True
                elif verb == "convert":
                    target = None
                if character:
                    record.claims.add(character)
                    record.active.add(character)
                challenged = None
            elif verb == "block" and arg is not None:
                claim = (seat, arg)
                blocked = True
                record.claims.add(arg)
                record.active.add(arg)
            elif verb == "challenge":
                record.challenges += 1
                record.doubted_me += claim is not None and claim[0] == self.seat
                challenged = claim
                claim = None
            elif verb == "pass":
                if claim is not None and claim[0] != seat:
                    record.chances += 1
                    record.chances_me += claim[0] == self.seat
                if blocked:
                    continue
                if action in ("assassinate", "steal") and seat == target:
                    for blocker in blockers_of(action, self.variant):
                        record.passed_block[blocker] += 1
                        record.passes[blocker] += 1
                elif action == "foreign_aid":
                    record.passed_block["duke"] += 1
                    record.passes["duke"] += 1
            elif verb == "keep":
                record.new_hand()
            elif verb == "swap" and target is not None:
                records[target].new_hand()
            elif verb == "draft":
                if seat == self.seat and arg is not None:
                    self.my_picks.append(arg)
                elif seat != self.seat:
                    self.other_picks += 1

    def likelihood(
        self, seat: int, hand: tuple[str, ...] | list[str], bluff_odds: float = BLUFF_ODDS
    ) -> float:
        """How well a hidden ``hand`` for ``seat`` explains what it claimed and passed up."""
        record = self.records[seat]
        weight = 1.0
        for character in sorted(record.active):  # sorted: same float product everywhere
            if character not in hand:
                weight *= bluff_odds
        for character, count in sorted(record.passes.items()):
            if character in hand:
                weight *= PASS_ODDS.get(character, 0.5) ** count
        if record.no_duke and "duke" in hand:
            weight *= bluff_odds
        return weight

    def claims(self, seat: int) -> set[str]:
        return self.records[seat].claims

    def caught(self, seat: int) -> set[str]:
        return self.records[seat].caught

    # -- worth of cards ------------------------------------------------------------------
    def value(self, character: str) -> float:
        """How much this seat wants to hold ``character`` now."""
        value = BASE_VALUE[character]
        opponents = self.opponents()
        if character == "contessa":
            threat = any("assassin" in self.claims(s) or self.coins_of(s) >= 3 for s in opponents)
            value += 0.8 if threat else -0.4
            if len(opponents) == 1 and self.influence(self.seat) == 1:
                value += 0.5
        if character == "captain" and len(opponents) == 1:
            value += 0.6
        if character == "assassin" and self.coins >= 3:
            value += 0.3
        return value

    def worst(self, cards: list[str]) -> str:
        """The least useful card of ``cards``: the one to lose first."""
        return min(cards, key=lambda c: (self.value(c), c))

    def best(self, cards: list[str], count: int) -> list[str]:
        """The ``count`` cards to keep from ``cards`` (prefers two different characters)."""
        ranked = sorted(cards, key=lambda c: (-self.value(c), c))
        kept: list[str] = []
        for card in ranked:
            if len(kept) < count and card not in kept:
                kept.append(card)
        for card in ranked:
            if len(kept) < count and (kept.count(card) < cards.count(card)):
                kept.append(card)
        return kept[:count]
