"""The search bot: belief-weighted determinized Monte Carlo search.

For each decision it

1. reads its view into a belief: card counting plus how likely each opponent's claims,
   blocks and passes are when true versus a bluff (`Knowledge.likelihood`), and each
   opponent's bluffing and challenging so far (its challenges of this bot's claims
   apart) and whom it attacks (its habit, and how often it hits back at whoever hit it or
   caught it bluffing, and doubts them: targeting.py) into how it plays in the playouts;
2. samples worlds consistent with its view (`state.determinize`) and resamples them by
   that belief (worlds.py), so a player who claimed the Duke usually holds one in the
   sampled worlds; a challenge is searched only if the claim is a lie in 40% of those
   worlds and, at a second look, of twelve times as many (``recheck``: the few worlds
   searched are worth fewer independent ones, and swing);
3. plays every candidate move in the same worlds, finishing each game with a fast playout
   policy (`rollout.Playout`), and keeps the better half of the moves, round after round
   (successive halving), until one is left.

The budget is counted in playout steps (``steps``; or whole playouts, ``sims``), never
in seconds, so the bot is deterministic for a seed.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from coup.bots.heuristic import HeuristicBot
from coup.bots.knowledge import Knowledge
from coup.bots.rollout import Playout
from coup.bots.targeting import Table, read_table
from coup.bots.worlds import draft_prior, resample

if TYPE_CHECKING:
    from coup import Move, State
    from coup.bots.window import SeatWindow

#: The budget per decision in playout steps (one engine move each). Twice the half of it
#: won more games at four players (docs/bots.md, the league; its time: docs/bench.md).
DEFAULT_STEPS = 25_000
#: What one playout costs beyond its steps (clone, first move), in steps.
STEP_OVERHEAD = 8
#: The opponent model: how many observations the usual rates are worth, and the usual
#: share of bluffs among claims that get challenged.
MODEL_WEIGHT = 6.0
BLUFF_SHARE = 0.3
#: Grudges read by the evidence: the chance an opponent goes for its grudge before any of
#: its attacks showed whether it does, worth this many attacks; a grudge's challenges of
#: this bot's claims are shrunk towards its other challenges of them, worth as many chances.
SPITE_PRIOR = 0.02
SPITE_ME_PRIOR = 0.15
SPITE_WEIGHT = 1.0
GRUDGE_DOUBT_WEIGHT = 3.0
#: ... towards its other challenges of them, or this times its evidenced spite against this
#: bot when that is more (an opponent that hits back at whoever hit it doubts them too).
DOUBT_SPITE = 0.6
#: Samples per round at most, however cheap the playouts.
MAX_SAMPLES = 400
#: The second look before a challenge: the pool it weighs, in worlds searched (chosen
#: against cautious mediums, one against three: docs/bots.md).
RECHECK = 12


class SearchBot:
    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        steps: int = DEFAULT_STEPS,
        horizon: int = 40,
        sims: int | None = None,
        worlds: int = 48,
        oversample: int = 3,
        prior: float = 0.02,
        bluff_odds: float = 0.1,
        doubt: float = 0.4,
        personality: str | None = None,
        model: int = 1,
        aim: int = 1,
        me: int = 1,
        spite: int = 1,
        spite_prior: float = SPITE_PRIOR,
        spite_me_prior: float = SPITE_ME_PRIOR,
        spite_weight: float = SPITE_WEIGHT,
        grudge_doubt: int = 1,
        won: int = 1,
        doubt_spite: float = DOUBT_SPITE,
        recheck: int = RECHECK,
        **playout: float,
    ) -> None:
        self.rng = random.Random(seed)
        self.steps = steps
        self.horizon = horizon
        self.sims = sims
        self.worlds = worlds
        self.oversample = oversample
        self.prior = prior
        self.bluff_odds = bluff_odds
        self.doubt = doubt
        self.playout = Playout(**playout)  # type: ignore[arg-type]
        self.playout.won_grudges = bool(won)
        self.model = model
        self.aim = aim
        self.me = me
        self.spite = spite
        self.spite_prior = spite_prior
        self.spite_me_prior = spite_me_prior
        self.spite_weight = spite_weight
        self.grudge_doubt = grudge_doubt
        self.doubt_spite = doubt_spite
        self.recheck = recheck
        self.odds: dict[int, float] = {}
        guide_seed = self.rng.randrange(2**32)
        self.guide: HeuristicBot = HeuristicBot(seed=guide_seed, bluff_chance=0.0)
        if personality is not None:
            # Style, not strength: the personality's own move gets the prior bonus, so
            # the bot picks it when the search finds it about as good as the best.
            from coup.bots.personality import PersonalityBot

            self.guide = PersonalityBot(seed=guide_seed, personality=personality)
            self.name = f"hard:{personality}"

    def choose(self, state: SeatWindow, seat: int) -> Move:
        legal = state.legal(seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal move now")
        if len(legal) == 1:
            return legal[0]
        know = Knowledge(state.view(seat))
        self.read_opponents(know)
        guess = self.guide.choose(state, seat)
        budget = self.sims or self.steps
        worlds = self.sample_worlds(state, seat, know, min(self.worlds, budget))
        legal = self.prune(know, worlds, legal, guess, state)
        if len(legal) == 1:
            return legal[0]
        return self.halving(worlds, seat, legal, guess, budget)

    def prune(
        self,
        know: Knowledge,
        worlds: list[State],
        legal: list[Move],
        guess: Move,
        state: SeatWindow | None = None,
    ) -> list[Move]:
        """Drop a challenge unless the belief gives the claim a fair chance of being a lie
        (with ``recheck``, a fair chance in a pool of that many times more worlds too: the
        worlds searched are too few to tell a 20% chance from 40% reliably)."""
        pending = know.pending
        challenge = [m for m in legal if m.verb == "challenge"]
        if not challenge or pending is None:
            return legal
        block = pending.get("block")
        claimant, claim = (
            (block["seat"], block["claim"]) if block else (pending["actor"], pending["claim"])
        )
        no_duke = claim is None and pending.get("action") == "embezzle"  # a claim of no Duke

        def lie(world: State) -> bool:
            if no_duke:
                return "duke" in world.hands[claimant]
            return claim not in world.hands[claimant]

        share = sum(1 for w in worlds if lie(w)) / len(worlds)
        if share >= self.doubt and self.recheck and state is not None:
            pool, weights = self.weigh_worlds(state, know.seat, know, len(worlds) * self.recheck)
            total = sum(weights)
            if total > 0:
                share = sum(wt for w, wt in zip(pool, weights, strict=True) if lie(w)) / total
        if share >= self.doubt:
            return legal
        return [m for m in legal if m.verb != "challenge"]

    # -- the opponent model ---------------------------------------------------------
    def read_opponents(self, know: Knowledge) -> None:
        """Each opponent's bluffing and challenging so far this game, shrunk towards the
        usual rates: the belief's bluff odds and the playouts' per-seat rates follow it."""
        self.odds = {}
        self.playout.bluffs = self.playout.challenges = self.playout.doubts_me = None
        self.playout.habits = self.playout.grudges = None
        self.playout.spite = self.playout.grudge_doubts = None
        table = None
        if self.aim:
            table = read_table(know.view)
            found = table.habits
            if found:
                self.playout.habits = [found.get(s) for s in range(len(know.players))]
            if "grudge" in found.values() or self.spite:
                self.playout.grudges = table.grudges
            if self.spite:
                others = range(len(know.players))
                self.playout.spite = [
                    table.spite(s, self.spite_prior, self.spite_weight) for s in others
                ]
                self.playout.spite_me = [
                    table.spite(s, self.spite_me_prior, self.spite_weight) for s in others
                ]
                for s in others:  # a seat whose attacks show another habit keeps to it
                    if s == know.seat or found.get(s) in ("richest", "weakest"):
                        self.playout.spite[s] = self.playout.spite_me[s] = 0.0
                self.playout.me = know.seat
        if not self.model:
            return
        players = len(know.players)
        playout = self.playout
        bluffs = [playout.bluff] * players
        challenges = [playout.challenge] * players
        doubts_me = list(challenges)
        for other in know.opponents():
            record = know.records[other]
            lie = (record.lies + MODEL_WEIGHT * BLUFF_SHARE) / (record.tested + MODEL_WEIGHT)
            lean = (lie / (1 - lie)) / (BLUFF_SHARE / (1 - BLUFF_SHARE))
            self.odds[other] = min(1.0, max(0.02, self.bluff_odds * lean))
            bluffs[other] = min(0.9, playout.bluff * lean)
            challenges[other] = (record.challenges + MODEL_WEIGHT * playout.challenge) / (
                record.chances + MODEL_WEIGHT
            )
            if self.me:  # its challenges of this bot's claims apart from the others'
                rate = challenges[other]
                doubts_me[other] = (record.doubted_me + MODEL_WEIGHT * rate) / (
                    record.chances_me + MODEL_WEIGHT
                )
                challenges[other] = (
                    record.challenges - record.doubted_me + MODEL_WEIGHT * rate
                ) / (record.chances - record.chances_me + MODEL_WEIGHT)
        playout.bluffs, playout.challenges = bluffs, challenges
        if self.me:
            playout.doubts_me, playout.me = doubts_me, know.seat
            if table is not None and self.spite and self.grudge_doubt:
                playout.grudge_doubts = [
                    table.grudge_doubt(
                        s, self.grudge_prior(table, s, doubts_me[s]), GRUDGE_DOUBT_WEIGHT
                    )
                    for s in range(players)
                ]

    def grudge_prior(self, table: Table, seat: int, doubts_me: float) -> float:
        """What ``seat``'s challenges of this bot's claims while it holds a grudge against
        the bot are shrunk towards: its challenges of them, or more when it has shown that
        it hits back (a vengeful player doubts whom it hits back at)."""
        spite = table.spite(seat, self.spite_me_prior, self.spite_weight)
        return max(doubts_me, self.doubt_spite * spite)

    # -- belief --------------------------------------------------------------------------
    def sample_worlds(
        self, state: SeatWindow, seat: int, know: Knowledge, count: int
    ) -> list[State]:
        """Worlds drawn from the view, resampled by how well they explain the history."""
        pool, weights = self.weigh_worlds(state, seat, know, count * self.oversample)
        return resample(pool, weights, count, self.rng)

    def weigh_worlds(
        self, state: SeatWindow, seat: int, know: Knowledge, count: int
    ) -> tuple[list[State], list[float]]:
        """``count`` worlds drawn from the view, each with its belief weight (how well the
        hidden hands explain what their holders claimed, blocked and passed up)."""
        rng = self.rng
        pool = [state.determinize(seat, rng) for _ in range(count)]
        opponents = know.opponents()
        weights = []
        drafted = know.draft and know.other_picks > 0
        for world in pool:
            weight = draft_prior(world, know) if drafted else 1.0
            for other in opponents:
                odds = self.odds.get(other, self.bluff_odds)
                weight *= know.likelihood(other, world.hands[other], odds)
            weights.append(weight)
        return pool, weights

    # -- search --------------------------------------------------------------------------
    def halving(
        self, worlds: list[State], seat: int, legal: list[Move], guess: Move, budget: int
    ) -> Move:
        """Successive halving over the moves, all played in the same worlds.

        ``budget`` counts playout steps (or whole playouts when ``sims`` is set): each
        round spends its share on the moves still in, then keeps the better half.
        """
        moves = list(legal)
        totals = {m: 0.0 for m in moves}
        counts = {m: 0 for m in moves}
        rounds = max(1, math.ceil(math.log2(len(moves))))
        base = self.rng.randrange(2**32)
        cursor = 0
        for _ in range(rounds):
            spent = 0
            share = budget // rounds
            samples = 0
            while samples < 2 or (spent < share and samples < MAX_SAMPLES):
                world = worlds[cursor % len(worlds)]
                seed = base + cursor
                cursor += 1
                samples += 1
                for move in moves:
                    value, steps = self.evaluate(world, seat, move, seed)
                    totals[move] += value
                    counts[move] += 1
                    spent += 1 if self.sims else steps + STEP_OVERHEAD

            def score(m: Move) -> float:
                return totals[m] / counts[m] + (self.prior if m == guess else 0.0)

            moves.sort(key=score, reverse=True)
            moves = moves[: max(1, (len(moves) + 1) // 2)]
            if len(moves) == 1:
                break
        return moves[0]

    def flat(
        self, worlds: list[State], seat: int, legal: list[Move], budget: int
    ) -> tuple[dict[Move, float], dict[Move, int]]:
        """Every move played in the same worlds, in turn, until ``budget`` playout steps
        are spent (at least two playouts each): (total result, playouts) per move."""
        totals = {m: 0.0 for m in legal}
        counts = {m: 0 for m in legal}
        base = self.rng.randrange(2**32)
        spent = cursor = 0
        while cursor < 2 or (spent < budget and cursor < MAX_SAMPLES * 4):
            world = worlds[cursor % len(worlds)]
            seed = base + cursor
            cursor += 1
            for move in legal:
                value, steps = self.evaluate(world, seat, move, seed)
                totals[move] += value
                counts[move] += 1
                spent += steps + STEP_OVERHEAD
        return totals, counts

    def evaluate(self, world: State, seat: int, move: Move, seed: int) -> tuple[float, int]:
        """One playout after ``move`` in ``world``: (1 for a win else 0, steps played).

        With three or more players left the playout stops after ``horizon`` steps and
        the position is scored by each live seat's share of influence and coins.
        """
        game = world.clone()
        game.play(seat, move)
        alive = sum(1 for other in range(game.players) if game.alive(other))
        limit = self.horizon if alive > 2 else 400
        steps = self.playout.run(game, random.Random(seed), limit, (seat, move))
        if game.winner is not None:
            return (1.0 if game.winner == seat else 0.0), steps
        return share(game, seat), steps


def share(game: State, seat: int) -> float:
    """A live seat's chance to win, guessed from influence and coins."""
    if not game.alive(seat):
        return 0.0
    total = 0.0
    mine = 0.0
    for other in range(game.players):
        if game.alive(other):
            score = (2.0 * len(game.hands[other]) + min(game.coins[other], 10) / 5.0) ** 2
            total += score
            if other == seat:
                mine = score
    return mine / total
