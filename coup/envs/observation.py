"""A seat's view of the game as a flat float vector (and the view dict it comes from).

Everything here is computed from ``state.view(seat)`` only, so an agent sees exactly what a
person in that seat sees: nothing hidden ever leaks into the vector.

**Seats are relative to the viewer**: seat block 0 is the viewer, block 1 the next seat
clockwise, and so on; every one-hot over seats (actor, target, blocker, ...) uses the same
order. This matches the action space (targets relative to the actor, who is the viewer when
it acts). **Character slots** are ``duke, assassin, captain, ambassador|inquisitor,
contessa`` (slot 3 is the variant's fifth character). Every value lies in ``[0, 1]``.

The vector, field by field, for ``n`` players and a history window of ``h`` moves
(``ObservationEncoder.fields`` lists the same with offsets):

=================  ============  ====================================================
field              size          meaning
=================  ============  ====================================================
hand               5             own face-down cards per slot, /2
seats              19·n          per seat (viewer first, clockwise): alive; influence
                                 /2; coins (min(c, 12)/12); coins >= 3, >= 7, >= 10;
                                 face-up cards per slot /2; is the turn's player;
                                 is waiting to move; has passed in this window;
                                 cards known to be in that hand (from an examine) /2
phase              11            one-hot: draft, action, react, block,
                                 challenge_block, prove, lose, exchange, show,
                                 examine, over
treasury           1             treasury / starting treasury
court              1             cards in the Court / all cards
pending.actor      n             seat taking the action under way
pending.action     8             income, foreign_aid, coup, tax, assassinate, steal,
                                 exchange, examine
pending.target     n             its target seat
pending.claim      5             the character the action claims
block.seat         n             the blocker
block.claim        5             the character the block claims
challenger         n             the seat challenging now
loser              n             the seat that must lose influence now
drawn              5             cards drawn in the viewer's exchange, per slot /2
shown.card         5             the card shown in an examine (examiner and examined)
shown.seat         n             the examined seat
known.court        5             cards the viewer knows are in the Court, per slot /2
history            h·(24+2n)     the last h moves, newest first; each: present;
                                 mover seat (n); verb one-hot (18: the 8 actions, pass,
                                 challenge, block, reveal, lose, keep, show, return,
                                 swap, draft); character slot (5); target seat (n)
=================  ============  ====================================================

With the default ``h = 12``: 339 + 49·n values (535 for 4 players).
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from typing import Any

import numpy as np

PHASES: tuple[str, ...] = (
    "draft",
    "action",
    "react",
    "block",
    "challenge_block",
    "prove",
    "lose",
    "exchange",
    "show",
    "examine",
    "over",
)
ACTIONS: tuple[str, ...] = (
    "income",
    "foreign_aid",
    "coup",
    "tax",
    "assassinate",
    "steal",
    "exchange",
    "examine",
)
VERBS: tuple[str, ...] = ACTIONS + (
    "pass",
    "challenge",
    "block",
    "reveal",
    "lose",
    "keep",
    "show",
    "return",
    "swap",
    "draft",
)
SLOT: dict[str, int] = {
    "duke": 0,
    "assassin": 1,
    "captain": 2,
    "ambassador": 3,
    "inquisitor": 3,
    "contessa": 4,
}
SEAT_FEATURES = 19
_PHASE = {name: i for i, name in enumerate(PHASES)}
_ACTION = {name: i for i, name in enumerate(ACTIONS)}
_VERB = {name: i for i, name in enumerate(VERBS)}
_NO_PENDING = ("action", "draft", "over")
PRIVATE_VERBS = frozenset({"keep", "show", "draft"})  # their arguments are redacted


def _seat_block(alive: bool, influence: int, coins: int, revealed: tuple[str, ...]) -> array[float]:
    """The first 11 seat features: alive, influence, coins (4), face-up cards (5)."""
    block = array("f", bytes(4 * 11))
    block[0] = 1.0 if alive else 0.0
    block[1] = influence * 0.5
    block[2] = min(coins, 12) / 12.0
    block[3] = 1.0 if coins >= 3 else 0.0
    block[4] = 1.0 if coins >= 7 else 0.0
    block[5] = 1.0 if coins >= 10 else 0.0
    for card in revealed:
        block[6 + SLOT[card]] += 0.5
    return block


class ObservationEncoder:
    """Encodes ``state.view(seat)`` dicts of an ``players``-seat game as float32 vectors."""

    def __init__(self, players: int, history: int = 12) -> None:
        if not 2 <= players <= 10:
            raise ValueError(f"players must be 2 to 10, not {players!r}")
        if history < 0:
            raise ValueError(f"history must be >= 0, not {history!r}")
        n = players
        self.players = n
        self.history = history
        self.entry = 24 + 2 * n
        sizes = [
            ("hand", 5),
            ("seats", SEAT_FEATURES * n),
            ("phase", len(PHASES)),
            ("treasury", 1),
            ("court", 1),
            ("pending.actor", n),
            ("pending.action", len(ACTIONS)),
            ("pending.target", n),
            ("pending.claim", 5),
            ("block.seat", n),
            ("block.claim", 5),
            ("challenger", n),
            ("loser", n),
            ("drawn", 5),
            ("shown.card", 5),
            ("shown.seat", n),
            ("known.court", 5),
            ("history", history * self.entry),
        ]
        #: ``(name, offset, size)`` of every field, in order.
        self.fields: list[tuple[str, int, int]] = []
        offset = 0
        for name, size in sizes:
            self.fields.append((name, offset, size))
            offset += size
        self.size = offset
        self.offset: dict[str, int] = {name: off for name, off, _ in self.fields}
        self._parsed: dict[str, tuple[int, int, int]] = {}
        self._zeros = array("f", bytes(4 * self.size))
        self._vectors: dict[tuple[Any, int, int, bool], array[float]] = {}
        self._offsets = tuple(
            self.offset[name]
            for name in (
                "seats", "phase", "treasury", "court", "pending.actor", "pending.action",
                "pending.target", "pending.claim", "block.seat", "block.claim", "challenger",
                "loser", "drawn", "shown.card", "shown.seat", "known.court", "history",
            )
        )  # fmt: skip
        self._empty_history = array("f", bytes(4 * history * self.entry))
        self._last_block: list[tuple[int, Any, array[float]] | None] = [None] * n
        self._seat_blocks: dict[tuple[Any, ...], array[float]] = {}
        self._clip = False  # card counts never exceed 2 in standard games

    def __repr__(self) -> str:
        return f"ObservationEncoder(players={self.players}, history={self.history})"

    def split(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The named fields of an encoded vector (views, not copies), for inspection."""
        return {name: vector[off : off + size] for name, off, size in self.fields}

    def _parse(self, text: str) -> tuple[int, int, int]:
        """(verb index, character slot or -1, absolute target seat or -1) of notation."""
        parsed = self._parsed.get(text)
        if parsed is None:
            words = text.split(" ")
            verb = _VERB[words[0]]
            slot = target = -1
            if len(words) == 2 and words[0] != "keep":  # kept cards are not encoded
                if words[1].isdigit():
                    target = int(words[1])
                else:
                    slot = SLOT[words[1]]
            parsed = (verb, slot, target)
            self._parsed[text] = parsed
        return parsed

    def encode(self, view: Mapping[str, Any], out: np.ndarray | None = None) -> np.ndarray:
        """The vector of `view` (a ``state.view(seat)`` dict for a seated viewer)."""
        n = self.players
        me: int = view["seat"]
        off = self.offset
        v: dict[int, float] = {}  # index -> value; halves add up for card counts
        get = v.get

        def rel(seat: int) -> int:
            return (seat - me) % n

        players = view["players"]
        hand = players[me]["cards"] or ()
        base = off["hand"]
        for card in hand:
            i = base + SLOT[card]
            v[i] = get(i, 0.0) + 0.5
        turn = view["turn"]
        waiting = view["waiting"]
        passed = view["passed"]
        known = view["known"]
        known_hands = known["hands"]
        seats = off["seats"]
        for p in players:
            seat = p["seat"]
            b = seats + SEAT_FEATURES * rel(seat)
            coins = p["coins"]
            if p["alive"]:
                v[b] = 1.0
            v[b + 1] = p["influence"] * 0.5
            v[b + 2] = min(coins, 12) / 12.0
            if coins >= 3:
                v[b + 3] = 1.0
                if coins >= 7:
                    v[b + 4] = 1.0
                    if coins >= 10:
                        v[b + 5] = 1.0
            for card in p["revealed"]:
                i = b + 6 + SLOT[card]
                v[i] = get(i, 0.0) + 0.5
            if seat == turn:
                v[b + 11] = 1.0
            if seat in waiting:
                v[b + 12] = 1.0
            if seat in passed:
                v[b + 13] = 1.0
            cards = known_hands.get(str(seat)) if seat != me else None
            if cards:
                for card in cards:
                    i = b + 14 + SLOT[card]
                    v[i] = get(i, 0.0) + 0.5
        v[off["phase"] + _PHASE[view["phase"]]] = 1.0
        settings = view["settings"]
        v[off["treasury"]] = min(view["treasury"] / max(settings["treasury"], 1), 1.0)
        v[off["court"]] = min(view["court"] / (5 * settings["copies"]), 1.0)
        pending = view["pending"]
        if pending:
            v[off["pending.actor"] + rel(pending["actor"])] = 1.0
            v[off["pending.action"] + _ACTION[pending["action"]]] = 1.0
            if pending["target"] is not None:
                v[off["pending.target"] + rel(pending["target"])] = 1.0
            if pending["claim"] is not None:
                v[off["pending.claim"] + SLOT[pending["claim"]]] = 1.0
            block = pending["block"]
            if block:
                v[off["block.seat"] + rel(block["seat"])] = 1.0
                v[off["block.claim"] + SLOT[block["claim"]]] = 1.0
            if pending["challenger"] is not None:
                v[off["challenger"] + rel(pending["challenger"])] = 1.0
            if pending["loser"] is not None:
                v[off["loser"] + rel(pending["loser"])] = 1.0
        private = view["private"]
        if private:
            for card in private.get("drawn", ()):
                i = off["drawn"] + SLOT[card]
                v[i] = get(i, 0.0) + 0.5
            shown = private.get("shown")
            if shown:
                v[off["shown.card"] + SLOT[shown["card"]]] = 1.0
                v[off["shown.seat"] + rel(shown["seat"])] = 1.0
        for card in known["court"]:
            i = off["known.court"] + SLOT[card]
            v[i] = get(i, 0.0) + 0.5
        if self.history:
            entry = self.entry
            b = off["history"]
            for entry_view in reversed(view["history"][-self.history :]):
                verb, slot, target = self._parse(entry_view["move"])
                v[b] = 1.0
                v[b + 1 + rel(entry_view["seat"])] = 1.0
                v[b + 1 + n + verb] = 1.0
                if slot >= 0:
                    v[b + 19 + n + slot] = 1.0
                if target >= 0:
                    v[b + 24 + n + rel(target)] = 1.0
                b += entry
        if out is None:
            out = np.zeros(self.size, dtype=np.float32)
        else:
            out.fill(0.0)
        out[list(v)] = list(v.values())
        np.minimum(out, 1.0, out=out)
        return out

    # -- the fast path ------------------------------------------------------------------
    def encode_state(self, state: Any, seat: int) -> np.ndarray:
        """The same vector as ``encode(state.view(seat))``, several times faster.

        It reads the engine's state directly instead of building the view dict; a test
        checks over many random games that both give identical vectors.
        """
        s = state
        n = self.players
        me = seat
        (
            o_seats, o_phase, o_treasury, o_court, o_pending_actor, o_pending_action,
            o_pending_target, o_pending_claim, o_block_seat, o_block_claim, o_challenger,
            o_loser, o_drawn, o_shown_card, o_shown_seat, o_known_court, o_history,
        ) = self._offsets  # fmt: skip
        arr = array("f", self._zeros)
        for card in s.hands[me]:
            arr[SLOT[card]] += 0.5  # "hand" comes first
        turn, waiting, passed = s.turn, s.waiting, s.passed
        known_hands = s.known_hands
        coins, hands, revealed, alive = s.coins, s.hands, s.revealed, s.alive_flags
        b = o_seats
        blocks = self._seat_blocks
        if len(blocks) > 10_000:
            blocks.clear()
        for k in range(n):
            i = (me + k) % n
            # alive, influence, coins and face-up cards change rarely: cache their block
            key = (alive[i], hands[i].__len__(), coins[i], revealed[i])
            block = blocks.get(key)
            if block is None:
                block = blocks[key] = _seat_block(*key)
            arr[b : b + 11] = block
            if i == turn:
                arr[b + 11] = 1.0
            if i in waiting:
                arr[b + 12] = 1.0
            if i in passed:
                arr[b + 13] = 1.0
            if known_hands and k:
                for card in known_hands.get((me, i), ()):
                    arr[b + 14 + SLOT[card]] += 0.5
            b += SEAT_FEATURES
        phase = s.phase
        arr[o_phase + _PHASE[phase]] = 1.0
        settings = s.settings
        arr[o_treasury] = min(s.treasury / max(settings.treasury, 1), 1.0)
        arr[o_court] = min(len(s.court) / (5 * settings.copies), 1.0)
        if phase not in _NO_PENDING:
            actor = s.actor
            arr[o_pending_actor + (actor - me) % n] = 1.0
            arr[o_pending_action + _ACTION[s.action]] = 1.0
            if s.target is not None:
                arr[o_pending_target + (s.target - me) % n] = 1.0
            if s.claim is not None:
                arr[o_pending_claim + SLOT[s.claim]] = 1.0
            if s.block_seat is not None:
                arr[o_block_seat + (s.block_seat - me) % n] = 1.0
                arr[o_block_claim + SLOT[s.block_claim]] = 1.0
            if s.challenger is not None:
                arr[o_challenger + (s.challenger - me) % n] = 1.0
            if phase == "lose" and s.loser is not None:
                arr[o_loser + (s.loser - me) % n] = 1.0
            if phase == "exchange" and me == actor:
                for card in s.drawn:
                    arr[o_drawn + SLOT[card]] += 0.5
            elif phase == "examine" and (me == actor or me == s.target):
                arr[o_shown_card + SLOT[s.shown]] = 1.0
                arr[o_shown_seat + (s.target - me) % n] = 1.0
        if s.known_court:
            for card in s.known_court.get(me, ()):
                arr[o_known_court + SLOT[card]] += 0.5
        if self.history:
            b = o_history
            arr[b : b + len(self._empty_history)] = self._history_block(s.history, me)
        out = np.frombuffer(arr, dtype=np.float32)
        if self._clip:
            np.minimum(out, 1.0, out=out)
        return out

    def _history_block(self, history: list[Any], me: int) -> array[float]:
        """The history field for `me`: the last moves' slots, newest first.

        Consecutive observations of one seat in one game share most of the window, so the
        block of the previous call is kept per seat and only the new moves are encoded.
        """
        h, entry = self.history, self.entry
        length = len(history)
        last = self._last_block[me]
        new = h
        if last is not None:
            old_length, old_entry, old_block = last
            if old_length <= length and (old_length == 0 or history[old_length - 1] is old_entry):
                new = length - old_length
                if new == 0:
                    return old_block
        block = array("f")
        vectors = self._vectors
        stop = length - 1 - min(new, h)
        for e in history[length - 1 : stop if stop >= 0 else None : -1]:
            mover, move = e[0], e[1]
            hidden = me != mover and me != e[5] and move.verb in PRIVATE_VERBS
            key = (move, mover, me, hidden)
            vector = vectors.get(key)
            if vector is None:
                vector = vectors[key] = self._entry_vector(mover, move, hidden, me)
            block.extend(vector)
        if new < h and last is not None:
            block.extend(last[2][: (h - new) * entry])
        if len(block) < h * entry:
            block.extend(self._empty_history[: h * entry - len(block)])
        self._last_block[me] = (length, history[-1] if history else None, block)
        return block

    def _entry_vector(self, mover: int, move: Any, hidden: bool, me: int) -> array[float]:
        """The history slot of `mover` playing `move` as `me` sees it."""
        n = self.players
        vector = array("f", bytes(4 * self.entry))
        vector[0] = 1.0
        vector[1 + (mover - me) % n] = 1.0
        vector[1 + n + _VERB[move.verb]] = 1.0
        arg = move.arg
        if not hidden and arg is not None and type(arg) is not tuple:
            if type(arg) is int:
                vector[24 + n + (arg - me) % n] = 1.0
            else:
                vector[19 + n + SLOT[arg]] = 1.0
        return vector
