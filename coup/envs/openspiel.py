"""Coup as an OpenSpiel game, ``python_coup`` (``pip install coup[openspiel]``).

>>> from coup.envs import openspiel
>>> openspiel.register()
>>> import pyspiel
>>> game = pyspiel.load_game("python_coup", {"players": 3})

* Sequential, imperfect information, zero-sum, terminal rewards: the winner gets ``+1``,
  every other seat ``-1/(n-1)``. A game still running after ``max_moves`` decisions
  (default 1000) ends as a draw, all returns 0 (OpenSpiel needs a bounded length; random
  play rarely gets there).
* Decisions: the player to move is ``state.waiting[0]`` of the engine, so reaction windows
  ask seats one by one clockwise from the actor. Actions are the integers of
  :mod:`coup.envs.actions` (targets relative to the mover); ``action_to_string`` gives the
  notation with absolute seats (``"steal 2"``).
* **Chance, explicitly.** The game starts with a chance node that picks the starting seat
  (each seat equally likely; parameter ``first`` fixes it instead), then chance nodes that
  deal the cards one at a time: hands seat by seat, then the Court from the top (in a two-player draft game, one
  card each and the three Court cards). Each deal node's outcomes are the character slots
  still in the deck, with probability proportional to the copies left; when only one
  character is left, the rest is dealt without asking. Then four chance nodes pick the
  bytes of a 32-bit seed (256 equally likely outcomes each). The engine uses that seed
  for every later shuffle of the Court (after a proven claim, an exchange, an examine);
  those reshuffles are therefore not separate chance nodes, but they are hidden from every
  player and drawn from a seed nobody observes. No player observes any chance outcome
  other than its own cards.
* Observation tensor: the vector of :mod:`coup.envs.observation` for the seat.
  Information-state string: the seat's full view (with the whole public history) plus a
  log of everything it was privately shown over the game (its hands, exchange draws,
  examined cards), so it has perfect recall. The information-state tensor is the same
  vector as the observation tensor (a fixed window of history: not perfect recall).
* ``resample_from_infostate(player, sampler)`` returns a state where everything ``player``
  cannot know is redrawn consistently with what it knows (``coup.State.determinize``);
  the information-state string of ``player`` is unchanged. Its ``history()`` still lists
  the original deal, which no longer matches the hidden cards: use the state, not the
  action history, after resampling.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

import coup
from coup.envs.actions import ActionSpace, action_count
from coup.envs.observation import SLOT, ObservationEncoder
from coup.envs.text import describe
from coup.rules.cards import characters_in, default_copies

__all__ = ["GAME_TYPE", "CoupGame", "CoupState", "register"]

SEED_BYTES = 4
_DEFAULTS: dict[str, Any] = {
    "players": 4,
    "characters": "ambassador",
    "max_moves": 1000,
    "draft": "auto",
    "history": 12,
    "first": -1,
    "reformation": False,
}

GAME_TYPE = pyspiel.GameType(
    short_name="python_coup",
    long_name="Python Coup",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=10,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class Rules:
    """The settings of a game, shared (not copied) by every state and clone."""

    def __init__(self, merged: dict[str, Any]) -> None:
        players = int(merged["players"])
        characters = str(merged["characters"])
        draft = {"auto": players == 2, "on": True, "off": False, True: True, False: False}.get(
            merged["draft"]
        )
        if draft is None:
            raise ValueError(f"draft must be 'auto', 'on' or 'off', not {merged['draft']!r}")
        if draft and players != 2:
            raise ValueError("the draft deal is for two players only")
        self.players = players
        self.characters = characters
        self.draft = draft
        self.max_moves = int(merged["max_moves"])
        self.reformation = bool(merged["reformation"])
        self.actions = ActionSpace(players, characters, self.reformation)
        self.history_window = int(merged["history"])
        slots = characters_in(characters)
        copies = 1 if draft else default_copies(players)
        #: the deck the chance nodes deal from, per slot
        self.deck = Counter({slot: copies for slot in range(5)})
        self.slots = slots
        self.deal_size = 5 if draft else 5 * copies
        self.first = int(merged["first"])
        if not -1 <= self.first < players:
            raise ValueError(f"first must be a seat 0..{players - 1}, or -1 (chance)")
        #: chance nodes before the deal: the starting seat, unless fixed
        self.first_nodes = 1 if self.first == -1 else 0

    def __deepcopy__(self, memo: dict[int, Any]) -> Rules:
        return self


class _Engine:
    """Holds the engine's state; deep copies (pyspiel's clone) use its cheap clone()."""

    __slots__ = ("state",)

    def __init__(self, state: coup.State | None) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(None if self.state is None else self.state.clone())


class CoupGame(pyspiel.Game):  # type: ignore[misc]
    """The rules and settings of one kind of Coup game (players, variant, draft)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_DEFAULTS, **(params or {})}
        self.rules = rules = Rules(merged)
        players = rules.players
        info = pyspiel.GameInfo(
            num_distinct_actions=action_count(players, rules.reformation),
            max_chance_outcomes=256,
            num_players=players,
            min_utility=-1.0 / (players - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=rules.max_moves + rules.first_nodes + rules.deal_size + SEED_BYTES,
        )
        super().__init__(GAME_TYPE, info, merged)

    def new_initial_state(self) -> CoupState:
        return CoupState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CoupObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        rules = self.rules
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("python_coup observes one seat: public and private information")
        return CoupObserver(rules, perfect_recall)


class CoupState(pyspiel.State):  # type: ignore[misc]
    """One playthrough: the deal's chance nodes, then the engine's decisions."""

    def __init__(self, game: CoupGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.first: int | None = None if game.rules.first == -1 else game.rules.first
        self.dealt: list[int] = []
        self.seed_bytes: list[int] = []
        self._engine = _Engine(None)
        self.moves = 0
        n = game.rules.players
        #: per seat, what it was privately shown over the game (for perfect recall)
        self.recall: list[list[str]] = [[] for _ in range(n)]
        self._private: list[Any] = [None] * n

    @property
    def engine(self) -> coup.State | None:
        """The engine's state (None while the cards are being dealt)."""
        return self._engine.state

    # -- whose move ---------------------------------------------------------------------
    def current_player(self) -> int:
        if self.engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.engine.waiting[0]

    def is_terminal(self) -> bool:
        engine = self.engine
        return engine is not None and (engine.over or self.moves >= self.rules.max_moves)

    def _legal_actions(self, player: int) -> list[int]:
        if self.engine is None or self.is_terminal():
            return []
        return sorted(self.rules.actions.actions(self.engine.legal(player), player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.first is None:
            n = self.rules.players
            return [(seat, 1.0 / n) for seat in range(n)]
        if len(self.dealt) < self.rules.deal_size:
            left = self._left()
            total = sum(left.values())
            return [(slot, count / total) for slot, count in sorted(left.items()) if count]
        return [(b, 1.0 / 256) for b in range(256)]

    def _left(self) -> Counter[int]:
        left = Counter(self.rules.deck)
        left.subtract(self.dealt)
        return left

    # -- moves ----------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        game = self.rules
        if self.engine is None:
            if self.first is None:
                self.first = int(action)
            elif len(self.dealt) < game.deal_size:
                self.dealt.append(int(action))
                left = +self._left()
                if len(left) == 1:  # one character left: deal the rest without asking
                    ((slot, count),) = left.items()
                    self.dealt += [slot] * count
            else:
                self.seed_bytes.append(int(action))
                if len(self.seed_bytes) == SEED_BYTES:
                    self._start()
            return
        player = self.engine.waiting[0]
        self.engine.play(player, game.actions.action_to_move(action, player))
        self.moves += 1
        self._remember()

    def _start(self) -> None:
        game = self.rules
        cards = [game.slots[slot] for slot in self.dealt]
        per_hand = 1 if game.draft else 2
        n = game.players
        hands = [sorted(cards[per_hand * i : per_hand * (i + 1)]) for i in range(n)]
        deal = {"hands": hands, "court": cards[per_hand * n :]}
        seed = int.from_bytes(bytes(self.seed_bytes), "big")
        self._engine.state = coup.new_game(
            players=n,
            seed=seed,
            characters=game.characters,
            draft=game.draft,
            deal=deal,
            first=self.first or 0,  # set by its chance node before the deal
            reformation=game.reformation,
        )
        self._remember()

    def _remember(self) -> None:
        """Log each seat's private information when it changes (perfect recall).

        What a seat privately knows is its hand, the cards drawn in its exchange and the
        card shown in its examine (the view's ``private``); the rest is public history.
        """
        engine = self.engine
        assert engine is not None
        phase, actor = engine.phase, engine.actor
        for seat in range(self.rules.players):
            private = ""
            if phase == "exchange" and seat == actor:
                private = "drawn " + " ".join(sorted(engine.drawn))
            elif phase == "examine" and seat in (actor, engine.target):
                private = f"shown {engine.target} {engine.shown}"
            now = (engine.hands[seat], private)
            if now != self._private[seat]:
                self._private[seat] = now
                self.recall[seat].append(f"{self.moves}:{' '.join(now[0])}:{private}")

    def _action_to_string(self, player: int, action: int) -> str:
        game = self.rules
        if player == pyspiel.PlayerId.CHANCE:
            if self.first is None:
                return f"first seat {action}"
            if len(self.dealt) < game.deal_size:
                return f"deal {game.slots[action]}"
            return f"seed byte {action}"
        return str(game.actions.action_to_move(action, player))

    # -- results ----------------------------------------------------------------------
    def returns(self) -> list[float]:
        n = self.rules.players
        engine = self.engine
        if engine is None or not engine.over:
            return [0.0] * n
        share = -1.0 / (n - 1)
        return [1.0 if seat == engine.winner else share for seat in range(n)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CoupState:
        """A state `player_id` cannot tell from this one, hidden cards redrawn at random."""
        if self.engine is None:
            raise ValueError("resample_from_infostate needs the deal to be over")
        try:
            seed = int(probability_sampler() * 2**53)
        except TypeError:
            seed = random.getrandbits(53)
        copy: CoupState = self.clone()
        copy._engine.state = self.engine.determinize(player_id, random.Random(seed))
        return copy

    def __str__(self) -> str:
        if self.engine is None:
            return (
                f"first seat {self.first}; dealing: {len(self.dealt)} cards, "
                f"{len(self.seed_bytes)} seed bytes"
            )
        return describe(self.engine)


class CoupObserver:
    """OpenSpiel's Python observer: the seat's observation vector and view string."""

    def __init__(self, game: Rules, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.encoder = ObservationEncoder(game.players, game.history_window, game.reformation)
        self.tensor = np.zeros(self.encoder.size, np.float32)
        self.dict = {
            name: self.tensor[offset : offset + size] for name, offset, size in self.encoder.fields
        }

    def set_from(self, state: CoupState, player: int) -> None:
        if state.engine is None:
            self.tensor.fill(0.0)
            for card in _own_dealt(state, player):
                self.tensor[SLOT[card]] += 0.5
            return
        self.tensor[:] = self.encoder.encode_state(state.engine, player)

    def string_from(self, state: CoupState, player: int) -> str:
        if state.engine is None:
            cards = " ".join(_own_dealt(state, player))
            return f"seat {player} first {state.first} dealt {cards}"
        view = state.engine.view(player)
        if not self.perfect_recall:
            view["history"] = view["history"][-self.game.history_window :]
            return json.dumps(view, separators=(",", ":"), sort_keys=True)
        text = json.dumps(view, separators=(",", ":"), sort_keys=True)
        return text + "\nrecall " + "|".join(state.recall[player])


def _own_dealt(state: CoupState, player: int) -> list[str]:
    game = state.rules
    per_hand = 1 if game.draft else 2
    mine = state.dealt[per_hand * player : per_hand * (player + 1)]
    return sorted(game.slots[slot] for slot in mine)


_registered = False


def register() -> None:
    """Register ``python_coup`` with pyspiel (once; later calls do nothing)."""
    global _registered
    if not _registered:
        pyspiel.register_game(GAME_TYPE, CoupGame)
        _registered = True
