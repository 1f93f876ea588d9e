"""A table's seats as learning agents, in the kernel: the bookkeeping of PettingZoo's AEC
API (who is selected, rewards, terminations, truncations, knocked-out agents stepped out)
for ``coup.envs.pettingzoo``, whose ``last``, ``step`` and ``observe`` call `Agents.last`,
`Agents.step` and `Agents.observe`.

What it does is what ``pettingzoo.AECEnv``'s own helpers do (``_was_dead_step``,
``_deads_step_first``, ``_accumulate_rewards``, ``_clear_rewards``); it runs here so that
a decision costs one compiled call for ``last()`` and one for ``step()``. `agents` and the dicts are made once and refilled by `start`, so the
environment's attributes of those names are these very objects. The observation arrays are
the environment's (numpy, over the `Stepper`'s buffers): this module only hands them out,
or their ``copy()``. Standard library and `coup.rules` only; compiled with the rest of the
kernel.
"""

from __future__ import annotations

from typing import Any

from coup.rules.state import State

from .stepper import SETTLE, Stepper

Last = tuple[Any, float, bool, bool, dict[str, Any]]


class NotInOrder(Exception):
    """The order-enforcing wrapper's calls before `Agents.in_order` was given it: the
    wrapper answers them itself."""


class Agents:
    """The agents ``player_0 .. player_{n-1}`` of one table, stepped through `stepper`.

    `shared` is the observation dict of the two arrays over the stepper's buffers (handed
    out as it is when not `copy`, else as their ``copy()``); `refuse(agent, seat, action,
    why)` raises the error of an action the stepper refused (the environment words it)."""

    def __init__(
        self,
        stepper: Stepper,
        players: int,
        shared: dict[str, Any],
        copy: bool,
        refuse: Any,
    ) -> None:
        self.stepper = stepper
        self.players = players
        self.names: list[str] = [f"player_{seat}" for seat in range(players)]
        self.seat_of: dict[str, int] = {name: seat for seat, name in enumerate(self.names)}
        self.shared = shared
        self.obs: Any = shared["observation"]
        self.mask: Any = shared["action_mask"]
        self.copy = copy
        self.refuse = refuse
        self.share = 1.0 / (players - 1)
        self.started = False
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self.cumulative: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        #: the agent selected (PettingZoo's ``agent_selection``) and the one a knocked-out
        #: agent's last step goes back to (``_skip_agent_selection``)
        self.selected = ""
        self.skip: str | None = None
        # seats not yet handed their result, and how many
        self.alive: list[bool] = []
        self.in_game = 0
        self.rewarded = False  # some reward is not 0 (cleared at the next step)
        #: every agent in the game has cumulative reward 0.0 and none is terminated or
        #: truncated (most of a game): `last` and `step` then skip the dicts' lookups
        self.calm = False
        #: PettingZoo's order-enforcing wrapper of the environment, once `in_order` has
        #: been given it (`step_in_order` and `Turns` keep its ``_has_updated``), and what
        #: it says when stepped with no agent left
        self.wrapper: Any = None
        self.after_end: Any = None

    def start(self, state: State) -> None:
        """A new game: every agent in, nothing rewarded, the first decider selected."""
        self.stepper.start(state)
        # the same list and dicts, refilled: the environment's attributes are these objects
        names = self.names
        self.agents[:] = names
        rewards, cumulative, infos = self.rewards, self.cumulative, self.infos
        terminations, truncations = self.terminations, self.truncations
        for table in (rewards, cumulative, terminations, truncations, infos):
            table.clear()
        for name in names:
            rewards[name] = 0.0
            cumulative[name] = 0.0
            terminations[name] = False
            truncations[name] = False
            infos[name] = {}
        self.alive = [True] * self.players
        self.in_game = self.players
        self.rewarded = False
        self.skip = None
        self.started = True
        self.calm = True
        self.settle()

    # -- what the selected agent sees ------------------------------------------------------
    def last(self, observe: bool = True) -> Last:
        """PettingZoo's ``last()``: the selected agent's observation (None unless
        `observe`), cumulative reward, termination, truncation and info."""
        if not self.started:
            raise RuntimeError("call reset() before using the environment")
        agent = self.selected
        observation: Any = None
        if observe:
            observation = self.observe(agent)
        if self.calm:
            return (observation, 0.0, False, False, self.infos[agent])
        return (
            observation,
            self.cumulative[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def observe(self, agent: str) -> Any:
        """`agent`'s observation dict: the shared arrays, or copies of them."""
        if not self.started:
            raise RuntimeError("call reset() before using the environment")
        self.stepper.fill(self.seat_of[agent])
        if self.copy:
            return {"observation": self.obs.copy(), "action_mask": self.mask.copy()}
        return self.shared

    # -- a step ----------------------------------------------------------------------------
    def step(self, action: Any) -> None:
        """PettingZoo's ``step()``: the selected agent plays integer `action` (None for a
        knocked-out or truncated agent, which then leaves)."""
        agent = self.selected
        if not self.started:
            raise RuntimeError("call reset() before using the environment")
        calm = self.calm
        if not calm and (self.terminations[agent] or self.truncations[agent]):
            self.dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is still in the game: step() needs an action, not None")
        seat = self.seat_of[agent]
        index = int(action)
        after = self.stepper.play(seat, index)  # the move, and who decides next
        if after < 0 and after != SETTLE:
            self.refuse(agent, seat, index, after)  # raises; nothing changed
            raise AssertionError("refuse() must raise")
        if not calm:
            self.cumulative[agent] = 0.0
            if self.rewarded:  # most moves reward nobody: skip the bookkeeping then
                self.clear_rewards()
        if after >= 0:  # nothing to settle
            self.selected = self.names[after]
        else:
            self.settle()
            if self.rewarded:
                cumulative = self.cumulative
                for other, reward in self.rewards.items():
                    cumulative[other] += reward

    # -- PettingZoo's order checks, once reset -----------------------------------------------
    def in_order(self, wrapper: Any, after_end: Any) -> None:
        """Keep the order checks of `wrapper` (PettingZoo's ``OrderEnforcingWrapper`` of
        this table's environment, reset) in `step_in_order` and `Turns`; `after_end()`
        warns of a step with no agent left."""
        self.wrapper = wrapper
        self.after_end = after_end

    def last_in_order(self, observe: bool = True) -> Last:
        """``OrderEnforcingWrapper.last`` once reset: `last` (`NotInOrder` before)."""
        if self.wrapper is None:
            raise NotInOrder
        return self.last(observe)

    def observe_in_order(self, agent: str) -> Any:
        """``OrderEnforcingWrapper.observe`` once reset: `observe` (`NotInOrder` before)."""
        if self.wrapper is None:
            raise NotInOrder
        return self.observe(agent)

    def step_in_order(self, action: Any) -> None:
        """``OrderEnforcingWrapper.step`` once reset: the step is marked as made (which
        ``agent_iter`` checks), and the selected agent plays, or with no agent left the
        wrapper's warning is given and nothing happens (`NotInOrder` before)."""
        if self.wrapper is None:
            raise NotInOrder
        self.wrapper._has_updated = True
        if not self.agents:
            self.after_end()
            return
        self.step(action)

    def settle(self) -> None:
        """Hand out the results of the last move and select who decides next."""
        stepper = self.stepper
        state = stepper.state
        stepper.settled()
        over = state.phase == "over"
        if state.n_alive == self.in_game and not over and stepper.played < stepper.max_moves:
            self.selected = self.names[state.waiting[0]]  # nothing to settle
            return
        share = self.share
        alive = self.alive
        if state.n_alive != self.in_game:
            flags = state.alive_flags
            for seat in range(self.players):
                if alive[seat] and not flags[seat]:
                    self.rewarded = True
                    alive[seat] = False
                    self.in_game -= 1
                    agent = self.names[seat]
                    self.rewards[agent] = -share
                    self.terminations[agent] = True
        if over:
            self.rewarded = True
            winner = state.winner
            for seat in range(self.players):
                if alive[seat]:
                    agent = self.names[seat]
                    self.rewards[agent] = 1.0 if seat == winner else -share
                    self.terminations[agent] = True
                    alive[seat] = False
            self.in_game = 0
        elif stepper.played >= stepper.max_moves:
            for seat in range(self.players):
                if alive[seat]:
                    self.truncations[self.names[seat]] = True
                    alive[seat] = False
            self.in_game = 0
        if self.in_game:
            self.selected = self.names[state.waiting[0]]
        if self.rewarded or not self.in_game:
            self.calm = False
            self.dead_first()

    def dead_first(self) -> None:
        """Select the first agent that is out (``AECEnv._deads_step_first``)."""
        for agent in self.agents:
            if self.terminations[agent] or self.truncations[agent]:
                self.skip = self.selected
                self.selected = agent
                return

    def dead_step(self, action: Any) -> None:
        """The step of an agent that is out: it leaves, and the next one out or the agent
        whose turn it is is selected (``AECEnv._was_dead_step``)."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.selected
        del self.terminations[agent]
        del self.truncations[agent]
        del self.rewards[agent]
        del self.cumulative[agent]
        del self.infos[agent]
        self.agents.remove(agent)
        for other in self.agents:
            if self.terminations[other] or self.truncations[other]:
                if self.skip is None:
                    self.skip = self.selected
                self.selected = other
                break
        else:
            if self.skip is not None:
                self.selected = self.skip
            self.skip = None
            # nobody else is out: calm again once every cumulative reward is 0 (it is once
            # the knocked-out agents are stepped out of a game that goes on)
            cumulative = self.cumulative
            self.calm = bool(self.agents) and all(cumulative[a] == 0.0 for a in self.agents)
        self.clear_rewards()

    def clear_rewards(self) -> None:
        """Every agent's last reward back to 0 (``AECEnv._clear_rewards``)."""
        rewards = self.rewards
        for other in rewards:
            rewards[other] = 0.0
        self.rewarded = False


class Turns:
    """The iterator of ``agent_iter()`` of the order-enforcing wrapper (PettingZoo's
    ``AECOrderEnforcingIterator``): the selected agent, at most `left` times, while some
    agent is in; each time the step before must have been made."""

    def __init__(self, agents: Agents, left: int) -> None:
        self.table = agents
        self.left = left

    def __iter__(self) -> Turns:
        return self

    def __next__(self) -> str:
        table = self.table
        if not table.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        wrapper = table.wrapper
        if not wrapper._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        wrapper._has_updated = False
        return table.selected
