"""The heuristic bot: the rule-based style of the classic treason clone, written fresh.

Per game it decides whether to bluff (about half the time). It keeps to at most two claimed
characters, never bluffs one it was caught on nor one whose copies are all visible. It
coups at 10+ (and usually at 7+), prefers assassination when it holds or claims the
Assassin and the target has not claimed Contessa, blocks whenever it can and sometimes
bluffs a block (always a Contessa on its last card), challenges provable lies always and
other claims against itself rarely. In a duel it runs a greedy race a few turns ahead
before it challenges or bluffs.
"""

from __future__ import annotations

from coup.bots.honest import HonestBot
from coup.bots.knowledge import NO_DUKE, NO_PENDING, Knowledge, blockers_of, claim_of
from coup.bots.reformation import reformation_action


class HeuristicBot(HonestBot):
    name = "heuristic"

    def __init__(
        self,
        seed: int | None = None,
        bluff_chance: float = 0.5,
        coup_chance: float = 0.85,
        challenge_chance: float = 0.1,
        block_bluff_chance: float = 0.2,
    ) -> None:
        super().__init__(seed)
        self.bluff_chance = bluff_chance
        self.coup_chance = coup_chance
        self.challenge_chance = challenge_chance
        self.block_bluff_chance = block_bluff_chance
        self._game: tuple[int, tuple[str, ...], tuple[str, ...]] | None = None
        self._seen = 0
        self.bluffer = False

    def observe(self, know: Knowledge) -> None:
        """Decide once per game whether this bot bluffs in it.

        A game is recognised by its seat, the names and the opening moves; a history
        shorter than last time also means a new game.
        """
        history = know.view["history"]
        names = tuple(p["name"] for p in know.players)
        opening = tuple(str(entry["move"]) for entry in history[:3])
        last = self._game
        common = min(len(opening), len(last[2])) if last else 0
        if (
            last is None
            or len(history) < self._seen
            or (know.seat, names) != last[:2]
            or opening[:common] != last[2][:common]
        ):
            self.bluffer = self.rng.random() < self.bluff_chance
            self._game = (know.seat, names, opening)
        elif len(opening) > len(last[2]):
            self._game = (know.seat, names, opening)
        self._seen = len(history)

    # -- bluffing rules ------------------------------------------------------------------
    def may_bluff(self, know: Knowledge, character: str) -> bool:
        """May this bot claim ``character`` without holding it? (At most two claimed
        characters in all, never one it was caught on or whose copies are all visible.)"""
        mine = know.claims(know.seat)
        if character in know.caught(know.seat) or know.all_visible(character):
            return False
        return character in mine or len(mine) < 2

    def can_claim(self, know: Knowledge, character: str) -> bool:
        return character in know.cards or (self.bluffer and self.may_bluff(know, character))

    # -- the turn ------------------------------------------------------------------------
    def act(self, know: Knowledge, legal: list[str]) -> str:
        opponents = know.opponents()
        coups = [int(m.split()[1]) for m in legal if m.startswith("coup ")]
        if coups and (know.coins >= 10 or self.rng.random() < self.coup_chance):
            return f"coup {self.target(know, coups)}"
        duel = len(opponents) == 1
        bluffer = self.bluffer
        if duel and not bluffer:
            # Greedy look-ahead: bluff when honest play loses the race and a bluff wins it.
            honest = self.race_plan(know, allow_bluff=False)
            if honest is None:
                self.bluffer = True
                plan = self.race_plan(know, allow_bluff=True)
                self.bluffer = bluffer
                if plan is not None and plan in legal:
                    return plan
        reformed = reformation_action(self, know, legal)
        if reformed is not None:
            return reformed
        assassins = [int(m.split()[1]) for m in legal if m.startswith("assassinate ")]
        if assassins and self.can_claim(know, "assassin"):
            soft = [s for s in assassins if "contessa" not in know.claims(s)]
            if soft:
                return f"assassinate {self.target(know, soft)}"
        if "tax" in legal and self.can_claim(know, "duke"):
            return "tax"
        if self.can_claim(know, "captain"):
            rich = [
                int(m.split()[1])
                for m in legal
                if m.startswith("steal ") and know.coins_of(int(m.split()[1])) >= 2
            ]
            rich = [
                s
                for s in rich
                if not ({"captain", claim_of("exchange", know.variant)} & know.claims(s))
            ]
            if rich:
                return f"steal {max(rich, key=lambda s: (know.coins_of(s), -s))}"
        exchanger = claim_of("exchange", know.variant) or "ambassador"
        weak = min(know.value(c) for c in know.cards) < 4.0 and know.coins < 7
        if "exchange" in legal and exchanger in know.cards and weak:
            return "exchange"
        duke_claimed = any("duke" in know.claims(s) for s in opponents)
        if "foreign_aid" in legal and not duke_claimed:
            return "foreign_aid"
        if coups:
            return f"coup {self.target(know, coups)}"
        return "income" if "income" in legal else self.rng.choice(legal)

    def target(self, know: Knowledge, seats: list[int]) -> int:
        """The leader: most influence, then most coins; ties at random."""
        best = max((know.influence(s), know.coins_of(s)) for s in seats)
        tied = [s for s in seats if (know.influence(s), know.coins_of(s)) == best]
        return self.rng.choice(tied)

    # -- reactions -----------------------------------------------------------------------
    def react(self, know: Knowledge, legal: list[str]) -> str:
        pending = know.pending or NO_PENDING
        action = str(pending.get("action") or "")
        block = pending.get("block")
        claimant, claim = self.open_claim(know)
        open_claim = "challenge" in legal and claimant is not None and bool(claim)
        if open_claim and know.provably_false(claimant, claim):  # type: ignore[arg-type]
            return "challenge"
        if open_claim and claim == NO_DUKE and "duke" in know.records[claimant].active:  # type: ignore[index]
            return "challenge"  # it claimed the Duke with this very hand
        if block is None and any(m.startswith("block ") for m in legal):
            for blocker in blockers_of(action, know.variant):
                if blocker in know.cards and f"block {blocker}" in legal:
                    return f"block {blocker}"
            bluff = self.block_bluff(know, action, legal)
            if bluff:
                return bluff
        if open_claim and claimant is not None and claim:
            against_me = self.against_me(know)
            duel = len(know.opponents()) == 1
            if (
                duel
                and claim not in know.records[claimant].proved
                and self.race_lost_unless_challenged(know, claimant, claim)
            ):
                return "challenge"
            if against_me and self.rng.random() < self.challenge_chance:
                return "challenge"
        return "pass" if "pass" in legal else legal[0]

    def against_me(self, know: Knowledge) -> bool:
        """Is the claim open to challenge aimed at this seat?"""
        pending = know.pending or NO_PENDING
        block = pending.get("block")
        if len(know.opponents()) == 1:
            return True
        if block:
            return pending.get("actor") == know.seat
        return pending.get("target") == know.seat

    def block_bluff(self, know: Knowledge, action: str, legal: list[str]) -> str | None:
        pending = know.pending or NO_PENDING
        last_card = know.influence(know.seat) == 1 and not know.all_visible("contessa")
        aimed = action == "assassinate" and pending.get("target") == know.seat
        if aimed and last_card and "block contessa" in legal:
            return "block contessa"
        if not self.bluffer or self.rng.random() >= self.block_bluff_chance:
            return None
        for blocker in blockers_of(action, know.variant):
            if f"block {blocker}" in legal and self.may_bluff(know, blocker):
                return f"block {blocker}"
        return None

    # -- the duel look-ahead -------------------------------------------------------------
    def race_plan(self, know: Knowledge, allow_bluff: bool) -> str | None:
        """The first action of a greedy race this bot wins, or None when it loses it."""
        rival = know.opponents()[0]
        mine = set(know.cards) | ({"duke", "captain", "assassin"} if allow_bluff else set())
        if allow_bluff:
            mine = {c for c in mine if c in know.cards or self.may_bluff(know, c)}
        theirs = know.claims(rival) - know.caught(rival)
        first, won = race(
            (know.coins, know.influence(know.seat), mine),
            (know.coins_of(rival), know.influence(rival), theirs),
            rival,
        )
        return first if won else None

    def race_lost_unless_challenged(self, know: Knowledge, claimant: int, claim: str) -> bool:
        """In a duel: letting this claim stand loses the greedy race."""
        pending = know.pending or NO_PENDING
        theirs = (know.claims(claimant) - know.caught(claimant)) | {claim}
        coins = know.coins_of(claimant)
        if pending.get("action") == "tax" and not pending.get("block"):
            coins += 3
        _, won = race(
            (know.coins, know.influence(know.seat), set(know.cards)),
            (coins, know.influence(claimant), theirs),
            claimant,
            they_move_first=pending.get("actor") == know.seat,
        )
        return not won


