"""How fast the learning environments step, next to the raw engine.

``env_rates()`` plays uniformly random legal moves through

* ``engine``: the raw engine (``waiting[0]``, ``legal``, ``play``) — the baseline;
* ``pettingzoo``: the raw AEC env: ``last()`` (observation vector and action mask), then
  ``step`` — every decision of every seat; ``pettingzoo_shared`` the same with
  ``copy=False`` (the observation in the env's own buffers, no new arrays);
  ``pettingzoo_mask_only`` with ``last(observe=False)`` and ``action_mask(agent)``: the
  adapter's own bookkeeping, without building observation vectors; ``pettingzoo_env``
  the ``pettingzoo`` loop through what ``coup.envs.pettingzoo.env()`` returns (PettingZoo's
  order-enforcing wrapper, `InOrder`) instead of the raw environment;
* ``gymnasium``: the single-agent env against ``random`` bots: ``action_masks()`` and
  ``step``, which also plays the bots' moves. Its rate counts every decision of the game
  (the agent's and the bots'), so it compares with the others per decision;
  ``gymnasium_agent`` counts the agent's steps only;
* ``pettingzoo_driver``: the ``pettingzoo`` loop against recorded ``last()`` results and a
  ``step`` that does nothing: what the loop itself costs (``nonzero``, the random choice,
  the calls), the part of the ``pettingzoo`` figure no adapter can remove;
* ``pettingzoo_no_vector`` and ``gymnasium_no_vector``: ``pettingzoo_shared`` and
  ``gymnasium`` with the rules core writing the action mask only, no observation vector:
  what the adapters cost if the vector were free (a floor for any way of writing it);
* ``gymnasium_vector``: 64 games against ``random`` bots in one vector environment
  (`coup.envs.vector`), the driver choosing every game's action with one numpy operation;
  ``gymnasium_sync_vector`` the same through Gymnasium's ``SyncVectorEnv`` over 64
  `CoupEnv` (what a learner would use without it);

and returns decisions per second for each. The three take turns in short slices and the
rates are measured in CPU time of this process, so a busy machine slows them alike.
``python -m tools.bench.envs [players] [seconds]`` prints them;
``python -m tools.bench.envs --against CHECKOUT [players] [seconds] [rounds]`` compares
another checkout of the project (before a change) with this one, each in its own process,
taking turns (`compare`).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import coup


def _engine_runner(players: int, seed: int) -> Callable[[float], int]:
    rng = random.Random(seed)
    games = [0]
    state = coup.new_game(players=players, seed=seed)

    def run(until: float) -> int:
        nonlocal state
        decisions = 0
        clock = time.process_time
        while clock() < until:
            for _ in range(100):
                if state.over:
                    games[0] += 1
                    state = coup.new_game(players=players, seed=seed + games[0])
                seat = state.waiting[0]
                state.play(seat, rng.choice(state.legal(seat)))
                decisions += 1
        return decisions

    return run


def _pettingzoo_runner(
    players: int, seed: int, observe: bool, copy: bool = True, wrapped: bool = False
) -> Callable[[float], int]:
    from coup.envs.pettingzoo import env as wrapped_env
    from coup.envs.pettingzoo import raw_env

    env = (wrapped_env if wrapped else raw_env)(players, copy=copy)
    env.reset(seed=seed)
    return _aec_loop(env, random.Random(seed), observe)


def _vector_free(env: Any) -> Any:
    """`env` with its rules core writing the action mask only: no observation vector, what
    the adapter and the engine cost without it (the vector in the buffer goes stale)."""
    env.stepper.vector = False
    return env


def _no_vector_runner(players: int, seed: int) -> Callable[[float], int]:
    from coup.envs.pettingzoo import raw_env

    env = _vector_free(raw_env(players, copy=False))
    env.reset(seed=seed)
    return _aec_loop(env, random.Random(seed), True)


def _aec_loop(env: Any, rng: random.Random, observe: bool) -> Callable[[float], int]:
    """The bench's PettingZoo loop: uniformly random legal actions for every agent, a
    new game when one ends, until the process's CPU clock reaches `until`."""

    def run(until: float) -> int:
        decisions = 0
        clock = time.process_time
        while clock() < until:
            for _ in range(100):
                if not env.agents:
                    env.reset()
                obs, _, terminated, truncated, _ = env.last(observe)
                if terminated or truncated:
                    env.step(None)
                    continue
                mask = obs["action_mask"] if obs else env.action_mask(env.agent_selection)
                legal = mask.nonzero()[0]
                env.step(int(legal[rng.randrange(len(legal))]))
                decisions += 1
        return decisions

    return run


