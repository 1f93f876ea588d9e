"""A seat's view of the game as a flat float vector (and the view dict it comes from).

Everything here is computed from what ``state.view(seat)`` shows, so an agent sees exactly
what a person in that seat sees: nothing hidden ever leaks into the vector. The kernel
writes the vector (`coup.envs.kernel.features`: on the compiled core a C writer,
``coup/envs/kernel/_observe.c``; on the pure core cached blocks of float32 bytes, joined), numpy
wraps it without a copy; ``encode(view)`` builds the same vector from a view dict, and
tests check all of them agree over many random games.

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

**Reformation** (``reformation=True``) adds, each at the end of its list so that every
other index keeps its meaning: the phase ``allegiance`` (phase: 12); the actions
``convert`` and ``embezzle`` (pending.action: 10); the verbs ``allegiance``, ``convert``,
``embezzle`` in history entries (21 verbs, entries of 27 + 2n; an allegiance's side is not
encoded, the seats show it; ``convert S`` sets the target); per seat two more features,
loyalist and reformist (21 per seat, both 0 before the first player chooses); and after
``court`` the field ``reserve``: min(Reserve, 12)/12. With ``h = 12``: 379 + 51·n values
(583 for 4 players).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from coup.envs.kernel.features import Features
from coup.envs.kernel.layout import SLOT, layout

#: The base game's lists (with Reformation, `coup.envs.kernel.layout.layout` appends to them).
PHASES, ACTIONS, VERBS, SEAT_FEATURES = layout(False)
_NO_PENDING = ("action", "draft", "allegiance", "over")
# numpy's frombuffer with a dtype object, positional: a third of the call's cost with
# ``dtype=np.float32`` (the type is converted to a dtype at every call)
_FLOAT32 = np.dtype(np.float32)
_frombuffer = np.frombuffer


class ObservationEncoder:
    """Encodes the view of a seat of a ``players``-seat game as a float32 vector
    (``reformation``: with the Reformation fields)."""

    def __init__(self, players: int, history: int = 12, reformation: bool = False) -> None:
        if not 2 <= players <= 10:
            raise ValueError(f"players must be 2 to 10, not {players!r}")
        if history < 0:
            raise ValueError(f"history must be >= 0, not {history!r}")
        n = players
        self.players = n
        self.history = history
        self.reformation = reformation
        #: the kernel's writer of the vector; its indices serve `encode` too
        self.features = features = Features(players, history, reformation)
        self.phases, self.actions, self.verbs = (
            features.phases,
            features.action_index,
            features.verbs,
        )
        self.seat_features = layout(reformation)[3]
        self.entry = features.entry
        sizes = [
            ("hand", 5),
            ("seats", self.seat_features * n),
            ("phase", len(self.phases)),
            ("treasury", 1),
            ("court", 1),
            *([("reserve", 1)] if reformation else []),
            ("pending.actor", n),
            ("pending.action", len(self.actions)),
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
        assert features.size == self.size
        self._parsed: dict[str, tuple[int, int, int]] = {}

    def __repr__(self) -> str:
        extra = ", reformation=True" if self.reformation else ""
        return f"ObservationEncoder(players={self.players}, history={self.history}{extra})"

    def split(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The named fields of an encoded vector (views, not copies), for inspection."""
        return {name: vector[off : off + size] for name, off, size in self.fields}

    def encode_state(self, state: Any, seat: int) -> np.ndarray:
        """The vector of `seat`'s view of `state`, written by the kernel (fast)."""
        return _frombuffer(self.features.observe(state, seat), _FLOAT32)

    # -- the same from a view dict (the reference the fast path is tested against) --------
    def _parse(self, text: str) -> tuple[int, int, int]:
        """(verb index, character slot or -1, absolute target seat or -1) of notation."""
        parsed = self._parsed.get(text)
        if parsed is None:
            words = text.split(" ")
            verb = self.verbs[words[0]]
            slot = target = -1
            if len(words) == 2 and words[0] != "keep":  # kept cards are not encoded
                if words[1].isdigit():
                    target = int(words[1])
                elif words[1] in SLOT:  # an allegiance's side is not encoded
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

        def count(base: int, cards: Any) -> None:
            for card in cards:
                i = base + SLOT[card]
                v[i] = get(i, 0.0) + 0.5

        players = view["players"]
        count(off["hand"], players[me]["cards"] or ())
        turn, waiting, passed = view["turn"], view["waiting"], view["passed"]
        known = view["known"]
        for p in players:
            seat = p["seat"]
            b = off["seats"] + self.seat_features * rel(seat)
            coins = p["coins"]
            v[b] = 1.0 if p["alive"] else 0.0
            v[b + 1] = p["influence"] * 0.5
            v[b + 2] = min(coins, 12) / 12.0
            v[b + 3] = 1.0 if coins >= 3 else 0.0
            v[b + 4] = 1.0 if coins >= 7 else 0.0
            v[b + 5] = 1.0 if coins >= 10 else 0.0
            count(b + 6, p["revealed"])
            v[b + 11] = 1.0 if seat == turn else 0.0
            v[b + 12] = 1.0 if seat in waiting else 0.0
            v[b + 13] = 1.0 if seat in passed else 0.0
            if seat != me:
                count(b + 14, known["hands"].get(str(seat), ()))
            if self.reformation and p.get("allegiance") is not None:
                v[b + 19 + (0 if p["allegiance"] == "loyalist" else 1)] = 1.0
        v[off["phase"] + self.phases[view["phase"]]] = 1.0
        settings = view["settings"]
        v[off["treasury"]] = view["treasury"] / max(settings["treasury"], 1)
        v[off["court"]] = view["court"] / (5 * settings["copies"])
        if self.reformation:
            v[off["reserve"]] = min(view.get("reserve", 0), 12) / 12.0
        pending = view["pending"]
        if pending:
            v[off["pending.actor"] + rel(pending["actor"])] = 1.0
            v[off["pending.action"] + self.actions[pending["action"]]] = 1.0
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
        count(off["drawn"], private.get("drawn", ()))
        shown = private.get("shown")
        if shown:
            v[off["shown.card"] + SLOT[shown["card"]]] = 1.0
            v[off["shown.seat"] + rel(shown["seat"])] = 1.0
        count(off["known.court"], known["court"])
        b = off["history"]
        verbs = len(self.verbs)
        for entry_view in reversed(view["history"][-self.history :] if self.history else []):
            verb, slot, target = self._parse(entry_view["move"])
            v[b] = 1.0
            v[b + 1 + rel(entry_view["seat"])] = 1.0
            v[b + 1 + n + verb] = 1.0
            if slot >= 0:
                v[b + 1 + n + verbs + slot] = 1.0
            if target >= 0:
                v[b + 6 + n + verbs + rel(target)] = 1.0
            b += self.entry
        if out is None:
            out = np.zeros(self.size, dtype=np.float32)
        else:
            out.fill(0.0)
        out[list(v)] = list(v.values())
        np.minimum(out, 1.0, out=out)
        return out


__all__ = ["ACTIONS", "PHASES", "SEAT_FEATURES", "SLOT", "VERBS", "ObservationEncoder"]
