"""Coup as a PettingZoo AEC environment (``pip install coup[pettingzoo]``).

>>> from coup.envs.pettingzoo import env
>>> e = env(players=4)
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else e.action_space(agent).sample(
...         obs["action_mask"])
...     e.step(action)

* Agents are ``player_0 .. player_{n-1}`` (seat numbers). The agent selected is always
  ``state.waiting[0]``: in a reaction window the seats that may still react are asked one
  by one, clockwise from the actor (RULES.md); a challenge or block closes the window.
* Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``; see
  :mod:`coup.envs.observation` and :mod:`coup.envs.actions` (targets relative to the mover).
* Rewards: a seat knocked out gets ``-1/(n-1)`` and is terminated at once (there is no
  second place, so its result is final); the winner gets ``+1`` when the game ends. The sum
  over a game is 0. After ``max_moves`` decisions every seat still in is truncated with
  reward 0 (random play rarely gets there; it guards against endless exchange loops).
* An illegal action raises ``ValueError`` naming the action and the legal ones; nothing
  changes, so the caller may step again.
* ``env.unwrapped.state`` is the live :class:`coup.State`; ``view(agent)`` its seat's view
  dict (for people and language-model agents); ``legal_moves(agent)`` the legal notation.
* The bookkeeping is the learning kernel's (:mod:`coup.envs.kernel.agents`, compiled where
  the rules are): ``last``, ``step`` and ``observe`` each make one call into it, and
  ``agents``, ``rewards``, ``terminations``, ``truncations`` and ``infos`` are its own list
  and dicts, refilled by every ``reset()``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]

import coup
from coup.envs import game_seed
from coup.envs.actions import ActionSpace
from coup.envs.kernel.agents import Agents, NotInOrder, Turns
from coup.envs.kernel.stepper import ILLEGAL, OUTSIDE, Stepper
from coup.envs.observation import ObservationEncoder
from coup.envs.text import render

__all__ = ["CoupAEC", "InOrder", "env", "raw_env"]

_FLOAT32, _INT8 = np.dtype(np.float32), np.dtype(np.int8)
_frombuffer = np.frombuffer


class CoupAEC(AECEnv):  # type: ignore[misc]
    """The raw AEC environment; :func:`env` wraps it with PettingZoo's order checks."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "coup_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        *,
        characters: str = "ambassador",
        history: int = 12,
        max_moves: int = 2000,
        render_mode: str | None = None,
        first: int | None = None,
        copy: bool = True,
        **game: Any,
    ) -> None:
        """`game` keywords go to :func:`coup.new_game` (``copies``, ``draft``, ``treasury``).

        ``first=None`` draws the starting seat at random (from the reset seed) every game.
        ``copy=False``: every observation is the same dict of the same two arrays, which
        the environment rewrites at each ``last()``/``observe()`` (no new arrays per
        step, as Gymnasium's vector environments with ``copy=False``); copy them to keep
        them. ``copy=True`` (default): new arrays every time.
        """
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.players = players
        reformation = bool(game.get("reformation", False))
        self.actions = ActionSpace(players, characters, reformation)
        self.encoder = ObservationEncoder(players, history, reformation)
        # the kernel plays a step and writes an observation and mask into its two
        # buffers (`coup.envs.kernel.stepper`); numpy wraps them once, here
        self.stepper = Stepper(
            self.encoder.features, self.actions._legal_mask, self.actions._moves, max_moves
        )
        self._legal_mask = self.actions._legal_mask.mask
        self._obs = _frombuffer(self.stepper.obs, _FLOAT32)
        self._mask = _frombuffer(self.stepper.mask, _INT8)
        self._shared: dict[str, np.ndarray] = {"observation": self._obs, "action_mask": self._mask}
        self._size = self.actions.size
        self.characters = characters
        self.render_mode = render_mode
        self.first = first
        self.game = game
        # the AEC bookkeeping (selection, rewards, terminations, ...) is the kernel's
        # (`coup.envs.kernel.agents`): last, step and observe call it
        self._core = Agents(self.stepper, players, self._shared, copy, self._refuse)
        self._renders = render_mode == "human"  # every step
        self.possible_agents = self._core.names[:]
        self.agent_seat = self._core.seat_of
        # the core's own list and dicts (refilled in place by every reset, never replaced):
        # what the core changes, these show
        core = self._core
        self.agents: list[str] = core.agents
        self.rewards: dict[str, float] = core.rewards
        self._cumulative_rewards: dict[str, float] = core.cumulative
        self.terminations: dict[str, bool] = core.terminations
        self.truncations: dict[str, bool] = core.truncations
        self.infos: dict[str, dict[str, Any]] = core.infos
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.actions.size,), np.int8),
            }
        )
        act_space = spaces.Discrete(self.actions.size)
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {agent: act_space for agent in self.possible_agents}
        self._rng = np.random.default_rng()
        self.state: coup.State | None = None

    # -- settings and PettingZoo's attributes: the core's --------------------------------
    @property
    def copy(self) -> bool:
        """New arrays for every observation (True) or the shared two (False)."""
        return self._core.copy

    @copy.setter
    def copy(self, copy: bool) -> None:
        self._core.copy = bool(copy)

    @property
    def max_moves(self) -> int:
        """Decisions after which a game is truncated."""
        return self.stepper.max_moves

    @max_moves.setter
    def max_moves(self, moves: int) -> None:
        self.stepper.max_moves = moves

    @property
    def agent_selection(self) -> str:
        if not self._core.started:
            raise AttributeError("agent_selection is set by reset()")
        return self._core.selected

    @agent_selection.setter
    def agent_selection(self, agent: str) -> None:
        self._core.selected = agent

    @property
    def _skip_agent_selection(self) -> str | None:
        return self._core.skip

    @_skip_agent_selection.setter
    def _skip_agent_selection(self, agent: str | None) -> None:
        self._core.skip = agent

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the game -------------------------------------------------------------------------
    @property
    def moves(self) -> int:
        """Decisions played in this game (the game is truncated at ``max_moves``)."""
        return self.stepper.played

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        drawn = game_seed(self._rng)  # one draw: the deal's seed and the first seat
        first = self.first if self.first is not None else drawn % self.players
        self.state = coup.new_game(
            players=self.players,
            seed=drawn,
            characters=self.characters,
            first=first,
            **self.game,
        )
        self._core.start(self.state)

    def step(self, action: int | None) -> None:
        """Play the selected agent's `action` (None for an agent that is out): the
        kernel's `coup.envs.kernel.agents.Agents.step`."""
        self._core.step(action)
        if self._renders:
            self.render()

    def _refuse(self, agent: str, seat: int, index: int, why: int) -> None:
        if why == OUTSIDE:
            raise ValueError(f"action {index!r} is outside 0..{self._size - 1}")
        assert why == ILLEGAL and self.state is not None
        move, error = self.stepper.refusal(seat, index)
        legal = ", ".join(
            f"{self.actions.move_to_action(m, seat)} ({m})" for m in self.state.legal(seat)
        )
        raise ValueError(
            f"action {index} ({move}) is not legal for {agent}: {error}; legal now: {legal}"
        )

    def _live(self) -> coup.State:
        if self.state is None:
            raise RuntimeError("call reset() before using the environment")
        return self.state

    # -- what a seat sees -------------------------------------------------------------------
    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``AECEnv.last``: the kernel's
        `coup.envs.kernel.agents.Agents.last`."""
        return self._core.last(observe)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._core.observe(agent)  # type: ignore[no-any-return]

    def action_mask(self, agent: str) -> np.ndarray:
        """The legal-action mask of `agent` (int8, 1 = legal)."""
        return _frombuffer(self._legal_mask(self._live(), self.agent_seat[agent]), _INT8)

    def view(self, agent: str) -> coup.SeatView:
        """`agent`'s view of the game as a JSON-ready dict (see docs/engine.md)."""
        return self._live().view(self.agent_seat[agent])

    def legal_moves(self, agent: str) -> list[str]:
        """`agent`'s legal moves in notation, e.g. ``["pass", "challenge"]``."""
        return [str(move) for move in self._live().legal(self.agent_seat[agent])]

    def render(self) -> str | None:
        return render(self._live(), self.render_mode)

    def close(self) -> None:
        pass


