"""Coup as a single-agent Gymnasium environment (``pip install coup[gymnasium]``).

The agent plays one seat; every other seat is played by a :mod:`coup.bots` bot. Each
``step`` plays the agent's move and then the bots' moves until the agent must decide again
(its turn, a reaction window it is asked in — clockwise from the actor — a block, a
challenge to answer, a card to lose, an exchange...) or the game is over for it.

>>> from coup.envs.gymnasium import CoupEnv
>>> env = CoupEnv(players=4, opponents="heuristic")
>>> obs, info = env.reset(seed=0)
>>> obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

* Observation: the float32 vector of :mod:`coup.envs.observation`; action: an integer of
  :mod:`coup.envs.actions` (targets relative to the agent). ``action_masks()`` returns the
  boolean legal-action mask, as sb3-contrib's ``MaskablePPO`` expects; ``info`` carries the
  same as ``info["action_mask"]`` (int8).
* Reward: ``+1`` when the agent wins, ``-1`` when it is knocked out (the episode ends
  then; the others' game does not matter to it), 0 otherwise. ``truncated`` after
  ``max_steps`` agent steps.
* Illegal actions: ``illegal="penalize"`` (default) leaves the game unchanged and returns
  reward ``illegal_penalty`` (default -0.1) with ``info["illegal"] = True``, so unmasked
  algorithms and ``check_env`` work; ``illegal="raise"`` raises ``ValueError`` instead.
* ``opponents``: a bot name for every other seat (``"random"``, ``"honest"``,
  ``"heuristic"``, ...), a list with one name or bot per other seat (clockwise from the
  agent), or bot objects (anything with ``choose(state, seat) -> Move``).
  ``seat=None`` (default) puts the agent at a random seat each episode.
* The step is the learning kernel's (:mod:`coup.envs.kernel.solo`, compiled where the rules
  are): ``step`` and ``action_masks`` each make one call into it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import coup
from coup.bots.baseline import RandomBot
from coup.envs import game_seed
from coup.envs.actions import ActionSpace
from coup.envs.kernel.solo import Solo
from coup.envs.kernel.stepper import Stepper
from coup.envs.observation import ObservationEncoder
from coup.envs.text import render

__all__ = ["ENV_ID", "CoupEnv"]

#: ``gymnasium.make(ENV_ID, players=4, opponents="heuristic")`` once this module is imported
ENV_ID = "coup/Coup-v0"

_FLOAT32, _INT8, _BOOL = np.dtype(np.float32), np.dtype(np.int8), np.dtype(np.bool_)
_frombuffer = np.frombuffer


class CoupEnv(gym.Env[np.ndarray, np.int64]):
    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        players: int = 4,
        *,
        opponents: str | Sequence[Any] = "heuristic",
        seat: int | None = None,
        characters: str = "ambassador",
        history: int = 12,
        max_steps: int = 1000,
        illegal: str = "penalize",
        illegal_penalty: float = -0.1,
        render_mode: str | None = None,
        **game: Any,
    ) -> None:
        """`game` keywords go to :func:`coup.new_game` (``copies``, ``draft``, ``treasury``)."""
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        if illegal not in ("penalize", "raise"):
            raise ValueError(f"illegal must be 'penalize' or 'raise', not {illegal!r}")
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat must be 0..{players - 1} or None, not {seat!r}")
        if isinstance(opponents, str):
            opponents = [opponents] * (players - 1)
        if len(opponents) != players - 1:
            raise ValueError(f"need {players - 1} opponents, got {len(opponents)}")
        self.players = players
        self.opponents = list(opponents)
        self.fixed_seat = seat
        self.characters = characters
        self.render_mode = render_mode
        self.game = game
        reformation = bool(game.get("reformation", False))
        self.actions = ActionSpace(players, characters, reformation)
        self.encoder = ObservationEncoder(players, history, reformation)
        # the kernel plays the agent's move (and random bots' moves) and writes the
        # observation and mask into its two buffers (`coup.envs.kernel.stepper`); numpy wraps
        # them once, here, and a step hands out copies
        self.stepper = Stepper(
            self.encoder.features, self.actions._legal_mask, self.actions._moves, 2**62
        )
        self._obs = _frombuffer(self.stepper.obs, _FLOAT32)
        self._mask = _frombuffer(self.stepper.mask, _INT8)
        self._mask_bool = _frombuffer(self.stepper.mask, _BOOL)
        self._size = self.actions.size
        # the step is the kernel's (`coup.envs.kernel.solo`): step and action_masks call it
        self._solo = Solo(
            self.stepper,
            {"obs": self._obs, "mask": self._mask, "mask_bool": self._mask_bool},
            max_steps,
            illegal == "raise",
            illegal_penalty,
            self._refuse,
            self._play_bots,
        )
        self._renders = render_mode == "human"  # every step
        # every opponent "random": one generator for all of them, seeded when reset() is
        # given a seed (and at the first reset), and the kernel plays their moves
        self._all_random = all(spec == "random" for spec in self.opponents)
        self._random: random.Random | None = None
        # per agent seat, the random bots of every other seat (made once per generator)
        self._random_bots: dict[int, dict[int, Any]] = {}
        self.observation_space = spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32)
        self.action_space = spaces.Discrete(self.actions.size)
        self.state: coup.State | None = None
        self.bots: dict[int, Any] = {}

    # -- the core's settings and counts ----------------------------------------------------
    @property
    def max_steps(self) -> int:
        """Agent steps after which an episode is truncated."""
        return self._solo.max_steps

    @max_steps.setter
    def max_steps(self, steps: int) -> None:
        self._solo.max_steps = steps

    @property
    def illegal(self) -> str:
        """What an illegal action does: ``"penalize"`` or ``"raise"``."""
        return "raise" if self._solo.raise_illegal else "penalize"

    @illegal.setter
    def illegal(self, illegal: str) -> None:
        if illegal not in ("penalize", "raise"):
            raise ValueError(f"illegal must be 'penalize' or 'raise', not {illegal!r}")
        self._solo.raise_illegal = illegal == "raise"

    @property
    def illegal_penalty(self) -> float:
        """The reward of a penalized illegal action."""
        return self._solo.penalty

    @illegal_penalty.setter
    def illegal_penalty(self, penalty: float) -> None:
        self._solo.penalty = penalty

    @property
    def seat(self) -> int:
        """The agent's seat this episode."""
        return self._solo.seat

    @seat.setter
    def seat(self, seat: int) -> None:
        self._solo.seat = seat

    @property
    def steps(self) -> int:
        """Agent steps this episode (truncated at ``max_steps``)."""
        return self._solo.steps

    @steps.setter
    def steps(self, steps: int) -> None:
        self._solo.steps = steps

    @property
    def decisions(self) -> int:
        """Moves chosen by the agent and the bots since the env was made (forced moves,
        played by the engine itself, are not counted)."""
        return self._solo.decisions

    @decisions.setter
    def decisions(self, decisions: int) -> None:
        self._solo.decisions = decisions

    def _make_bots(self, seeded: bool, seat: int) -> dict[int, Any]:
        """The bots of every seat but the agent's `seat`."""
        if self._all_random:  # the same bot in every other seat, its generator kept
            if seeded or self._random is None:
                self._random = random.Random(game_seed(self.np_random))
                self._random_bots.clear()
            made = self._random_bots.get(seat)
            if made is None:
                bot = RandomBot(rng=self._random)
                made = {(seat + k) % self.players: bot for k in range(1, self.players)}
                self._random_bots[seat] = made
            return made
        from coup import bots as bot_registry

        made = {}
        for k, spec in enumerate(self.opponents, start=1):
            other = (seat + k) % self.players
            if isinstance(spec, str):
                made[other] = bot_registry.make(spec, seed=game_seed(self.np_random))
            else:
                made[other] = spec
        return made

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        self._restart(seed)
        return self._obs.copy(), {"action_mask": self._mask.copy(), "seat": self.seat}

    def _restart(self, seed: int | None) -> None:
        """`reset` without making what it returns (the vector environment's reset)."""
        super().reset(seed=seed)
        n = self.players
        # one draw: the game's seed, and from it the agent's seat and the first player
        drawn = game_seed(self.np_random)
        seat = self.fixed_seat if self.fixed_seat is not None else drawn % n
        self.state = state = coup.new_game(
            players=n,
            seed=drawn,
            characters=self.characters,
            first=drawn // n % n,
            **self.game,
        )
        self.bots = self._make_bots(seed is not None, seat)
        # the kernel starts the episode: the bots' first moves, the agent's observation
        self._solo.restart(state, seat, self._random if self._all_random else None)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Play the agent's `action`, then the bots until the agent decides again: the
        kernel's `coup.envs.kernel.solo.Solo.step`."""
        result = self._solo.step(action)
        if self._renders:
            self.render()
        return result

    def _refuse(self, seat: int, index: int) -> None:
        move, error = self.stepper.refusal(seat, index)
        raise ValueError(f"action {index} ({move}) is not legal: {error}")

    def _play_bots(self) -> None:
        """Let the bots move until the agent must decide or its game is over (the rules
        core calls this where the bots are not all random; it plays random ones itself)."""
        state = self._live()
        me = self.seat
        bots = self.bots
        while not state.over and state.alive(me):
            seat = state.waiting[0]
            if seat == me:
                return
            state.play(seat, bots[seat].choose(state, seat))
            self.decisions += 1

    def _attach(self, obs: bytearray, obs_at: int, mask: bytearray, mask_at: int) -> None:
        """Write the observation into `obs` from byte `obs_at` and the mask into `mask` from
        byte `mask_at` from now on (a row of :class:`coup.envs.vector.CoupVectorEnv`'s
        buffers)."""
        stepper = self.stepper
        stepper.write_into(obs, obs_at, mask, mask_at)
        self._obs = _frombuffer(stepper.obs_view, _FLOAT32)
        self._mask = _frombuffer(stepper.mask_view, _INT8)
        self._mask_bool = _frombuffer(stepper.mask_view, _BOOL)
        self._solo.attach({"obs": self._obs, "mask": self._mask, "mask_bool": self._mask_bool})

    def _live(self) -> coup.State:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the agent's legal actions now (all False once its game is over):
        the kernel's `coup.envs.kernel.solo.Solo.action_masks`."""
        return self._solo.action_masks()  # type: ignore[no-any-return]

    def view(self) -> coup.SeatView:
        """The agent's view as a JSON-ready dict (for people and language-model agents)."""
        return self._live().view(self.seat)

    def legal_moves(self) -> list[str]:
        """The agent's legal moves in notation."""
        return [str(move) for move in self._live().legal(self.seat)]

    def render(self) -> str | None:
        return render(self._live(), self.render_mode)


if ENV_ID not in gym.registry:
    gym.register(
        id=ENV_ID,
        entry_point="coup.envs.gymnasium:CoupEnv",
        vector_entry_point="coup.envs.vector:CoupVectorEnv",
    )
