"""How fast the learning environments step, next to the raw engine.

``env_rates()`` plays uniformly random legal moves for a fixed time through

* ``engine``: the raw engine (``waiting[0]``, ``legal``, ``play``) — the baseline;
* ``pettingzoo``: the raw AEC env (``last()`` with observation and mask, then ``step``);
* ``gymnasium``: the single-agent env against ``random`` bots (``step`` plus
  ``action_masks()``); its rate counts every decision of the game (the agent's and the
  bots'), so it compares with the others per decision; ``gymnasium_agent`` counts
  agent steps only.

and returns decisions per second for each. ``python -m coup.envs.bench`` prints them.
"""

from __future__ import annotations

import random
import sys
import time

import coup


def engine_rate(players: int = 4, seconds: float = 1.0, seed: int = 0) -> float:
    """Decisions per second of the raw engine playing random legal moves."""
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    end = start + seconds
    game = 0
    while time.perf_counter() < end:
        state = coup.new_game(players=players, seed=seed + game)
        game += 1
        while not state.over:
            seat = state.waiting[0]
            state.play(seat, rng.choice(state.legal(seat)))
            decisions += 1
    return decisions / (time.perf_counter() - start)


def pettingzoo_rate(players: int = 4, seconds: float = 1.0, seed: int = 0) -> float:
    """Decisions per second through the raw PettingZoo AEC env (observation + mask each)."""
    from coup.envs.pettingzoo import raw_env

    env = raw_env(players)
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    end = start + seconds
    env.reset(seed=seed)
    while time.perf_counter() < end:
        if not env.agents:
            env.reset()
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
        decisions += 1
    return decisions / (time.perf_counter() - start)


def gymnasium_rate(players: int = 4, seconds: float = 1.0, seed: int = 0) -> tuple[float, float]:
    """(decisions per second, agent steps per second) of the Gymnasium env vs random bots."""
    from coup.envs.gymnasium import CoupEnv

    env = CoupEnv(players, opponents="random")
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    end = start + seconds
    env.reset(seed=seed)
    done = False
    while time.perf_counter() < end:
        if done:
            env.reset()
        legal = env.action_masks().nonzero()[0]
        _, _, terminated, truncated, _ = env.step(int(legal[rng.randrange(len(legal))]))
        steps += 1
        done = terminated or truncated
    elapsed = time.perf_counter() - start
    return env.decisions / elapsed, steps / elapsed


def env_rates(players: int = 4, seconds: float = 1.0, seed: int = 0) -> dict[str, float]:
    """Decisions per second: ``engine``, ``pettingzoo``, ``gymnasium``, ``gymnasium_agent``."""
    gym_decisions, gym_steps = gymnasium_rate(players, seconds, seed)
    return {
        "engine": engine_rate(players, seconds, seed),
        "pettingzoo": pettingzoo_rate(players, seconds, seed),
        "gymnasium": gym_decisions,
        "gymnasium_agent": gym_steps,
    }


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    players = int(args[0]) if args else 4
    seconds = float(args[1]) if len(args) > 1 else 2.0
    rates = env_rates(players, seconds)
    base = rates["engine"]
    print(f"{players} players, random legal moves, {seconds:g} s each")
    for name, rate in rates.items():
        print(f"  {name:<16} {rate:>10,.0f} decisions/s   {base / rate:5.2f}x engine time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