def raw_env(players: int = 4, **options: Any) -> CoupAEC:
    """The unwrapped AEC environment (fastest); same options as :func:`env`."""
    return CoupAEC(players, **options)


class InOrder(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` of a `CoupAEC`, with its checks, at the raw
    environment's speed once reset.

    Before the first ``reset()`` it is the wrapper itself (what it refuses, it refuses:
    the kernel answers `NotInOrder` and the wrapper's own method runs). From then on its
    ``last``, ``observe`` and ``step`` call the kernel (`coup.envs.kernel.agents`), which
    keeps the wrapper's checks (a step is marked as made, which ``agent_iter`` checks; a
    step with no agent left warns and does nothing), ``agent_iter()`` hands out the
    kernel's iterator, and the ``agents``, ``rewards``, ``terminations``, ``truncations``
    and ``infos`` it passes on are the environment's own list and dicts: no trip through
    the wrapper's Python and its ``__getattr__``. An environment that renders every step
    is stepped through the wrapper's own methods.
    """

    def __init__(self, env: CoupAEC) -> None:
        super().__init__(env)
        self._table = env._core

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)
        table = self._table
        if self._has_reset and table.wrapper is None and not self.env._renders:
            # from now on the kernel keeps the wrapper's checks (`NotInOrder` before)
            table.in_order(self, EnvLogger.warn_step_after_terminated_truncated)
            # the environment's own list and dicts (refilled by every reset, never
            # replaced), which the wrapper's __getattr__ would pass on
            self.agents = table.agents
            self.rewards = table.rewards
            self.terminations = table.terminations
            self.truncations = table.truncations
            self.infos = table.infos

    def last(
        self, observe: bool = True
    ) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        try:
            return self._table.last_in_order(observe)
        except NotInOrder:  # not reset yet (the wrapper refuses), or rendering every step
            return super().last(observe)  # type: ignore[no-any-return]

    def observe(self, agent: str) -> dict[str, np.ndarray] | None:
        try:
            return self._table.observe_in_order(agent)  # type: ignore[no-any-return]
        except NotInOrder:
            return super().observe(agent)  # type: ignore[no-any-return]

    def step(self, action: int | None) -> None:
        try:
            self._table.step_in_order(action)
        except NotInOrder:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if self._table.wrapper is None:  # not reset yet, or rendering every step
            return super().agent_iter(max_iter)
        return _TurnsOf(self._table, max_iter)

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's own wrapper shows itself: the environment


class _TurnsOf:
    """What ``agent_iter()`` returns: each ``iter()`` of it is a new `Turns`."""

    def __init__(self, table: Agents, max_iter: int) -> None:
        self.table, self.max_iter = table, max_iter

    def __iter__(self) -> Turns:
        return Turns(self.table, self.max_iter)


def env(players: int = 4, **options: Any) -> AECEnv:
    """The AEC environment wrapped in PettingZoo's ``OrderEnforcingWrapper`` (`InOrder`:
    its checks, at the raw environment's speed once reset).

    Options: ``characters`` (``"ambassador"`` or ``"inquisitor"``), ``history`` (moves of
    public history in the observation, default 12), ``max_moves`` (decisions before the
    game is truncated, default 2000), ``render_mode`` (``"human"``/``"ansi"``), ``first``
    (starting seat; random by default), and :func:`coup.new_game` keywords (``copies``,
    ``draft``, ``treasury``).
    """
    return InOrder(raw_env(players, **options))
