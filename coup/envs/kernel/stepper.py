"""One learning-environment step in the kernel: play an integer action, say who decides
next, and write a seat's observation and action mask into buffers the adapter keeps.

`LegalMask` writes a seat's legal-action mask (int8 bytes, 1 at the integer of each legal
move). The learning adapters (``coup/envs``) call `Stepper.play` once per step and
`Stepper.fill` once per observation instead of a handful of Python calls each; the buffers
`obs` (float32 bytes, `coup.envs.kernel.features` layout) and `mask` (int8) are made once,
so numpy wraps them once too (``numpy.frombuffer`` at construction). What a step does is
what ``State.play`` does; what `fill` writes is what `Features.observe` and
`LegalMask.mask` return. Standard library and `coup.rules` only; compiled with the rest of
the kernel.
"""

from __future__ import annotations

import random
from typing import Final

from coup.rules.moves import Move
from coup.rules.state import State

from .features import Features

#: `Stepper.play` results other than the next seat to decide (all negative).
SETTLE: Final = -1  # a seat was knocked out, the game is over or `max_moves` was reached
ILLEGAL: Final = -2  # the action is not legal for that seat now; nothing changed
OUTSIDE: Final = -3  # the integer is outside the action space; nothing changed
#: Masks kept are forgotten when there are this many (long runs of many table shapes).
_CACHE_LIMIT: Final = 50_000


class LegalMask:
    """Legal-action masks: `actions[seat]` maps each Move to its integer for that seat, of
    `size` integers in all."""

    def __init__(self, actions: list[dict[Move, int]], size: int) -> None:
        self.actions = actions
        self.size = size
        # per seat and legal moves: the mask, and per integer the legal move it stands for
        self.masks: dict[tuple[int, tuple[Move, ...]], tuple[bytes, list[Move | None]]] = {}
        # the mask written last and the legal-move list and seat it was written from: the
        # engine makes a new list for every state (or hands out one it keeps, of the same
        # moves), so the same list means the same mask; `last_moves[action]` is the legal
        # move integer `action` stands for then (None if none)
        self.last_legal: object = None
        self.last_seat = -1
        self.last_mask = b""
        self.last_moves: list[Move | None] = []

    def fork(self) -> LegalMask:
        """A LegalMask for another game played at the same time (a vector environment's):
        its own mask written last, the same cache of masks."""
        other = LegalMask(self.actions, self.size)
        other.masks = self.masks
        return other

    def __reduce__(self) -> tuple[type[LegalMask], tuple[list[dict[Move, int]], int]]:
        return (LegalMask, (self.actions, self.size))

    def mask(self, s: State, seat: int) -> bytearray:
        """1 at the integer of each legal move of `seat` (int8 bytes)."""
        return bytearray(self.block(s, seat))

    def block(self, s: State, seat: int) -> bytes:
        """The same as `mask`, as the cached bytes themselves (not to be changed)."""
        legal = s._legal_for(seat) if seat in s.waiting else []
        if legal is self.last_legal and seat == self.last_seat:
            return self.last_mask
        key = (seat, tuple(legal))
        found = self.masks.get(key)
        if found is None:
            if len(self.masks) > _CACHE_LIMIT:
                self.masks.clear()
            buffer = bytearray(self.size)
            moves: list[Move | None] = [None] * self.size
            table = self.actions[seat]
            for move in legal:
                action = table[move]
                buffer[action] = 1
                moves[action] = move
            found = self.masks[key] = (bytes(buffer), moves)
        block, self.last_moves = found
        self.last_legal, self.last_seat, self.last_mask = legal, seat, block
        return block