def race(
    me: tuple[int, int, set[str]],
    them: tuple[int, int, set[str]],
    rival: int,
    they_move_first: bool = False,
    turns: int = 12,
) -> tuple[str, bool]:
    """A greedy duel, both sides using the characters given: (my first action, I win?)."""
    coins = [me[0], them[0]]
    lives = [me[1], them[1]]
    chars = [me[2], them[2]]
    first = ""
    who = 1 if they_move_first else 0
    for _ in range(turns * 2):
        other = 1 - who
        target = rival if who == 0 else -1
        if coins[who] >= 7:
            coins[who] -= 7
            lives[other] -= 1
            move = f"coup {target}"
        elif "assassin" in chars[who] and coins[who] >= 3 and "contessa" not in chars[other]:
            coins[who] -= 3
            lives[other] -= 1
            move = f"assassinate {target}"
        elif "duke" in chars[who]:
            coins[who] += 3
            move = "tax"
        elif (
            "captain" in chars[who]
            and coins[other] >= 2
            and not ({"captain", "ambassador", "inquisitor"} & chars[other])
        ):
            coins[who] += 2
            coins[other] -= 2
            move = f"steal {target}"
        elif "duke" not in chars[other]:
            coins[who] += 2
            move = "foreign_aid"
        else:
            coins[who] += 1
            move = "income"
        if who == 0 and not first:
            first = move
        if lives[other] <= 0:
            return first, who == 0
        who = other
    return first, lives[0] >= lives[1] and coins[0] >= coins[1]
