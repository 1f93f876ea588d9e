"""The learning-environment bench (`tools.bench.envs`): what its runners measure."""

from __future__ import annotations

import random

from coup.envs.pettingzoo import raw_env
from tools.bench.envs import _vector_free, env_rates


def test_every_runner_reports_a_rate() -> None:
    rates = env_rates(players=3, seconds=0.08, slices=1)
    assert set(rates) == {
        "engine",
        "pettingzoo",
        "pettingzoo_shared",
        "pettingzoo_mask_only",
        "pettingzoo_env",
        "gymnasium",
        "pettingzoo_driver",
        "pettingzoo_no_vector",
        "gymnasium_no_vector",
        "gymnasium_vector",
        "gymnasium_sync_vector",
        "gymnasium_agent",
    }
    assert all(rate > 0 for rate in rates.values())


def test_without_the_vector_the_mask_is_still_the_legal_moves() -> None:
    # the no-vector runners play the same games: only the observation vector is skipped
    env = _vector_free(raw_env(4, copy=False))
    twin = raw_env(4, copy=False)
    env.reset(seed=5)
    twin.reset(seed=5)
    rng = random.Random(5)
    for _ in range(300):
        if not env.agents:
            env.reset()
            twin.reset()
        obs, _, terminated, truncated, _ = env.last()
        mine = obs["action_mask"].copy()
        theirs = twin.last()[0]["action_mask"]
        assert (mine == theirs).all() and env.agent_selection == twin.agent_selection
        if terminated or truncated:
            env.step(None)
            twin.step(None)
            continue
        action = int(rng.choice(mine.nonzero()[0]))
        env.step(action)
        twin.step(action)