class _Recorded:
    """Hands out recorded ``last()`` results and ignores ``step``: what the PettingZoo
    loop (`_aec_loop`) costs by itself (the driver's floor)."""

    def __init__(self, players: int, seed: int) -> None:
        from coup.envs.pettingzoo import raw_env

        env = raw_env(players)
        env.reset(seed=seed)
        rng = random.Random(seed)
        self.seen: list[Any] = []
        while len(self.seen) < 1000:
            if not env.agents:
                env.reset()
            last: Any = env.last()
            if last[2] or last[3]:
                env.step(None)
                continue
            self.seen.append(last)
            legal = last[0]["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
        self.agents = env.possible_agents
        self.agent_selection = self.agents[0]
        self.at = 0

    def reset(self) -> None:
        pass

    def last(self, observe: bool = True) -> Any:
        return self.seen[self.at]

    def action_mask(self, agent: str) -> Any:
        return self.seen[self.at][0]["action_mask"]

    def step(self, action: int | None) -> None:
        self.at = (self.at + 1) % 1000


def _driver_runner(players: int, seed: int) -> Callable[[float], int]:
    """The PettingZoo loop of `_pettingzoo_runner` itself, against recorded results."""
    return _aec_loop(_Recorded(players, seed), random.Random(seed), True)


def _gymnasium_runner(
    players: int, seed: int, steps: list[int], vector: bool = True
) -> Callable[[float], int]:
    from coup.envs.gymnasium import CoupEnv

    env = CoupEnv(players, opponents="random")
    if not vector:
        _vector_free(env)
    env.reset(seed=seed)
    rng = random.Random(seed)

    def run(until: float) -> int:
        before = env.decisions
        clock = time.process_time
        while clock() < until:
            for _ in range(30):
                legal = env.action_masks().nonzero()[0]
                _, _, terminated, truncated, _ = env.step(int(legal[rng.randrange(len(legal))]))
                steps[0] += 1
                if terminated or truncated:
                    env.reset()
        return env.decisions - before

    return run


def _given(game: Any) -> Callable[[], Any]:
    """A maker of `game` itself, as ``SyncVectorEnv`` takes."""
    return lambda: game


def _vector_runner(
    players: int, seed: int, envs: int = 64, sync: bool = False
) -> Callable[[float], int]:
    """`envs` games against random bots stepped together: the vector environment, or
    with `sync` Gymnasium's own ``SyncVectorEnv`` over `CoupEnv` (what it replaces)."""
    import gymnasium

    from coup.envs.gymnasium import CoupEnv
    from coup.envs.vector import CoupVectorEnv

    if sync:
        games = [CoupEnv(players, opponents="random") for _ in range(envs)]
        vector: Any = gymnasium.vector.SyncVectorEnv([_given(game) for game in games])
    else:
        vector = CoupVectorEnv(envs, players, opponents="random")
        games = vector.envs
    _, infos = vector.reset(seed=seed)
    rng = np.random.default_rng(seed)
    masks = [infos["action_mask"]]

    def decisions() -> int:
        return sum(game.decisions for game in games) + getattr(vector, "_decisions", 0)

    def run(until: float) -> int:
        before = decisions()
        clock = time.process_time
        while clock() < until:
            for _ in range(4):
                # a uniformly random legal action in every game: the largest of random
                # numbers where the mask allows
                actions = (masks[0] * rng.random(masks[0].shape)).argmax(axis=1)
                masks[0] = vector.step(actions)[4]["action_mask"]
        return decisions() - before

    return run


def env_rates(
    players: int = 4, seconds: float = 1.0, seed: int = 0, slices: int = 10
) -> dict[str, float]:
    """Decisions per CPU second: ``engine``, ``pettingzoo``, ``pettingzoo_shared``
    (``copy=False``), ``pettingzoo_mask_only``, ``pettingzoo_env`` (through ``env()``'s
    wrapper), ``gymnasium``, ``pettingzoo_driver`` (the loop alone),
    ``pettingzoo_no_vector`` and ``gymnasium_no_vector`` (no observation vector written),
    ``gymnasium_vector`` and ``gymnasium_sync_vector`` (64 games at once),
    ``gymnasium_agent`` (agent steps only); about `seconds` CPU for each."""
    agent_steps = [0]
    runners = {
        "engine": _engine_runner(players, seed),
        "pettingzoo": _pettingzoo_runner(players, seed, observe=True),
        "pettingzoo_shared": _pettingzoo_runner(players, seed, observe=True, copy=False),
        "pettingzoo_mask_only": _pettingzoo_runner(players, seed, observe=False),
        "pettingzoo_env": _pettingzoo_runner(players, seed, observe=True, wrapped=True),
        "gymnasium": _gymnasium_runner(players, seed, agent_steps),
        "pettingzoo_driver": _driver_runner(players, seed),
        "pettingzoo_no_vector": _no_vector_runner(players, seed),
        "gymnasium_no_vector": _gymnasium_runner(players, seed, [0], vector=False),
        "gymnasium_vector": _vector_runner(players, seed),
        "gymnasium_sync_vector": _vector_runner(players, seed, sync=True),
    }
    done = dict.fromkeys(runners, 0)
    spent = dict.fromkeys(runners, 0.0)
    for _ in range(slices):
        for name, run in runners.items():
            start = time.process_time()
            done[name] += run(start + seconds / slices)
            spent[name] += time.process_time() - start
    rates = {name: done[name] / spent[name] for name in runners}
    rates["gymnasium_agent"] = agent_steps[0] / spent["gymnasium"]
    return rates


# A checkout from before the tools left the package has this bench as coup.envs.bench.
_CHILD = """
import json, sys
try:
    from tools.bench.envs import env_rates
except ImportError:
    from coup.envs.bench import env_rates
print(json.dumps(env_rates(int(sys.argv[1]), float(sys.argv[2]))))
"""


def _python(root: Path) -> str:
    venv = root / ".venv" / "bin" / "python"
    return str(venv) if venv.is_file() else sys.executable


def compare(
    other: Path, players: int = 4, seconds: float = 1.0, rounds: int = 5
) -> dict[str, dict[str, float]]:
    """Ratios (an adapter's time per decision over the raw engine's) of the checkout at
    `other` ("before") and this one ("after"), each in its own process (its ``.venv`` if it
    has one), taking turns for `rounds` rounds; the median of each side's rounds, and the
    median engine decisions/s under ``engine``."""
    here = Path(__file__).resolve().parents[2]
    sides = {"before": Path(other).resolve(), "after": here}
    seen: dict[str, dict[str, list[float]]] = {name: {} for name in sides}
    for _ in range(rounds):
        for name, root in sides.items():
            env = {**os.environ, "PYTHONPATH": str(root)}
            done = subprocess.run(
                [_python(root), "-c", _CHILD, str(players), str(seconds)],
                cwd=root,
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            rates = json.loads(done.stdout)
            for key, rate in rates.items():
                value = rate if key == "engine" else rates["engine"] / rate
                seen[name].setdefault(key, []).append(value)
    return {
        name: {key: statistics.median(values) for key, values in table.items()}
        for name, table in seen.items()
    }


def main(argv: list[str] | None = None) -> int:
    """``python -m tools.bench.envs [players] [seconds]``; ``--against CHECKOUT [players]
    [seconds] [rounds]``: that checkout and this one side by side (`compare`)."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--against"]:
        other, rest = Path(args[1]), args[2:]
        players = int(rest[0]) if rest else 4
        seconds = float(rest[1]) if len(rest) > 1 else 1.0
        rounds = int(rest[2]) if len(rest) > 2 else 5
        sides = compare(other, players, seconds, rounds)
        print(
            f"{players} players, {rounds} rounds of {seconds:g} CPU s a runner, each side in "
            f"its own process, taking turns; medians of the rounds (before: {other})"
        )
        before, after = sides["before"], sides["after"]
        print(f"  {'engine decisions/s':<22} {before['engine']:>10,.0f} {after['engine']:>10,.0f}")
        for key in after:
            if key not in ("engine", "gymnasium_agent"):
                old = f"{before[key]:9.2f}x" if key in before else f"{'-':>10}"
                print(f"  {key:<22} {old} {after[key]:9.2f}x")
        return 0
    players = int(args[0]) if args else 4
    seconds = float(args[1]) if len(args) > 1 else 2.0
    rates = env_rates(players, seconds)
    base = rates["engine"]
    print(f"{players} players, random legal moves, {seconds:g} CPU s each, per decision:")
    for name, rate in rates.items():
        unit = "agent steps/s" if name == "gymnasium_agent" else "decisions/s"
        print(f"  {name:<20} {rate:>10,.0f} {unit:<14} {base / rate:5.2f}x the engine's time")
    return 0


if __name__ == "__main__":
    sys.exit(main())
