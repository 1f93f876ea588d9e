"""The honest bot: never bluffs; challenges only claims it can prove false."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from coup.bots.knowledge import NO_DUKE, NO_PENDING, Knowledge, blockers_of, claim_of

if TYPE_CHECKING:
    from coup import Move
    from coup.bots.window import SeatWindow


class HonestBot:
    """Claims only characters it holds, blocks only with them, challenges only sure lies."""

    name = "honest"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: SeatWindow, seat: int) -> Move:
        legal = state.legal(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal move now")
        if len(legal) == 1:
            return legal[0]
        moves = {str(m): m for m in legal}
        know = Knowledge(state.view(seat))
        self.observe(know)
        text = self.decide(know, list(moves))
        return moves[text] if text in moves else legal[0]

    def observe(self, know: Knowledge) -> None:
        """Called with every view before deciding (subclasses keep per-game state)."""

    # ------------------------------------------------------------------------------------
    def decide(self, know: Knowledge, legal: list[str]) -> str:
        phase = know.phase
        if phase == "action":
            return self.act(know, legal)
        if phase in ("react", "block", "challenge_block"):
            return self.react(know, legal)
        if phase == "prove":
            claim = self.challenged_claim(know)
            if claim and f"reveal {claim}" in legal:
                return f"reveal {claim}"
            return self.lose(know, legal)
        if phase == "lose":
            return self.lose(know, legal)
        if phase == "exchange":
            return self.keep(know, legal)
        if phase == "show":
            shows = [m.split()[1] for m in legal if m.startswith("show ")]
            return f"show {know.worst(shows)}" if shows else legal[0]
        if phase == "examine":
            shown = know.view.get("private", {}).get("shown")
            card = shown["card"] if shown else None
            if card and "swap" in legal and know.value(card) >= 4.0:
                return "swap"
            return "return" if "return" in legal else legal[0]
        if phase == "draft":
            return self.draft(know, legal)
        return self.rng.choice(legal)

    # -- the turn ------------------------------------------------------------------------
    def act(self, know: Knowledge, legal: list[str]) -> str:
        coups = [m for m in legal if m.startswith("coup ")]
        if coups and (know.coins >= 7 or len(coups) == len(legal)):
            return f"coup {self.target(know, [int(m.split()[1]) for m in coups])}"
        cards = set(know.cards)
        # Never aim at a player who has claimed the blocker: two honest players would
        # otherwise assassinate (or steal from) each other, blocked, for ever.
        if "assassin" in cards:
            targets = [int(m.split()[1]) for m in legal if m.startswith("assassinate ")]
            targets = [s for s in targets if "contessa" not in know.claims(s)]
            if targets:
                return f"assassinate {self.target(know, targets)}"
        if "duke" in cards and "tax" in legal:
            return "tax"
        if "captain" in cards:
            guards = {"captain", claim_of("exchange", know.variant)}
            rich = [
                int(m.split()[1])
                for m in legal
                if m.startswith("steal ") and know.coins_of(int(m.split()[1])) >= 2
            ]
            rich = [s for s in rich if not guards & know.claims(s)]
            if rich:
                return f"steal {max(rich, key=know.coins_of)}"
        exchanger = claim_of("exchange", know.variant)
        weak = min(know.value(c) for c in know.cards) < 4.0
        if exchanger in cards and "exchange" in legal and know.coins < 7 and weak:
            return "exchange"
        if "embezzle" in legal and "duke" not in cards and know.reserve >= 2:
            return "embezzle"
        duke_claimed = any("duke" in know.claims(s) for s in know.opponents())
        if "foreign_aid" in legal and not duke_claimed:
            return "foreign_aid"
        return "income" if "income" in legal else self.rng.choice(legal)

    def target(self, know: Knowledge, seats: list[int]) -> int:
        """The most dangerous opponent: most influence, then most coins."""
        return max(seats, key=lambda s: (know.influence(s), know.coins_of(s), -s))

    # -- reactions -----------------------------------------------------------------------
    def react(self, know: Knowledge, legal: list[str]) -> str:
        pending = know.pending or NO_PENDING
        block = pending.get("block")
        if "challenge" in legal:
            claimant, claim = self.open_claim(know)
            if claimant is not None and claim and know.provably_false(claimant, claim):
                return "challenge"
        if block is None:
            for blocker in blockers_of(pending.get("action") or "", know.variant):
                if blocker in know.cards and f"block {blocker}" in legal:
                    return f"block {blocker}"
        return "pass" if "pass" in legal else legal[0]

    @staticmethod
    def open_claim(know: Knowledge) -> tuple[int | None, str | None]:
        """The claim a challenge would now be against: the block's, else the action's."""
        pending = know.pending or NO_PENDING
        block = pending.get("block")
        if block:
            return int(block["seat"]), str(block["claim"])
        if pending.get("action") == "embezzle":
            return pending.get("actor"), NO_DUKE
        return pending.get("actor"), pending.get("claim")

    @staticmethod
    def challenged_claim(know: Knowledge) -> str | None:
        pending = know.pending or NO_PENDING
        block = pending.get("block")
        if block and block.get("seat") == know.seat:
            return str(block["claim"])
        claim = pending.get("claim")
        return str(claim) if claim else None

    # -- cards ---------------------------------------------------------------------------
    def lose(self, know: Knowledge, legal: list[str]) -> str:
        cards = [m.split()[1] for m in legal if m.startswith("lose ")]
        return f"lose {know.worst(cards)}" if cards else legal[0]

    def keep(self, know: Knowledge, legal: list[str]) -> str:
        options = [m for m in legal if m.startswith("keep ")]
        if not options:
            return legal[0]

        def worth(move: str) -> tuple[float, str]:
            cards = move.split()[1:]
            return (sum(know.value(c) for c in cards) + (0.5 if len(set(cards)) > 1 else 0), move)

        return max(options, key=worth)

    def draft(self, know: Knowledge, legal: list[str]) -> str:
        picks = [m.split()[1] for m in legal if m.startswith("draft ")]
        have = set(know.cards)
        fresh = [c for c in picks if c not in have] or picks
        return f"draft {max(fresh, key=know.value)}" if fresh else legal[0]
