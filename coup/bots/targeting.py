"""Whom each opponent attacks: its habit, read from the public history.

People (and the personality bots) pick their victims by a rule of thumb: the leader (most
influence, then coins), the richest, or the weakest (least influence, then fewest coins:
the one who can strike back least). The search bot's playouts assume the leader; against
a table that goes for the weakest that is the wrong way round (an influence lost makes
the bot the next victim). ``habits(view)`` replays the public history (coins and
influence only: the hidden cards play no part) and, for each opponent that has chosen
between two or more victims often enough, names the rule that explains its coups and
assassinations best. It also counts, per seat, how often a grudge (whoever last attacked
it) decided its victim when the leader rule would have picked another, and how often it
challenged the reader's claims while it held a grudge against the reader: the search
bot's playouts let each seat hit back and doubt in proportion to that evidence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from coup.rules.shapes import SeatView

#: The rules of thumb: a key to maximise over the candidate victims, or "grudge" (the
#: last seat that attacked it: aimed an attack at it or challenged it and won; else the
#: leader).
HABITS = ("leader", "richest", "weakest", "grudge")
#: Moves that hurt their target.
ATTACKS = frozenset({"coup", "assassinate", "steal", "examine"})
#: Attacks with a choice of victim needed before a habit is believed (another opponent's
#: attacks count half: a table often shares a habit).
MIN_ATTACKS = 1
TABLE_WEIGHT = 0.5
#: Share of those attacks the habit must explain (ties count for every habit tied).
MIN_SHARE = 0.75


def key(habit: str, coins: int, influence: int) -> tuple[int, int]:
    if habit == "richest":
        return (coins, influence)
    if habit == "weakest":
        return (-influence, -coins)
    return (influence, coins)


class Ledger:
    """The public coins and influence of every seat, move by move."""

    def __init__(self, players: int, first: int) -> None:
        self.coins = [2] * players
        if players == 2:
            self.coins[first] = 1
        self.influence = [2] * players
        self.grudge: list[int | None] = [None] * players  # who last attacked each seat
        self.reserve = 0
        self.action: tuple[int, str, int | None] | None = None  # actor, verb, target
        self.claimant: int | None = None  # whose claim a challenge is against
        self.challenger: int | None = None
        self.blocker: int | None = None
        self.failed = False  # the action will not happen (caught, or blocked)

    def settle(self) -> None:
        """The pending action happens (or not) before the next one starts."""
        if self.action is None:
            return
        actor, verb, target = self.action
        self.action = None
        if self.failed:
            return
        coins = self.coins
        if verb == "foreign_aid":
            coins[actor] += 2
        elif verb == "tax":
            coins[actor] += 3
        elif verb == "steal" and target is not None:
            took = min(2, coins[target])
            coins[target] -= took
            coins[actor] += took
        elif verb == "embezzle":
            coins[actor] += self.reserve
            self.reserve = 0

    def read(self, seat: int, words: list[str]) -> None:
        verb = words[0]
        arg = words[1] if len(words) > 1 else None
        target = int(arg) if arg is not None and arg.isdigit() else None
        coins = self.coins
        if verb in ATTACKS and target is not None:
            self.grudge[target] = seat
        if verb in ("income", "coup", "foreign_aid", "convert") or verb in CLAIMS:
            self.settle()
            self.action = (seat, verb, target)
            self.claimant = seat if verb in CLAIMS else None
            self.challenger = self.blocker = None
            self.failed = False
            if verb == "income":
                coins[seat] += 1
                self.action = None
            elif verb == "coup":
                coins[seat] -= 7
                self.action = None
            elif verb == "assassinate":
                coins[seat] -= 3
            elif verb == "convert":
                cost = 1 if target is None or target == seat else 2
                coins[seat] -= cost
                self.reserve += cost
                self.action = None
        elif verb == "block":
            self.blocker = self.claimant = seat
            self.challenger = None
            self.failed = True  # unless the block is caught
        elif verb == "challenge":
            self.challenger = seat
        elif verb == "reveal":
            self.challenger = None  # the claim was true: nothing changes for the action
        elif verb == "lose":
            self.influence[seat] = max(0, self.influence[seat] - 1)
            if self.challenger is not None and seat == self.claimant:
                self.grudge[seat] = self.challenger
                caught_block = self.blocker is not None and seat == self.blocker
                self.failed = not caught_block
                if self.action is not None and not caught_block:
                    actor, action, _ = self.action
                    if action == "assassinate":  # a failed action's coins come back
                        coins[actor] += 3
                self.challenger = None


CLAIMS = frozenset({"tax", "steal", "assassinate", "exchange", "examine", "embezzle"})


def victim(habit: str, ledger: Ledger, seat: int, victims: list[int]) -> set[int]:
    """The victims ``habit`` would pick among (all tied)."""
    if habit == "grudge":
        enemy = ledger.grudge[seat]
        if enemy in victims:
            return {enemy}
        habit = "leader"
    coins, influence = ledger.coins, ledger.influence
    best = max(key(habit, coins[s], influence[s]) for s in victims)
    return {s for s in victims if key(habit, coins[s], influence[s]) == best}


def habits(view: SeatView) -> dict[int, str]:
    """Each opponent's attack habit, for those whose choices of victim show one."""
    return read_table(view).habits


