"""One learning agent against bots, in the kernel: the step of Gymnasium's ``CoupEnv``
(``coup.envs.gymnasium``), whose ``step`` and ``action_masks`` call `Solo.step` and
`Solo.action_masks`.

A step plays the agent's integer action, then the other seats until the agent must decide
again (random bots in the kernel, from one generator; other bots through the environment's
`play_bots`), writes the agent's observation and mask, and hands out copies of the
environment's numpy arrays over the `Stepper`'s buffers. Standard library and `coup.rules` only; compiled with
the rest of the kernel.
"""

from __future__ import annotations

import random
from typing import Any

from coup.rules.state import State

from .stepper import ILLEGAL, OUTSIDE, Stepper

Step = tuple[Any, float, bool, bool, dict[str, Any]]


class Solo:
    """The agent at `seat` of the game `stepper` steps.

    `arrays` holds the environment's numpy arrays over the stepper's buffers:
    ``"obs"`` (float32), ``"mask"`` (int8) and ``"mask_bool"``. With `rng` set every other
    seat is a random bot played here; else `play_bots()` (the environment's) plays them and
    adds their moves to `decisions`. `refuse(seat, action)` raises the error of an illegal
    action when `raise_illegal`. A step hands out the arrays' ``copy()``."""

    def __init__(
        self,
        stepper: Stepper,
        arrays: dict[str, Any],
        max_steps: int,
        raise_illegal: bool,
        penalty: float,
        refuse: Any,
        play_bots: Any,
    ) -> None:
        self.stepper = stepper
        self.obs: Any = arrays["obs"]
        self.mask: Any = arrays["mask"]
        self.mask_bool: Any = arrays["mask_bool"]
        self.max_steps = max_steps
        self.raise_illegal = raise_illegal
        self.penalty = penalty
        self.refuse = refuse
        self.play_bots = play_bots
        self.rng: random.Random | None = None
        self.started = False
        self.seat = 0
        #: agent steps this episode, and the agent's and bots' moves since the env was made
        self.steps = 0
        self.decisions = 0
        # the state and its history's length the buffers were last written for
        self.filled: object = None
        self.filled_moves = -1

    def restart(self, state: State, seat: int, rng: random.Random | None) -> None:
        """A new episode: the agent at `seat` of `state`; the other seats are random bots
        playing from `rng`, or (None) the environment's `play_bots()`. They play until the
        agent must decide, then its observation and mask are written."""
        stepper = self.stepper
        stepper.start(state)
        self.seat = seat
        self.rng = rng
        self.started = True
        self.steps = 0
        self.filled = None
        if rng is not None:
            self.decisions += stepper.play_random(rng, seat)
        else:
            self.play_bots()
        self.write()

    def attach(self, arrays: dict[str, Any]) -> None:
        """Hand out copies of these arrays from now on (a vector environment's rows)."""
        self.obs, self.mask, self.mask_bool = arrays["obs"], arrays["mask"], arrays["mask_bool"]
        self.filled = None

    def step(self, action: Any) -> Step:
        """Gymnasium's ``step``: (observation, reward, terminated, truncated, info)."""
        if not self.started:
            raise RuntimeError("call reset() before using the environment")
        stepper = self.stepper
        state = stepper.state
        seat = self.seat
        if state.phase == "over" or not state.alive_flags[seat]:
            raise RuntimeError("the episode is over: call reset()")
        index = int(action)
        rng = self.rng
        if rng is not None:
            # the agent's move, the random bots' moves, and the buffers written
            played = stepper.step_random(seat, index, rng)
        else:
            played = stepper.play(seat, index)  # the agent's move, if it is legal
        if played == OUTSIDE:
            raise ValueError(f"action {index!r} is outside 0..{stepper.size - 1}")
        if played == ILLEGAL:
            if self.raise_illegal:
                self.refuse(seat, index)  # raises: nothing changed
                raise AssertionError("refuse() must raise")
            self.steps += 1
            self.fresh()
            truncated = self.steps >= self.max_steps
            info = {"action_mask": self.mask.copy(), "seat": seat, "illegal": True}
            return self.obs.copy(), self.penalty, False, truncated, info
        self.steps += 1
        if rng is not None:
            self.decisions += played
            self.filled, self.filled_moves = state, len(state.history)
        else:
            self.decisions += 1
            self.play_bots()
            self.write()
        reward = 0.0
        terminated = state.phase == "over" or not state.alive_flags[seat]
        if terminated:
            reward = 1.0 if state.winner == seat else -1.0
        truncated = not terminated and self.steps >= self.max_steps
        return (
            self.obs.copy(),
            reward,
            terminated,
            truncated,
            {
                "action_mask": self.mask.copy(),
                "seat": seat,
            },
        )

    def write(self) -> None:
        """The agent's observation and mask into the buffers."""
        state = self.stepper.state
        self.stepper.fill(self.seat)
        self.filled, self.filled_moves = state, len(state.history)

    def fresh(self) -> None:
        """Bring the buffers up to the agent's position now, unless a step just did."""
        if not self.started:
            raise RuntimeError("call reset() before using the environment")
        state = self.stepper.state
        if self.filled is not state or self.filled_moves != len(state.history):
            self.write()

    def action_masks(self) -> Any:
        """Boolean mask of the agent's legal actions now (all False once its game is over)."""
        self.fresh()
        return self.mask_bool.copy()
