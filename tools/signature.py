"""A bot's measured style: how often it bluffs, how often it challenges, whom it attacks.

    python -m tools.signature --games 200

plays tables of the five medium personalities (seats rotated) and prints each one's
signature; tests check that every personality shows its own (docs/bots.md).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

import coup
from coup import bots
from coup.bots.knowledge import Knowledge, claim_of
from coup.bots.personality import ATTACKS, grudge


@dataclass
class Signature:
    """Counts over one bot's decisions (rates as properties)."""

    claims: int = 0  # actions and blocks naming a character
    bluffs: int = 0  # ... made without holding it
    chances: int = 0  # decisions where it might have challenged
    challenges: int = 0
    attacks: int = 0  # coups, assassinations, steals, examinations with a choice of target
    at_leader: int = 0  # ... at the opponent with most influence, then coins
    at_richest: int = 0  # ... at the opponent with the most coins
    at_weakest: int = 0  # ... at the opponent with the least influence, then coins
    grudges: int = 0  # attacks while someone held a grudge-worthy last attack on it
    at_grudge: int = 0  # ... aimed back at that seat

    @property
    def bluff_rate(self) -> float:
        return self.bluffs / self.claims if self.claims else 0.0

    @property
    def challenge_rate(self) -> float:
        return self.challenges / self.chances if self.chances else 0.0

    def share(self, field: str) -> float:
        base = self.grudges if field == "at_grudge" else self.attacks
        return getattr(self, field) / base if base else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "bluff_rate": self.bluff_rate,
            "challenge_rate": self.challenge_rate,
            "at_leader": self.share("at_leader"),
            "at_richest": self.share("at_richest"),
            "at_weakest": self.share("at_weakest"),
            "at_grudge": self.share("at_grudge"),
            "claims": self.claims,
            "chances": self.chances,
            "attacks": self.attacks,
        }


def observe(sig: Signature, state: coup.State, seat: int, move: coup.Move) -> None:
    """Count one decision ``move`` of ``seat`` in ``state`` (before it is played)."""
    hand = state.hands[seat]
    verb = move.verb
    character = claim_of(verb, state.variant) if state.phase == "action" else None
    if verb == "block":
        character = str(move.arg)
    if character:
        sig.claims += 1
        sig.bluffs += character not in hand
    if state.phase in ("react", "challenge_block") and any(
        m.verb == "challenge" for m in state.legal(seat)
    ):
        sig.chances += 1
        sig.challenges += verb == "challenge"
    if verb not in ATTACKS:
        return
    targets = [m.arg for m in state.legal(seat) if m.verb == verb]
    if len(targets) < 2:
        return
    target = move.arg
    coins, lives = state.coins, state.hands
    sig.attacks += 1
    sig.at_leader += (len(lives[target]), coins[target]) == max(  # type: ignore[index]
        (len(lives[t]), coins[t])  # type: ignore[index]
        for t in targets
    )
    sig.at_richest += coins[target] == max(coins[t] for t in targets)  # type: ignore[index]
    sig.at_weakest += (-len(lives[target]), -coins[target]) == max(  # type: ignore[index]
        (-len(lives[t]), -coins[t])  # type: ignore[index]
        for t in targets
    )
    enemy = grudge(Knowledge(state.view(seat)))
    if enemy is not None and enemy in targets:
        sig.grudges += 1
        sig.at_grudge += target == enemy


def measure(lineup: list[str], games: int, seed: int = 1, **settings: Any) -> dict[str, Signature]:
    """Play ``games`` games of ``lineup`` (seats rotated each game); a signature per bot."""
    signatures = {name: Signature() for name in lineup}
    players = len(lineup)
    for game in range(games):
        specs = [lineup[(seat + game) % players] for seat in range(players)]
        seated = [bots.make(spec, seed=seed * 1000 + game * 16 + i) for i, spec in enumerate(specs)]
        state = coup.new_game(players=players, seed=seed * 100_003 + game, **settings)
        while not state.over:
            seat = state.waiting[0]
            move = seated[seat].choose(state, seat)
            observe(signatures[specs[seat]], state, seat, move)
            state.play(seat, move)
    return signatures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.signature")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="medium", choices=("easy", "medium"))
    args = parser.parse_args(argv)
    lineup = [f"{args.level}:{p}" for p in bots.PERSONALITIES]
    results = measure(lineup, args.games, args.seed)
    print(f"{'bot':18} bluff  chall  leader richest weakest grudge")
    for name, sig in results.items():
        d = sig.as_dict()
        print(
            f"{name:18} {d['bluff_rate']:5.1%} {d['challenge_rate']:6.1%} "
            f"{d['at_leader']:6.1%} {d['at_richest']:6.1%} {d['at_weakest']:6.1%}"
            f" {d['at_grudge']:6.1%}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