@dataclass
class Table:
    """What the public history says about whom each seat attacks and doubts."""

    #: Each opponent's attack habit (only those whose choices show one other than the
    #: leader).
    habits: dict[int, str]
    #: Whom each seat last saw attack it (aimed an attack at it, or challenged it and won).
    grudges: list[int | None]
    #: Per seat: its coups and assassinations when it held a grudge against a live victim
    #: the leader rule would not pick, and how many of them went for that grudge.
    spite_chances: list[int]
    spite_hits: list[int]
    #: Per seat: the reader's claims it could challenge while it held a grudge against the
    #: reader, and how many it challenged.
    grudge_chances: list[int]
    grudge_doubts: list[int]

    def spite(self, seat: int, prior: float, weight: float) -> float:
        """The chance ``seat`` goes for its grudge rather than its habit: its own
        evidence, the other opponents' at half weight (a table often shares a habit),
        shrunk towards ``prior`` worth ``weight`` attacks."""
        return _shrunk(self.spite_hits, self.spite_chances, seat, prior, weight)

    def grudge_doubt(self, seat: int, prior: float, weight: float) -> float:
        """The chance ``seat`` challenges a claim of the reader while it holds a grudge
        against the reader, the same way."""
        return _shrunk(self.grudge_doubts, self.grudge_chances, seat, prior, weight)


def _shrunk(hits: list[int], chances: list[int], seat: int, prior: float, weight: float) -> float:
    got = seen = 0.0
    for other in range(len(hits)):
        share = 1.0 if other == seat else TABLE_WEIGHT
        got += share * hits[other]
        seen += share * chances[other]
    return (got + weight * prior) / (seen + weight)


def read_table(view: SeatView) -> Table:
    """Replay the public history: each opponent's attack habit, whom each seat last saw
    attack it, and how each seat's grudges showed in its attacks and challenges."""
    players = view["players"]
    count = len(players)
    ledger = Ledger(count, int(view["settings"].get("first", 0)))
    me = view["seat"]
    hits: dict[int, dict[str, int]] = {}
    table = Table({}, ledger.grudge, [0] * count, [0] * count, [0] * count, [0] * count)
    open_claim: int | None = None  # whose claim may be challenged now
    for entry in view.get("history") or []:
        seat = entry["seat"]
        words = str(entry["move"]).split()
        verb = words[0]
        if verb in ("coup", "assassinate") and len(words) > 1 and words[1].isdigit():
            ledger.settle()
            victims = [s for s in range(count) if s != seat and ledger.influence[s] > 0]
            if len(victims) >= 2 and seat != me:
                tally = hits.setdefault(seat, {"attacks": 0})
                tally["attacks"] += 1
                for habit in HABITS:
                    if int(words[1]) in victim(habit, ledger, seat, victims):
                        tally[habit] = tally.get(habit, 0) + 1
                enemy = ledger.grudge[seat]
                if enemy in victims and enemy not in victim("leader", ledger, seat, victims):
                    table.spite_chances[seat] += 1
                    table.spite_hits[seat] += int(words[1]) == enemy
        elif verb in ("challenge", "pass") and seat != me == open_claim == ledger.grudge[seat]:
            table.grudge_chances[seat] += 1
            table.grudge_doubts[seat] += verb == "challenge"
        ledger.read(seat, words)
        if verb in CLAIMS or verb == "block":
            open_claim = seat
        elif verb != "pass":
            open_claim = None
    for seat in range(count):
        if seat == me or not players[seat].get("alive", True):
            continue
        evidence = {h: 0.0 for h in ("attacks", *HABITS)}
        for other, tally in hits.items():
            weight = 1.0 if other == seat else TABLE_WEIGHT
            for name, n in tally.items():
                evidence[name] += weight * n
        attacks = evidence["attacks"]
        if attacks < MIN_ATTACKS:
            continue
        habit = max(HABITS, key=lambda h: evidence[h])  # "leader" first on ties
        if evidence[habit] >= MIN_SHARE * attacks and habit != "leader":
            table.habits[seat] = habit
    return table
