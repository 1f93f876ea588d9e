"""Is the coach right? Measure it: `python -m tools.coach_check --games 12`.

1. Plays ``games`` four-player games of ``--players`` bots (deal and bot seeds fixed), and
   times the coach on every seat of each (CPU seconds per game and per decision).
2. Takes the decisions the coach flagged as mistakes and, for each, plays the game on
   from that position ``--playouts`` times after the move played and as many times after
   the coach's alternative: each time a fresh world consistent with the seat's view
   (`determinize`, uniform: no belief, so independent of the coach's own sampling), the
   same world and seed for both moves, then the same bots as the game's to the end. It
   reports how often the seat won after each, and the paired difference with a 95%
   interval. The coach's flags are real when the alternative wins clearly more often.
   Uniform worlds ignore what the claims said, so the same is measured once more in the
   game's own world (the real hidden cards, fresh bot seeds): no guess at all.

Prints one JSON object (docs/bots.md quotes it). Deterministic for its arguments.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from typing import Any

import coup
from coup import bots as bots_module
from coup.bots.arena import parse_spec, play_game
from coup.review.coach import review
from coup.review.walk import walk


def play_on(state: coup.State, seat: int, move: str, specs: list[str], seed: int) -> float:
    """1 if ``seat`` wins after ``move`` played in ``state``, the game finished by bots."""
    game = state.clone()
    game.play(seat, move)
    players = []
    for i, spec in enumerate(specs):
        name, options = parse_spec(spec)
        players.append(bots_module.make(name, seed=seed * 131 + i, **options))
    steps = 0
    while not game.over and steps < 2000:
        who = game.waiting[0]
        game.play(who, players[who].choose(game, who))
        steps += 1
    return 1.0 if game.winner == seat else 0.0


def check(games: int, specs: list[str], playouts: int, sample: int, seed: int) -> dict[str, Any]:
    flagged: list[tuple[coup.Record, int, dict[str, Any]]] = []
    timings: list[dict[str, Any]] = []
    for g in range(games):
        result = play_game(specs, deal_seed=seed + g, bot_seed=seed + 1000 + g, keep_record=True)
        record = result.record
        assert record is not None
        per_seat = []
        for seat in range(len(specs)):
            start = time.process_time()
            notes = review(record, seat)
            spent = time.process_time() - start
            per_seat.append((spent, len(notes["decisions"])))
            flagged += [(record, seat, d) for d in notes["decisions"] if d["mistake"]]
        timings.append(
            {
                "moves": len(record["moves"]),
                "cpu_seconds": round(sum(s for s, _ in per_seat), 2),
                "decisions": sum(n for _, n in per_seat),
            }
        )
    rng = random.Random(seed)
    chosen = rng.sample(flagged, min(sample, len(flagged)))
    rows = []
    for n, (record, seat, d) in enumerate(chosen):
        state = walk(record).at(d["index"])
        world_rng = random.Random(f"check:{seed}:{n}")
        played = better = real_played = real_better = 0.0
        for _ in range(playouts):
            world = state.determinize(seat, world_rng)
            play_seed = world_rng.randrange(2**32)
            played += play_on(world, seat, d["played"], specs, play_seed)
            better += play_on(world, seat, d["best"], specs, play_seed)
            play_seed = world_rng.randrange(2**32)
            real_played += play_on(state, seat, d["played"], specs, play_seed)
            real_better += play_on(state, seat, d["best"], specs, play_seed)
        rows.append(
            {
                "phase": d["phase"],
                "played": d["played"],
                "best": d["best"],
                "coach_loss": d["loss"],
                "won_after_played": round(played / playouts, 3),
                "won_after_best": round(better / playouts, 3),
                "real_won_after_played": round(real_played / playouts, 3),
                "real_won_after_best": round(real_better / playouts, 3),
            }
        )
    gains = [r["won_after_best"] - r["won_after_played"] for r in rows]
    real = [r["real_won_after_best"] - r["real_won_after_played"] for r in rows]
    decisions = sum(t["decisions"] for t in timings)
    seconds = sum(t["cpu_seconds"] for t in timings)
    return {
        "players": specs,
        "games": games,
        "coach": {
            "cpu_seconds_per_game_all_seats": round(seconds / games, 2),
            "cpu_seconds_per_game_per_seat": round(seconds / games / len(specs), 2),
            "ms_per_decision": round(1000 * seconds / max(1, decisions), 1),
            "decisions_per_seat": round(decisions / games / len(specs), 1),
            "moves_per_game": round(statistics.fmean(t["moves"] for t in timings), 1),
        },
        "flagged": len(flagged),
        "checked": len(rows),
        "playouts_each": playouts,
        "uniform_worlds": summary(rows, gains, "won_after_played", "won_after_best"),
        "real_world": summary(rows, real, "real_won_after_played", "real_won_after_best"),
        "rows": rows,
    }


def summary(rows: list[dict[str, Any]], gains: list[float], a: str, b: str) -> dict[str, Any]:
    """Mean win rates after the played move and the alternative; the paired gain, 95%."""
    if not rows:
        return {}
    mean = statistics.fmean(gains)
    half = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else 0.0
    return {
        "won_after_played": round(statistics.fmean(r[a] for r in rows), 3),
        "won_after_best": round(statistics.fmean(r[b] for r in rows), 3),
        "gain": round(mean, 3),
        "gain_95": [round(mean - half, 3), round(mean + half, 3)],
        "alternative_better": sum(1 for g in gains if g > 0),
        "alternative_worse": sum(1 for g in gains if g < 0),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.coach_check", description=__doc__)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--players", default="heuristic,heuristic,heuristic,heuristic")
    parser.add_argument("--playouts", type=int, default=200)
    parser.add_argument("--sample", type=int, default=40, help="flagged decisions checked")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    specs = [s.strip() for s in args.players.split(",")]
    out = check(args.games, specs, args.playouts, args.sample, args.seed)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
