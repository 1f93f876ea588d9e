"""Plays fixed seeds and prints, one JSON line a game, everything the engine shows.

Run by `test_rules_cores.py` once with the compiled core and once with ``COUP_PURE=1``;
both runs must print the same lines. Per decision it hashes every seat's view and the
spectator's, the legal moves of every waiting seat, a clone's view and a determinized
copy's full state (its hidden hands and Court included); per game the record, and the
replay of that record.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

import coup
from coup.rules.core import CORE

#: (players, keywords of coup.new_game) of the tables played.
TABLES: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (2, {"draft": False}),
    (3, {"characters": "inquisitor"}),
    (4, {}),
    (5, {"characters": "inquisitor", "treasury": 13}),
    (6, {}),
    (10, {"characters": "inquisitor"}),
    (2, {"reformation": True}),
    (3, {"reformation": True, "characters": "inquisitor"}),
    (4, {"reformation": True}),
    (6, {"reformation": True, "characters": "inquisitor", "treasury": 20}),
]


def digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def play(players: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    state = coup.new_game(players=players, seed=seed, **options)
    steps: list[str] = []
    while not state.over:
        seat = rng.choice(state.waiting)  # reactions: any waiting seat may speak first
        world = state.determinize(seat, random.Random(seed * 7919 + len(steps)))
        shown = [state.view(s) for s in (None, *range(players))]
        shown.append({str(w): [str(m) for m in state.legal(w)] for w in state.waiting})
        shown.append(state.clone().view(seat))
        shown.append([coup.final_state_json(world), world.view(seat), world.court, world.drawn])
        steps.append(digest(shown))
        state.play(seat, rng.choice(state.legal(seat)))
    record = state.record()
    again = coup.replay(record)
    return {
        "table": [players, options, seed],
        "steps": steps,
        "record": record,
        "final": coup.final_state_json(state),
        "replayed": digest([again.view(None), again.record() == record]),
        "verified": coup.verify({**record, "commitment": coup.commitment(seed)}),
    }


def main(games: int) -> None:
    print(json.dumps({"core": CORE}), flush=True)
    for players, options in TABLES:
        for seed in range(games):
            print(json.dumps(play(players, options, 1000 * players + seed)), flush=True)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 6)
