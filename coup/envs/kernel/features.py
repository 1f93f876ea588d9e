"""A seat's observation as numbers, written by the kernel for the learning adapters.

`Features.observe(state, seat)` returns the float32 vector documented in
``coup/envs/observation.py`` (same layout, same values) as a ``bytearray``, which numpy
wraps without copying (the legal-action mask is `coup.envs.kernel.stepper.LegalMask`'s). It
reads only what ``state.view(seat)`` shows.

The vector is joined from blocks of float32 bytes, each cached by what it depends on (a
seat's coins and face-up cards, the pending action, one history entry as the viewer sees
it, ...), so a step costs a few look-ups and one join, not a loop over hundreds of
features. Blocks that did not change since the last call (a seat's, the viewer's hand, the
table) are reused without building a key, and each history entry of the game is looked up
once for all viewers. `fork` gives another game its own `Features` over the same caches
(a vector environment's games).

Where the compiled kernel runs, `write` (and `observe`) hand the state's fields to the
hand-written C writer (`coup.envs.kernel.writer`), which writes the same floats straight into
the buffer; the blocks stay the pure-Python path and the reference (`observe_blocks`; a
test compares the two over random games of every table shape). Standard library and
`coup.rules` only; compiled with the rest of the kernel.
"""

from __future__ import annotations

from array import array
from typing import Any, Final, cast

from coup.rules.board import PRIVATE_VERBS, Entry
from coup.rules.moves import Move
from coup.rules.state import State

from .layout import SLOT, layout, observation_size
from .writer import make_writer, write_state

_NO_PENDING: Final = ("action", "draft", "allegiance", "over")
#: Caches are emptied when they hold this many blocks (long runs of many table shapes).
_CACHE_LIMIT: Final = 50_000


def _floats(values: list[float]) -> bytes:
    """float32 bytes of `values`, each clipped to 1."""
    return array("f", [min(v, 1.0) for v in values]).tobytes()


def _cards(cards: tuple[str, ...] | list[str], scale: float = 0.5) -> list[float]:
    """Cards counted per slot (each card adds `scale`)."""
    counts = [0.0] * 5
    for card in cards:
        counts[SLOT[card]] += scale
    return counts


