"""A seat's observation as numbers, written by the kernel for the learning adapters.

`Features.observe(state, seat)` returns the float32 vector of `coup.envs.kernel.layout`
(``coup/envs/observation.py`` says what each field means) as a ``bytearray``, which numpy
wraps without copying (the legal-action mask is `coup.envs.kernel.stepper.LegalMask`'s). It
reads only what ``state.view(seat)`` shows.

Two writers, both placing every value at the offset the layout gives:

* the pure-Python one (`observe_blocks`) joins blocks of float32 bytes, each cached by what
  it depends on (a seat's coins and face-up cards, the pending action, one history entry
  as the viewer sees it, ...), so a step costs a few look-ups and one join, not a loop
  over hundreds of features. Blocks that did not change since the last call (a seat's,
  the viewer's hand, the table) are reused without building a key, and each history entry
  of the game is looked up once for all viewers. Its blocks are the layout's fields in
  groups (a seat's coins and cards, its flags, ...), which the layout is checked to tile;
* where the compiled kernel runs, the hand-written C writer (`coup.envs.kernel.c_writer`,
  ``_observe.c``), handed the layout's offsets when made and the state's fields at each
  call, writes the floats straight into the buffer.

A test checks both against a reference that encodes the view dict, over random games of
every table shape. `fork` gives another game its own `Features` over the same caches (a
vector environment's games). Standard library and `coup.rules` only; compiled with the
rest of the kernel.
"""

from __future__ import annotations

from array import array
from typing import Any, Final

from coup.rules.state import State

from .c_writer import make_writer, write_state
from .history import HistoryBlocks
from .layout import ALLEGIANCES, QUIET_PHASES, SLOT, Layout

#: Caches are emptied when they hold this many blocks (long runs of many table shapes).
_CACHE_LIMIT: Final = 50_000
#: A seat block's fields in the groups the pure writer caches, in the order it joins them:
#: what changes with coins and cards, the turn's flags, the cards known, the allegiance.
_SEAT_GROUPS: Final = (
    ("alive", "influence", "coins", "can_assassinate", "can_coup", "must_coup", "revealed"),
    ("turn", "waiting", "passed"),
    ("known",),
    ("allegiance",),
)


def _floats(values: list[float]) -> bytes:
    """float32 bytes of `values`, each clipped to 1."""
    return array("f", [min(v, 1.0) for v in values]).tobytes()


def _cards(cards: tuple[str, ...] | list[str], scale: float = 0.5) -> list[float]:
    """Cards counted per slot (each card adds `scale`)."""
    counts = [0.0] * 5
    for card in cards:
        counts[SLOT[card]] += scale
    return counts


def _group(fields: tuple[tuple[str, int, int], ...], names: tuple[str, ...]) -> tuple[int, int]:
    """(offset, size) of the block the fields `names` make, one after the other in some
    order; ValueError if they do not follow one another."""
    placed = sorted((offset, size) for name, offset, size in fields if name in names)
    if len(placed) != len(names):
        raise ValueError(f"the layout has no field {names}")
    end = placed[0][0]
    for offset, size in placed:
        if offset != end:
            raise ValueError(f"the layout's fields {names} do not follow one another")
        end += size
    return placed[0][0], end - placed[0][0]


def _tiled(parts: list[tuple[int, int]], size: int, what: str) -> None:
    """Check that the blocks (offset, size) follow one another and make up `size` floats."""
    end = 0
    for offset, length in parts:
        if offset != end:
            raise ValueError(f"the layout's {what} is not the blocks the pure writer joins")
        end += length
    if end != size:
        raise ValueError(f"the layout's {what} is not the blocks the pure writer joins")


