"""Many single-agent Coup games stepped together: a Gymnasium vector environment.

>>> from coup.envs.vector import CoupVectorEnv
>>> envs = CoupVectorEnv(num_envs=64, players=4, opponents="random")
>>> obs, infos = envs.reset(seed=0)                 # obs: float32 (64, size)
>>> masks = envs.action_masks()                      # bool (64, actions)
>>> obs, rewards, terminations, truncations, infos = envs.step(masks.argmax(axis=1))

``gymnasium.make_vec("coup/Coup-v0", num_envs=64, opponents="random")`` makes the same.

* Game ``i`` is a :class:`coup.envs.gymnasium.CoupEnv` (same options, same rewards, same
  illegal-action rule); ``reset(seed=s)`` seeds it with ``s + i``, so this environment
  gives step for step what ``gymnasium.vector.SyncVectorEnv`` over ``CoupEnv`` gives (a
  test checks it).
* Autoreset is Gymnasium's default, ``NEXT_STEP``: the step after a game's episode ends
  resets that game and ignores its action (reward 0, not terminated).
* ``opponents="random"`` (every other seat random) is the fast path: one call into the
  kernel (`coup.envs.kernel.stepper.step_random_all`) plays every game's agent move and
  the bots' answers and writes each game's observation and mask into a row of two shared
  buffers, so no Python runs per game. Other opponents step the games one by one.
* ``infos`` holds ``action_mask`` (int8, one row per game) and ``seat``, each with
  Gymnasium's ``_name`` array saying which games it is for, and ``illegal`` where an
  action was refused with a penalty.
* An action outside the action space or illegal with ``illegal="raise"`` raises
  ``ValueError`` before any game moves: nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from coup.envs.gymnasium import CoupEnv
from coup.envs.kernel.stepper import LOST, WON, step_random_all

__all__ = ["CoupVectorEnv"]


class CoupVectorEnv(VectorEnv):
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["human", "ansi"],
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int = 8,
        players: int = 4,
        *,
        opponents: str | Sequence[Any] = "random",
        copy: bool = True,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        """`options` are :class:`CoupEnv`'s (``seat``, ``characters``, ``history``,
        ``max_steps``, ``illegal``, ``illegal_penalty``, ``coup.new_game`` keywords).
        ``copy=False`` hands out the environment's own observation array (rewritten at
        the next step) instead of a copy."""
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, not {num_envs!r}")
        self.num_envs = num_envs
        self.envs = [
            CoupEnv(players, opponents=opponents, render_mode=render_mode, **options)
            for _ in range(num_envs)
        ]
        first = self.envs[0]
        self.render_mode = render_mode
        self.copy = copy
        self.players = players
        self.illegal = first.illegal
        self.illegal_penalty = first.illegal_penalty
        self.max_steps = first.max_steps
        size, actions = first.encoder.size, first.actions.size
        self._actions = actions
        # one buffer of observations and one of masks, a row per game; each game's rules
        # core writes its row, and the games share their caches of observation blocks
        self._obs_bytes = bytearray(4 * size * num_envs)
        self._mask_bytes = bytearray(actions * num_envs)
        self._obs = np.frombuffer(self._obs_bytes, np.float32).reshape(num_envs, size)
        self._mask = np.frombuffer(self._mask_bytes, np.int8).reshape(num_envs, actions)
        features, legal_mask = first.stepper.features, first.stepper.legal_mask
        for i, env in enumerate(self.envs):
            if i:
                env.stepper.features = features.fork()
                env.stepper.legal_mask = legal_mask.fork()
            env._attach(self._obs_bytes, 4 * size * i, self._mask_bytes, actions * i)
        self._steppers = [env.stepper for env in self.envs]
        self._fast = first._all_random
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._seats = [0] * num_envs
        self._rngs: list[Any] = [None] * num_envs
        self._played = [0] * num_envs
        self._outcome = bytearray(num_envs)
        self._outcomes = np.frombuffer(self._outcome, np.uint8)
        self._steps = np.zeros(num_envs, np.int64)
        self._autoreset = np.zeros(num_envs, np.bool_)
        self._everywhere = np.ones(num_envs, np.bool_)
        self._rows = np.arange(num_envs)
        self._decisions = 0  # played by the fast path (the games count the rest)
        self._started = False  # reset() has been called

    # -- episodes --------------------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset every game: `seed` ``s`` seeds game ``i`` with ``s + i``; a list gives one
        seed (or None) per game. ``options={"reset_mask": mask}`` (a bool array, one per
        game) resets only the games where it is True, as Gymnasium's vector environments
        do."""
        if seed is None or isinstance(seed, int | np.integer):
            seeds = [None if seed is None else int(seed) + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(f"need {self.num_envs} seeds, got {len(seeds)}")
        which = self._everywhere
        if options is not None and "reset_mask" in options:
            which = options["reset_mask"]
            if (
                not isinstance(which, np.ndarray)
                or which.shape != (self.num_envs,)
                or which.dtype != np.bool_
                or not which.any()
            ):
                raise ValueError(
                    f"options['reset_mask'] must be a bool array of shape ({self.num_envs},) "
                    "with at least one True"
                )
            if not self._started:
                raise RuntimeError("reset() every game once before resetting some of them")
        for i in np.flatnonzero(which).tolist():
            self._reset_game(i, seeds[i])
        self._autoreset[which] = False
        self._started = True
        return self._observations(), self._infos(None)

    def _reset_game(self, i: int, seed: int | None = None) -> None:
        env = self.envs[i]
        env._restart(seed)
        self._seats[i] = env.seat
        self._rngs[i] = env._random
        self._steps[i] = 0

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before using the environment")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be {self.num_envs} integers, not an array of shape "
                f"{chosen.shape} and type {chosen.dtype}"
            )
        resetting = self._autoreset
        playing = ~resetting
        if chosen.min() < 0 or chosen.max() >= self._actions:
            outside = playing & ((chosen < 0) | (chosen >= self._actions))
            if outside.any():
                i = int(outside.argmax())
                raise ValueError(
                    f"game {i}: action {int(chosen[i])} is outside 0..{self._actions - 1}; "
                    "no game moved"
                )
            chosen = np.where(playing, chosen, 0)  # the resetting games' actions are ignored
        illegal = playing & (self._mask[self._rows, chosen] == 0)
        if illegal.any() and self.illegal == "raise":
            i = int(illegal.argmax())
            move, error = self.envs[i].stepper.refusal(self._seats[i], int(chosen[i]))
            raise ValueError(
                f"game {i}: action {int(chosen[i])} ({move}) is not legal: {error}; no game moved"
            )
        rewards = np.zeros(self.num_envs, np.float64)
        terminated = np.zeros(self.num_envs, np.bool_)
        if self._fast:
            skip = (resetting | illegal).tobytes()
            self._decisions += step_random_all(
                self._steppers,
                self._seats,
                chosen.tolist(),
                self._rngs,
                skip,
                self._played,
                self._outcome,
            )
            moved = ~(resetting | illegal)
            outcome = self._outcomes
            terminated[moved] = outcome[moved] != 0
            rewards[moved & (outcome == WON)] = 1.0
            rewards[moved & (outcome == LOST)] = -1.0
        else:
            for i in np.flatnonzero(playing & ~illegal).tolist():
                _, rewards[i], terminated[i], _, _ = self.envs[i].step(int(chosen[i]))
        if self.render_mode == "human":
            for i in np.flatnonzero(playing).tolist():
                self.envs[i].render()
        rewards[illegal] = self.illegal_penalty
        self._steps[playing] += 1
        truncated = playing & ~terminated & (self._steps >= self.max_steps)
        for i in np.flatnonzero(resetting).tolist():
            self._reset_game(i)
        self._autoreset = terminated | truncated
        return self._observations(), rewards, terminated, truncated, self._infos(illegal)

    @property
    def decisions(self) -> int:
        """Moves chosen by the agents and the bots of all games since the env was made."""
        return self._decisions + sum(env.decisions for env in self.envs)

    # -- what the agents see ------------------------------------------------------------------
    def _observations(self) -> np.ndarray:
        return self._obs.copy() if self.copy else self._obs

    def _infos(self, illegal: np.ndarray | None) -> dict[str, Any]:
        everywhere = self._everywhere
        infos: dict[str, Any] = {
            "action_mask": self._mask.copy(),
            "_action_mask": everywhere,
            "seat": np.array(self._seats),
            "_seat": everywhere,
        }
        if illegal is not None and illegal.any():
            infos["illegal"], infos["_illegal"] = illegal, illegal
        return infos

    def action_masks(self) -> np.ndarray:
        """Boolean masks of the agents' legal actions now, one row per game (a game whose
        episode just ended is reset at the next step, and its row is all False)."""
        return self._mask.astype(np.bool_)

    def render(self) -> tuple[Any, ...] | None:
        return tuple(env.render() for env in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()