class Stepper:
    """Steps of one table: `moves[seat][action]` is the Move an integer stands for."""

    def __init__(
        self, features: Features, legal_mask: LegalMask, moves: list[list[Move]], max_moves: int
    ) -> None:
        self.features = features
        self.legal_mask = legal_mask
        self.moves = moves
        self.size = legal_mask.size
        self.max_moves = max_moves
        #: the buffers `fill` writes the observation (float32 bytes, from byte `obs_at`)
        #: and the mask (int8) into: its own, or rows of a vector environment's (`write_into`)
        self.obs = bytearray(4 * features.size)
        self.mask = bytearray(legal_mask.size)
        self.obs_at = 0
        # written through memoryviews: a third of the time of a bytearray's slice assignment
        self.obs_view = memoryview(self.obs)
        self.mask_view = memoryview(self.mask)
        self.state: State = State()
        #: `fill` writes the observation (False: the mask only; the bench's floor)
        self.vector = True
        #: decisions played through `play` (and `play_random`) since `start`
        self.played = 0
        #: seats in the game when the adapter last settled (`SETTLE` when it changes)
        self.alive = 0

    def write_into(self, obs: bytearray, obs_at: int, mask: bytearray, mask_at: int) -> None:
        """Write observations into `obs` from byte `obs_at` and masks into `mask` from byte
        `mask_at` from now on (one row of a vector environment's buffers)."""
        size, actions = 4 * self.features.size, self.size
        if not (0 <= obs_at and obs_at % 4 == 0 and obs_at + size <= len(obs)) or not (
            0 <= mask_at and mask_at + actions <= len(mask)
        ):
            raise ValueError(
                f"no room for {size} bytes at {obs_at} of {len(obs)} and {actions} bytes "
                f"at {mask_at} of {len(mask)}"
            )
        self.obs, self.obs_at, self.mask = obs, obs_at, mask
        self.obs_view = memoryview(obs)[obs_at : obs_at + size]
        self.mask_view = memoryview(mask)[mask_at : mask_at + actions]

    def start(self, state: State) -> None:
        """Step `state` from now on (a new game)."""
        self.state = state
        self.played = 0
        self.alive = state.n_alive

    def settled(self) -> None:
        """The adapter has handed out the results: count the seats still in again."""
        self.alive = self.state.n_alive

    def move(self, seat: int, action: int) -> Move | None:
        """The legal move `action` of `seat` stands for now (None if it is not legal)."""
        s = self.state
        if seat not in s.waiting or not 0 <= action < self.size:
            return None
        legal = s._legal_for(seat)
        mask = self.legal_mask
        if legal is mask.last_legal and seat == mask.last_seat:  # `fill` wrote its mask
            return mask.last_moves[action]
        wanted = self.moves[seat][action]
        for m in legal:
            if m is wanted or m == wanted:
                return m
        return None

    def play(self, seat: int, action: int) -> int:
        """Play integer `action` for `seat`: the next seat to decide, or `SETTLE`,
        `ILLEGAL` or `OUTSIDE` (the last two change nothing)."""
        if action < 0 or action >= self.size:
            return OUTSIDE
        m = self.move(seat, action)
        if m is None:
            return ILLEGAL
        s = self.state
        s.play(seat, m)
        self.played += 1
        if s.n_alive != self.alive or s.phase == "over" or self.played >= self.max_moves:
            return SETTLE
        return s.waiting[0]

    def refusal(self, seat: int, action: int) -> tuple[Move, str]:
        """The move `action` stands for and why the engine refuses it for `seat` now (for
        an action `play` answered `ILLEGAL`; nothing changes)."""
        move = self.moves[seat][action]
        try:
            self.state.play(seat, move)
        except ValueError as error:
            return move, str(error)
        raise AssertionError(f"the engine took {move} that the stepper refused")

    def play_random(self, rng: random.Random, me: int) -> int:
        """Play uniformly random legal moves (``rng.choice(state.legal(seat))``, what
        ``coup.bots.RandomBot`` does, one generator for every seat) until seat `me` must
        decide or is out or the game is over; return how many moves were played."""
        s = self.state
        count = 0
        alive = s.alive_flags
        while s.phase != "over" and alive[me]:
            seat = s.waiting[0]
            if seat == me:
                break
            # the state's own list of legal moves (what `legal` hands out a copy of): the
            # same choice, without copying it
            s.play(seat, rng.choice(s._legal_for(seat)))
            count += 1
        return count

    def step_random(self, me: int, action: int, rng: random.Random) -> int:
        """One single-agent step against random bots: `play` integer `action` for seat
        `me`, then `play_random` until `me` must decide again, is out or the game is over,
        then `fill` `me`'s observation and mask. Returns the decisions played (the agent's
        and the bots'), or `ILLEGAL` or `OUTSIDE` (nothing changed, nothing written)."""
        after = self.play(me, action)
        if after == ILLEGAL or after == OUTSIDE:
            return after
        played = 1 + self.play_random(rng, me)
        self.fill(me)
        return played

    def fill(self, seat: int) -> None:
        """Write `seat`'s observation and action mask into `obs` and `mask`."""
        s = self.state
        features = self.features
        if not self.vector:
            pass
        elif features.writer is not None:  # the C writer, straight into the buffer
            features.write(s, seat, self.obs, self.obs_at)
        else:
            self.obs_view[:] = features.observe_blocks(s, seat)
        self.mask_view[:] = self.legal_mask.block(s, seat)


#: `step_random_all` outcomes per game: the agent still in, its win, its loss.
RUNNING: Final = 0
WON: Final = 1
LOST: Final = 2


def step_random_all(
    steppers: list[Stepper],
    seats: list[int],
    actions: list[int],
    rngs: list[random.Random],
    skip: bytes,
    played: list[int],
    outcome: bytearray,
) -> int:
    """`Stepper.step_random` for every game `i` whose `skip[i]` is 0 (a vector
    environment's step): seat `seats[i]` plays `actions[i]`, the random bots (`rngs[i]`)
    answer. `played[i]` gets what `step_random` returned, and `outcome[i]` `RUNNING`,
    `WON` or `LOST` for the agent (unchanged where skipped or refused). Returns the
    decisions played in all."""
    total = 0
    for i in range(len(steppers)):
        if skip[i]:
            continue
        stepper = steppers[i]
        me = seats[i]
        count = stepper.step_random(me, actions[i], rngs[i])
        played[i] = count
        if count > 0:
            total += count
            s = stepper.state
            if s.phase == "over":
                outcome[i] = WON if s.winner == me else LOST
            elif not s.alive_flags[me]:
                outcome[i] = LOST
            else:
                outcome[i] = RUNNING
    return total
