"""Personalities: how a bot bluffs, challenges and picks on people (style, never legality).

A bot at the table has a level (easy, medium, hard) and a personality. ``make("medium:
skeptic")`` is the heuristic bot's skill with the skeptic's habits; ``easy:`` adds a
random move now and then and drops the duel look-ahead; ``hard:`` is the search bot
nudged towards the personality's moves when they are about as good (search.py). The
personality ``random`` (the default) draws one of ``PERSONALITIES`` for each game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from coup.bots.heuristic import HeuristicBot
from coup.bots.knowledge import NO_PENDING, Knowledge, blockers_of, claim_of

#: Moves that hurt their target (a grudge is held against whoever made one at you).
ATTACKS = frozenset({"coup", "assassinate", "steal", "examine"})


@dataclass(frozen=True)
class Personality:
    """A style of play; the rates are chances per opportunity."""

    name: str
    bluff: float  # claim a character it lacks, when that action suits it
    block_bluff: float  # block with a character it lacks
    challenge_me: float  # challenge a claim aimed at it (not provably false)
    challenge_other: float  # challenge a claim aimed at someone else
    target: str  # whom it attacks: "leader" | "richest" | "weakest" | "grudge"
    caught: str  # once caught bluffing: "carry_on" (other characters) | "stop"
    claims: int = 2  # how many different characters it claims in a game at most
    challenge_grudge: float = 0.0  # challenge rate against whoever it holds a grudge against
    coup_chance: float = 0.85  # coup as soon as it can (otherwise waits for 10 coins)


PERSONALITIES: dict[str, Personality] = {
    p.name: p
    for p in (
        Personality("honest", 0.0, 0.0, 0.04, 0.0, "leader", "stop"),
        Personality("bluffer", 0.85, 0.45, 0.04, 0.0, "richest", "carry_on", claims=3),
        Personality("skeptic", 0.12, 0.05, 0.55, 0.25, "leader", "stop"),
        Personality("vengeful", 0.2, 0.15, 0.12, 0.02, "grudge", "carry_on", challenge_grudge=0.6),
        Personality("cautious", 0.08, 0.0, 0.0, 0.0, "weakest", "stop", coup_chance=0.4),
    )
}
#: Personality names, and "random" (a fresh draw each game).
NAMES: tuple[str, ...] = (*PERSONALITIES, "random")


def lookup(name: str) -> Personality | None:
    """The personality called ``name``; None for "random"; ValueError for an unknown one."""
    if name == "random":
        return None
    if name not in PERSONALITIES:
        raise ValueError(f"unknown personality {name!r}; choose one of: {', '.join(NAMES)}")
    return PERSONALITIES[name]


def grudge(know: Knowledge) -> int | None:
    """The live seat that last attacked this one (aimed an attack at it, or challenged it
    and won), or None."""
    me = know.seat
    last: int | None = None
    claimant: int | None = None
    challenger: int | None = None
    for entry in know.view.get("history") or []:
        seat = entry["seat"]
        words = str(entry["move"]).split()
        verb = words[0]
        if verb in ATTACKS and len(words) > 1 and words[1].isdigit() and int(words[1]) == me:
            last = seat
        if verb in ("income", "foreign_aid", "tax", "exchange", *ATTACKS):
            claimant, challenger = seat, None
        elif verb == "block":
            claimant = seat
        elif verb == "challenge":
            challenger = seat
        elif verb == "lose" and seat == me and claimant == me and challenger is not None:
            last = challenger
            challenger = None
    if last is not None and know.alive(last) and last != me:
        return last
    return None


class PersonalityBot(HeuristicBot):
    """The heuristic bot's skill (``level="medium"``) or less (``"easy"``) with the
    habits of a personality."""

    name = "personality"

    def __init__(
        self,
        seed: int | None = None,
        personality: str = "random",
        level: str = "medium",
        blunder: float = 0.25,
    ) -> None:
        super().__init__(seed, challenge_chance=0.0)  # the personality's rates instead
        if level not in ("easy", "medium"):
            raise ValueError(f"a personality bot plays easy or medium, not {level!r}")
        self.chosen = personality
        self.level = level
        self.blunder = blunder if level == "easy" else 0.0
        self.style = lookup(personality) or self.draw()
        self.name = f"{level}:{personality}"
        self.honest_now = self.style.bluff == 0

    def draw(self) -> Personality:
        return self.rng.choice(list(PERSONALITIES.values()))

    def observe(self, know: Knowledge) -> None:
        before = self._game
        super().observe(know)
        if self._game is not before and self.chosen == "random":
            self.style = self.draw()  # a new game: a new personality
        self.bluffer = self.style.bluff > 0 and not self.stopped(know)
        self.honest_now = not self.bluffer

    def stopped(self, know: Knowledge) -> bool:
        """Has being caught stopped this bot's bluffing?"""
        return self.style.caught == "stop" and bool(know.caught(know.seat))

    def decide(self, know: Knowledge, legal: list[str]) -> str:
        """Easy: now and then a random action (bluffing only as its personality would)
        or a random card to lose or keep; reactions stay in character."""
        blunders = self.blunder and know.phase in ("action", "lose", "exchange", "show")
        if blunders and self.rng.random() < self.blunder:
            move = self.rng.choice(self.in_character(know, legal))
            verb, _, seat = move.partition(" ")
            if seat.isdigit():  # at the personality's usual target
                seats = [int(m.split()[1]) for m in legal if m.startswith(verb + " ")]
                move = f"{verb} {self.target(know, seats)}"
            return move
        return super().decide(know, legal)

    def in_character(self, know: Knowledge, legal: list[str]) -> list[str]:
        """The moves this personality might make: no claim it would not bluff."""
        moves = []
        for move in legal:
            character = claim_of(move.split()[0], know.variant)
            if character is None or character in know.cards or self.can_claim(know, character):
                moves.append(move)
        return moves or legal

    # -- bluffing --------------------------------------------------------------------
    def may_bluff(self, know: Knowledge, character: str) -> bool:
        mine = know.claims(know.seat)
        if character in know.caught(know.seat) or know.all_visible(character):
            return False
        return character in mine or len(mine) < self.style.claims

    def can_claim(self, know: Knowledge, character: str) -> bool:
        if character in know.cards:
            return True
        if not self.bluffer or not self.may_bluff(know, character):
            return False
        return self.rng.random() < self.style.bluff

    def race_plan(self, know: Knowledge, allow_bluff: bool) -> str | None:
        if self.level == "easy" or (allow_bluff and self.honest_now):
            return None if allow_bluff else "income"  # no look-ahead: play on honestly
        return super().race_plan(know, allow_bluff)

    def block_bluff(self, know: Knowledge, action: str, legal: list[str]) -> str | None:
        if not self.bluffer:
            return None
        if self.rng.random() >= self.style.block_bluff:
            last_card = know.influence(know.seat) == 1 and not know.all_visible("contessa")
            aimed = (
                action == "assassinate" and (know.pending or NO_PENDING).get("target") == know.seat
            )
            if aimed and last_card and "block contessa" in legal:
                return "block contessa"
            return None
        for blocker in blockers_of(action, know.variant):
            if f"block {blocker}" in legal and self.may_bluff(know, blocker):
                return f"block {blocker}"
        return None

    # -- the turn --------------------------------------------------------------------
    def act(self, know: Knowledge, legal: list[str]) -> str:
        self.coup_chance = self.style.coup_chance
        return super().act(know, legal)

    def race_lost_unless_challenged(self, know: Knowledge, claimant: int, claim: str) -> bool:
        return self.level != "easy" and super().race_lost_unless_challenged(know, claimant, claim)

    def target(self, know: Knowledge, seats: list[int]) -> int:
        mode = self.style.target
        if mode == "grudge":
            enemy = grudge(know)
            if enemy is not None and enemy in seats:
                return enemy
            mode = "leader"
        key: Any
        if mode == "richest":
            key = lambda s: (know.coins_of(s), know.influence(s))
        elif mode == "weakest":
            key = lambda s: (-know.influence(s), -know.coins_of(s))
        else:
            key = lambda s: (know.influence(s), know.coins_of(s))
        best = max(key(s) for s in seats)
        return self.rng.choice([s for s in seats if key(s) == best])

    # -- challenges ------------------------------------------------------------------
    def react(self, know: Knowledge, legal: list[str]) -> str:
        move = super().react(know, legal)
        if move != "pass" or "challenge" not in legal:
            return move
        claimant, claim = self.open_claim(know)
        if claimant is None or not claim or claim in know.records[claimant].proved:
            return move
        rate = self.style.challenge_me if self.against_me(know) else self.style.challenge_other
        if self.style.challenge_grudge and claimant == grudge(know):
            rate = max(rate, self.style.challenge_grudge)
        return "challenge" if self.rng.random() < rate else move