class Features:
    """Observation vectors of `players`-seat games with `history` moves of public history
    (with the Reformation fields if `reformation`)."""

    def __init__(self, players: int, history: int, reformation: bool = False) -> None:
        self.n = players
        self.history = history
        self.reformation = reformation
        phases, actions, verbs, _seat = layout(reformation)
        self.phases = {name: i for i, name in enumerate(phases)}
        self.action_index = {name: i for i, name in enumerate(actions)}
        self.verbs = {name: i for i, name in enumerate(verbs)}
        self.entry = 6 + len(verbs) + 2 * players
        self.pending_size = 6 * players + len(actions) + 25
        self.size = observation_size(players, history, reformation)
        self.hands: dict[tuple[str, ...], bytes] = {}
        self.seats: dict[tuple[bool, int, int, tuple[str, ...]], bytes] = {}
        self.flags: list[bytes] = [
            _floats([float(i >> 2 & 1), float(i >> 1 & 1), float(i & 1)]) for i in range(8)
        ]
        self.known: dict[tuple[str, ...], bytes] = {(): bytes(20)}
        self.allegiances: dict[str | None, bytes] = {
            None: bytes(8),
            "loyalist": _floats([1.0, 0.0]),
            "reformist": _floats([0.0, 1.0]),
        }
        self.tables: dict[tuple[str, int, int, int, int, int], bytes] = {}
        self.pendings: dict[tuple[object, ...], bytes] = {}
        self.no_pending = bytes(4 * self.pending_size)
        # per move, its history entry's block by (mover, viewer, hidden): `_entry_blocks`
        self.entries: dict[Move, list[bytes]] = {}
        # the history entries from `positions_start` on of the game seen last, and per
        # entry its block for every viewer, so that each entry is looked up once
        self.positions_start = 0
        self.positions: list[object] = []
        self.position_blocks: list[list[bytes]] = []
        # zeros for the window's empty places, by how many there are
        self.padding: list[bytes] = [bytes(4 * k * self.entry) for k in range(history + 1)]
        # per seat, the block written last and what it was written from: a seat whose
        # coins, cards and face-up cards (the same tuple) did not change reuses it without
        # building a key; the same for the viewer's hand and for the table block
        self.seat_codes: list[int] = [-1] * players
        self.seat_shown: list[object] = [None] * players
        self.seat_blocks: list[bytes] = [b""] * players
        self.hand_of: list[object] = [None] * players
        self.hand_blocks: list[bytes] = [b""] * players
        self.table_of: tuple[str, int, int, object, int] = ("", -1, -1, None, -1)
        self.table_block = b""
        #: the C writer's `observe`, or None (the pure core, or no writer built)
        self.writer: Any = make_writer(
            players,
            history,
            reformation,
            self.size,
            _seat,
            self.pending_size,
            self.entry,
            self.phases,
            self.action_index,
            self.verbs,
            _NO_PENDING,
        )

    def fork(self) -> Features:
        """Features for another game played at the same time (a vector environment's):
        its own place in its game, the same caches of blocks."""
        other = Features(self.n, self.history, self.reformation)
        other.hands, other.seats, other.known = self.hands, self.seats, self.known
        other.tables, other.pendings, other.entries = self.tables, self.pendings, self.entries
        return other

    def __reduce__(self) -> tuple[type[Features], tuple[int, int, bool]]:
        # a copy starts with empty caches (and a compiled class needs this to be copied)
        return (Features, (self.n, self.history, self.reformation))

    # -- the vector -----------------------------------------------------------------------
    def observe(self, s: State, me: int) -> bytearray:
        """The observation vector of seat `me` as float32 bytes."""
        if self.writer is None:
            return bytearray().join(self._parts(s, me))
        out = bytearray(4 * self.size)
        self.write(s, me, out, 0)
        return out

    def observe_blocks(self, s: State, me: int) -> bytes:
        """The same as `observe`, joined from the cached blocks whatever the core (the
        pure path, and the reference the C writer is checked against)."""
        return b"".join(self._parts(s, me))

    def write(self, s: State, me: int, target: bytearray, at: int) -> None:
        """Write seat `me`'s vector into `target` from byte `at` (the C writer's fields are
        the state's, in the order of ``coup/envs/kernel/_observe.c``)."""
        writer = self.writer
        if writer is None:
            target[at : at + 4 * self.size] = b"".join(self._parts(s, me))
            return
        write_state(writer, s, me, target, at)

    def _parts(self, s: State, me: int) -> list[bytes]:
        """The blocks of the vector, in order."""
        n = self.n
        if len(self.seats) > _CACHE_LIMIT or len(self.entries) > _CACHE_LIMIT:
            self.clear()
        hand = s.hands[me]
        if hand is self.hand_of[me]:
            parts: list[bytes] = [self.hand_blocks[me]]
        else:
            block = self._hand(hand)
            self.hand_of[me], self.hand_blocks[me] = hand, block
            parts = [block]
        turn, waiting, passed = s.turn, s.waiting, s.passed
        coins, hands, revealed, alive = s.coins, s.hands, s.revealed, s.alive_flags
        known_hands = s.known_hands
        flags, no_known = self.flags, self.known[()]
        codes, shown, blocks = self.seat_codes, self.seat_shown, self.seat_blocks
        allegiance = s.allegiance if self.reformation else ()
        i = me
        for k in range(n):
            up = revealed[i]
            code = coins[i] * 16 + len(hands[i]) * 2 + (1 if alive[i] else 0)
            if codes[i] == code and shown[i] is up:
                parts.append(blocks[i])
            else:
                block = self._seat_block(alive[i], len(hands[i]), coins[i], up)
                codes[i], shown[i], blocks[i] = code, up, block
                parts.append(block)
            parts.append(
                flags[(4 if i == turn else 0) + (2 if i in waiting else 0) + (i in passed)]
            )
            if k and known_hands:
                parts.append(self._known(known_hands.get((me, i), ())))
            else:
                parts.append(no_known)
            if allegiance:
                parts.append(self.allegiances[allegiance[i]])
            i += 1
            if i == n:
                i = 0
        parts.append(self._table(s))
        parts.append(self._pending(s, me))
        if self.history:
            self._history(s.history, me, parts)
        return parts

    def _seat_block(self, alive: bool, influence: int, coins: int, up: tuple[str, ...]) -> bytes:
        key = (alive, influence, coins, up)
        block = self.seats.get(key)
        if block is None:
            block = self.seats[key] = self._seat(key)
        return block

    def _hand(self, hand: tuple[str, ...]) -> bytes:
        block = self.hands.get(hand)
        if block is None:
            block = self.hands[hand] = _floats(_cards(hand))
        return block

    def _seat(self, key: tuple[bool, int, int, tuple[str, ...]]) -> bytes:
        alive, influence, coins, revealed = key
        values = [
            1.0 if alive else 0.0,
            influence * 0.5,
            min(coins, 12) / 12.0,
            1.0 if coins >= 3 else 0.0,
            1.0 if coins >= 7 else 0.0,
            1.0 if coins >= 10 else 0.0,
        ]
        return _floats(values + _cards(revealed))

    def _known(self, cards: tuple[str, ...]) -> bytes:
        block = self.known.get(cards)
        if block is None:
            block = self.known[cards] = _floats(_cards(cards))
        return block

    def _table(self, s: State) -> bytes:
        """phase, treasury, Court (and the Reserve)."""
        settings = s.settings
        reserve = s.reserve if self.reformation else -1
        phase, treasury, court = s.phase, s.treasury, len(s.court)
        last = self.table_of
        if (
            last[0] == phase
            and last[1] == treasury
            and last[2] == court
            and last[3] is settings
            and last[4] == reserve
        ):
            return self.table_block
        key = (phase, treasury, settings.treasury, court, settings.copies, reserve)
        block = self.tables.get(key)
        if block is None:
            values = [0.0] * len(self.phases)
            values[self.phases[s.phase]] = 1.0
            values.append(s.treasury / max(settings.treasury, 1))
            values.append(len(s.court) / (5 * settings.copies))
            if reserve >= 0:
                values.append(min(reserve, 12) / 12.0)
            block = self.tables[key] = _floats(values)
        self.table_of, self.table_block = (phase, treasury, court, settings, reserve), block
        return block

    def _pending(self, s: State, me: int) -> bytes:
        """The action under way, the block, challenger and loser, and what `me` was shown
        (exchange draw, examined card) or knows of the Court."""
        n = self.n
        phase = s.phase
        court: tuple[str, ...] = s.known_court.get(me, ()) if s.known_court else ()
        if phase in _NO_PENDING and not court:
            return self.no_pending
        actor, target = s.actor, s.target
        drawn: tuple[str, ...] = ()
        shown: str | None = None
        if phase not in _NO_PENDING:
            if phase == "exchange" and me == actor:
                drawn = s.drawn
            elif phase == "examine" and (me == actor or me == target):
                shown = s.shown
        key: tuple[object, ...] = (
            phase in _NO_PENDING,
            -1 if actor is None else (actor - me) % n,
            s.action,
            -1 if target is None else (target - me) % n,
            s.claim,
            -1 if s.block_seat is None else (s.block_seat - me) % n,
            s.block_claim,
            -1 if s.challenger is None else (s.challenger - me) % n,
            -1 if s.loser is None or phase != "lose" else (s.loser - me) % n,
            drawn,
            shown,
            court,
        )
        block = self.pendings.get(key)
        if block is None:
            block = self.pendings[key] = self._pending_block(key)
        return block

    def _pending_block(self, key: tuple[object, ...]) -> bytes:
        n = self.n
        quiet, actor, action, target, claim, blocker, block_claim, challenger, loser = key[:9]
        drawn, shown, court = key[9:]
        v = [0.0] * self.pending_size
        a = len(self.action_index)  # offsets: actor 0, action n, target n+a, claim 2n+a,
        t = n + a  # block seat 2n+a+5, block claim 3n+a+5, challenger 3n+a+10, loser
        # 4n+a+10, drawn 5n+a+10, shown card 5n+a+15, shown seat 5n+a+20, Court 6n+a+20
        if not quiet:
            assert isinstance(actor, int) and isinstance(action, str)
            v[actor] = 1.0
            v[n + self.action_index[action]] = 1.0
            if isinstance(target, int) and target >= 0:
                v[t + target] = 1.0
            if isinstance(claim, str):
                v[t + n + SLOT[claim]] = 1.0
            if isinstance(blocker, int) and blocker >= 0 and isinstance(block_claim, str):
                v[t + n + 5 + blocker] = 1.0
                v[t + 2 * n + 5 + SLOT[block_claim]] = 1.0
            if isinstance(challenger, int) and challenger >= 0:
                v[t + 2 * n + 10 + challenger] = 1.0
            if isinstance(loser, int) and loser >= 0:
                v[t + 3 * n + 10 + loser] = 1.0
            if isinstance(drawn, tuple):
                for card in drawn:
                    v[t + 4 * n + 10 + SLOT[card]] += 0.5
            if isinstance(shown, str) and isinstance(target, int):
                v[t + 4 * n + 15 + SLOT[shown]] = 1.0
                v[t + 4 * n + 20 + target] = 1.0
        if isinstance(court, tuple):
            for card in court:
                v[t + 5 * n + 20 + SLOT[card]] += 0.5
        return _floats(v)

    def _history(self, history: list[Entry], me: int, parts: list[bytes]) -> None:
        """Add the last `self.history` moves to `parts`, newest first, as `me` sees them."""
        length = len(history)
        first = max(length - self.history, 0)
        start = self._positions(history, first)
        blocks = self.position_blocks
        for k in range(length - 1, first - 1, -1):
            parts.append(blocks[k - start][me])
        if length < self.history:
            parts.append(self.padding[self.history - length])

    def _positions(self, history: list[Entry], first: int) -> int:
        """Make `position_blocks` hold the entries of `history` from `first` on; return the
        position of its first item (`positions_start`)."""
        length = len(history)
        boxed = cast("list[object]", history)
        seen = self.positions
        start = self.positions_start
        end = start + len(seen)
        if not seen or start > first or end > length or boxed[end - 1] is not seen[-1]:
            # another game, an older state or a copy: start again at `first`
            seen.clear()
            self.position_blocks.clear()
            start = self.positions_start = first
            end = first
        elif end - start > 4 * self.history + 64:  # a long game: forget the oldest entries
            drop = end - start - self.history
            del seen[:drop]
            del self.position_blocks[:drop]
            start = self.positions_start = start + drop
        for k in range(end, length):
            mover, move, _forced, _draws, _out, audience = history[k]
            seen.append(boxed[k])
            self.position_blocks.append(self._entry_blocks(move, mover, audience))
        return start

    def _entry_blocks(self, move: Move, mover: int, audience: int | None) -> list[bytes]:
        """The block of one history entry for each viewer."""
        n = self.n
        table = self.entries.get(move)
        if table is None:
            table = self.entries[move] = [b""] * (2 * n * n)
        private = move.verb in PRIVATE_VERBS
        blocks: list[bytes] = []
        for me in range(n):
            hidden = private and me != mover and me != audience
            i = (mover * n + me) * 2 + (1 if hidden else 0)
            block = table[i]
            if not block:
                block = table[i] = self._entry(move, mover, me, hidden)
            blocks.append(block)
        return blocks

    def _entry(self, move: Move, mover: int, me: int, hidden: bool) -> bytes:
        """One history entry: present, mover, verb, character slot, target (an allegiance's
        side is not encoded: the seats' allegiances show it)."""
        n = self.n
        verbs = len(self.verbs)
        v = [0.0] * self.entry
        v[0] = 1.0
        v[1 + (mover - me) % n] = 1.0
        v[1 + n + self.verbs[move.verb]] = 1.0
        arg = move.arg
        if not hidden and arg is not None and not isinstance(arg, tuple):
            if isinstance(arg, int):
                v[6 + n + verbs + (arg - me) % n] = 1.0
            elif arg in SLOT:
                v[1 + n + verbs + SLOT[arg]] = 1.0
        return _floats(v)

    def clear(self) -> None:
        """Forget the cached blocks (they are rebuilt as needed)."""
        self.seats.clear()
        self.entries.clear()
        self.pendings.clear()
        self.tables.clear()
        self.hands.clear()
        self.positions.clear()
        self.position_blocks.clear()