class Features:
    """Observation vectors of `players`-seat games with `history` moves of public history
    (with the Reformation fields if `reformation`)."""

    def __init__(self, players: int, history: int, reformation: bool = False) -> None:
        self.n = players
        self.history = history
        self.reformation = reformation
        self.layout = lay = Layout(players, history, reformation)
        self.phases = {name: i for i, name in enumerate(lay.phases)}
        self.action_index = {name: i for i, name in enumerate(lay.actions)}
        self.verbs = {name: i for i, name in enumerate(lay.verbs)}
        self.size = lay.size
        # the blocks joined, in order: the hand, per seat its groups, the table, the
        # action under way and what the viewer was shown, the history window
        groups = [
            _group(lay.seat_fields, names)
            for names in _SEAT_GROUPS
            if names[0] in lay.seat_at  # the allegiance: with Reformation only
        ]
        _tiled(groups, lay.seat_size, "seat block")
        self.coins_at, self.coins_size = groups[0]
        self.table_at, self.table_size = lay.span("phase", "reserve" if reformation else "court")
        self.pending_at, self.pending_size = lay.span("pending.actor", "known.court")
        history_at = lay.at["history"]
        _tiled(
            [
                (lay.at["hand"], 5),
                (lay.at["seats"], lay.seat_size * players),
                (self.table_at, self.table_size),
                (self.pending_at, self.pending_size),
                (history_at, lay.entry_size * history),
            ],
            lay.size,
            "vector",
        )
        seat = lay.seat_at
        flags_at = groups[1][0]
        self.hands: dict[tuple[str, ...], bytes] = {}
        self.seats: dict[tuple[bool, int, int, tuple[str, ...]], bytes] = {}
        self.flags: list[bytes] = []
        for i in range(8):
            flags = [0.0] * 3
            flags[seat["turn"] - flags_at] = float(i >> 2 & 1)
            flags[seat["waiting"] - flags_at] = float(i >> 1 & 1)
            flags[seat["passed"] - flags_at] = float(i & 1)
            self.flags.append(_floats(flags))
        self.known: dict[tuple[str, ...], bytes] = {(): bytes(20)}
        self.allegiances: dict[str | None, bytes] = {None: bytes(4 * len(ALLEGIANCES))}
        for i, side in enumerate(ALLEGIANCES):
            sides = [0.0] * len(ALLEGIANCES)
            sides[i] = 1.0
            self.allegiances[side] = _floats(sides)
        self.tables: dict[tuple[str, int, int, int, int, int], bytes] = {}
        self.pendings: dict[tuple[object, ...], bytes] = {}
        self.no_pending = bytes(4 * self.pending_size)
        #: the history window's blocks
        self.window = HistoryBlocks(lay)
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
        #: the C writer's `observe`, or None (the pure kernel, or no writer built)
        self.writer: Any = make_writer(lay)

    def fork(self) -> Features:
        """Features for another game played at the same time (a vector environment's):
        its own place in its game, the same caches of blocks."""
        other = Features(self.n, self.history, self.reformation)
        other.hands, other.seats, other.known = self.hands, self.seats, self.known
        other.tables, other.pendings = self.tables, self.pendings
        other.window.share(self.window)
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
        if len(self.seats) > _CACHE_LIMIT or len(self.window.entries) > _CACHE_LIMIT:
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
            self.window.add(s.history, me, parts)
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
        """A seat's block of what changes with its coins and cards."""
        alive, influence, coins, revealed = key
        at, start = self.layout.seat_at, self.coins_at
        v = [0.0] * self.coins_size
        v[at["alive"] - start] = 1.0 if alive else 0.0
        v[at["influence"] - start] = influence * 0.5
        v[at["coins"] - start] = min(coins, 12) / 12.0
        v[at["can_assassinate"] - start] = 1.0 if coins >= 3 else 0.0
        v[at["can_coup"] - start] = 1.0 if coins >= 7 else 0.0
        v[at["must_coup"] - start] = 1.0 if coins >= 10 else 0.0
        cards = at["revealed"] - start
        for card in revealed:
            v[cards + SLOT[card]] += 0.5
        return _floats(v)

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
            at, start = self.layout.at, self.table_at
            v = [0.0] * self.table_size
            v[at["phase"] - start + self.phases[s.phase]] = 1.0
            v[at["treasury"] - start] = s.treasury / max(settings.treasury, 1)
            v[at["court"] - start] = len(s.court) / (5 * settings.copies)
            if reserve >= 0:
                v[at["reserve"] - start] = min(reserve, 12) / 12.0
            block = self.tables[key] = _floats(v)
        self.table_of, self.table_block = (phase, treasury, court, settings, reserve), block
        return block

    def _pending(self, s: State, me: int) -> bytes:
        """The action under way, the block, challenger and loser, and what `me` was shown
        (exchange draw, examined card) or knows of the Court."""
        n = self.n
        phase = s.phase
        court: tuple[str, ...] = s.known_court.get(me, ()) if s.known_court else ()
        if phase in QUIET_PHASES and not court:
            return self.no_pending
        actor, target = s.actor, s.target
        drawn: tuple[str, ...] = ()
        shown: str | None = None
        if phase not in QUIET_PHASES:
            if phase == "exchange" and me == actor:
                drawn = s.drawn
            elif phase == "examine" and (me == actor or me == target):
                shown = s.shown
        key: tuple[object, ...] = (
            phase in QUIET_PHASES,
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
        quiet, actor, action, target, claim, blocker, block_claim, challenger, loser = key[:9]
        drawn, shown, court = key[9:]
        v = [0.0] * self.pending_size
        start = self.pending_at
        at = {name: offset - start for name, offset in self.layout.at.items()}
        if not quiet:
            assert isinstance(action, str)
            if isinstance(actor, int) and actor >= 0:
                v[at["pending.actor"] + actor] = 1.0
            v[at["pending.action"] + self.action_index[action]] = 1.0
            if isinstance(target, int) and target >= 0:
                v[at["pending.target"] + target] = 1.0
            if isinstance(claim, str):
                v[at["pending.claim"] + SLOT[claim]] = 1.0
            if isinstance(blocker, int) and blocker >= 0 and isinstance(block_claim, str):
                v[at["block.seat"] + blocker] = 1.0
                v[at["block.claim"] + SLOT[block_claim]] = 1.0
            if isinstance(challenger, int) and challenger >= 0:
                v[at["challenger"] + challenger] = 1.0
            if isinstance(loser, int) and loser >= 0:
                v[at["loser"] + loser] = 1.0
            if isinstance(drawn, tuple):
                for card in drawn:
                    v[at["drawn"] + SLOT[card]] += 0.5
            if isinstance(shown, str) and isinstance(target, int) and target >= 0:
                v[at["shown.card"] + SLOT[shown]] = 1.0
                v[at["shown.seat"] + target] = 1.0
        if isinstance(court, tuple):
            for card in court:
                v[at["known.court"] + SLOT[card]] += 0.5
        return _floats(v)

    def clear(self) -> None:
        """Forget the cached blocks (they are rebuilt as needed)."""
        self.seats.clear()
        self.pendings.clear()
        self.tables.clear()
        self.hands.clear()
        self.window.clear()
