"""Plays seeded games through the learning adapters and prints, one JSON line a game, a
digest of every observation and legal-action mask they returned.

Run by `test_envs_cores.py` once with the compiled rules and kernel and once with
``COUP_PURE=1``; both runs must print the same lines. PettingZoo games are played twice,
with new arrays for every observation and with ``copy=False`` (the buffers the kernel
writes, shared), and must agree. Each observation and mask is also checked here against
the slow path (the view dict through the reference encoder, ``observation_oracle.encode``;
``state.legal`` through ``ActionSpace.mask``), and observations of copies and redrawn
worlds are mixed in, so the kernel's caches see other games between steps.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import numpy as np
from observation_oracle import encode

from coup.envs.gymnasium import CoupEnv
from coup.envs.kernel import KERNEL
from coup.envs.pettingzoo import raw_env
from coup.rules.core import CORE

#: (players, history window, keywords of the environment) of the tables played.
TABLES: list[tuple[int, int, dict[str, Any]]] = [
    (4, 12, {}),
    (2, 12, {}),
    (3, 12, {"characters": "inquisitor"}),
    (6, 2, {"characters": "inquisitor"}),  # a short window: the oldest entries are dropped
    (4, 12, {"reformation": True}),
    (3, 5, {"reformation": True, "characters": "inquisitor"}),
]
GAMES = 4


def pettingzoo_game(
    players: int, history: int, options: dict[str, Any], seed: int, copy: bool = True
) -> str:
    env = raw_env(players, history=history, copy=copy, **options)
    env.reset(seed=seed)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    kept = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        state, seat = env.state, env.agent_seat[agent]
        slow = encode(env.encoder.layout, state.view(seat))
        legal = state.legal(seat) if seat in state.waiting else []
        assert np.array_equal(obs["observation"], slow), (agent, len(state.history))
        assert np.array_equal(obs["action_mask"], env.actions.mask(legal, seat))
        digest.update(obs["observation"].tobytes() + obs["action_mask"].tobytes())
        digest.update(f"{reward} {terminated} {truncated}".encode())
        if rng.random() < 0.2:  # another game's state in between: a copy or a redrawn world
            kept.append(state.clone())
            other = rng.choice(kept) if rng.random() < 0.5 else state.determinize(seat, rng)
            who = rng.randrange(players)
            seen = env.encoder.encode_state(other, who)
            assert np.array_equal(seen, encode(env.encoder.layout, other.view(who)))
            digest.update(seen.tobytes())
        if terminated or truncated:
            env.step(None)
        else:
            actions = obs["action_mask"].nonzero()[0]
            env.step(int(actions[rng.randrange(len(actions))]))
    return digest.hexdigest()[:16]


def gymnasium_episode(players: int, history: int, options: dict[str, Any], seed: int) -> str:
    env = CoupEnv(players, opponents="random", history=history, **options)
    obs, info = env.reset(seed=seed)
    rng = random.Random(seed)
    digest = hashlib.sha256(obs.tobytes() + info["action_mask"].tobytes())
    while True:
        mask = env.action_masks()
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        actions = mask.nonzero()[0]
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(actions)))
        assert np.array_equal(obs, encode(env.encoder.layout, env.view()))
        digest.update(obs.tobytes() + info["action_mask"].tobytes() + f"{reward}".encode())
        if terminated or truncated:
            return digest.hexdigest()[:16]


def main() -> None:
    print(json.dumps({"core": CORE, "kernel": KERNEL}))
    for players, history, options in TABLES:
        for seed in range(GAMES):
            game = pettingzoo_game(players, history, options, seed)
            # the same game with the observation buffers shared (copy=False)
            assert pettingzoo_game(players, history, options, seed, copy=False) == game
            line = {
                "table": [players, history, options, seed],
                "pettingzoo": game,
                "gymnasium": gymnasium_episode(players, history, options, seed),
            }
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
