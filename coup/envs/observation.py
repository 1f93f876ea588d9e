"""A seat's view of the game as a flat float vector.

Everything here is computed from what ``state.view(seat)`` shows, so an agent sees exactly
what a person in that seat sees: nothing hidden ever leaks into the vector. The layout is
declared once, in `coup.envs.kernel.layout` (``ObservationEncoder.layout``); the kernel
writes the vector from it (`coup.envs.kernel.features`: on the compiled kernel a C writer,
``coup/envs/kernel/_observe.c``; on the pure one cached blocks of float32 bytes, joined),
and numpy wraps it without a copy. Tests check both writers against a reference that
builds the vector from the view dict, over many random games.

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
                                 /2; coins (min(c, 12)/12); can_assassinate,
                                 can_coup, must_coup (coins >= 3, >= 7, >= 10);
                                 revealed: face-up cards per slot /2; turn: is the
                                 turn's player; waiting: may move now; passed: has
                                 passed in this window; known: cards known to be in
                                 that hand (from an examine) /2
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
                                 swap, draft); character: its slot (5); target: its
                                 seat (n)
=================  ============  ====================================================

With the default ``h = 12``: 339 + 49·n values (535 for 4 players).

**Reformation** (``reformation=True``) adds, each at the end of its list so that every
other index keeps its meaning: the phase ``allegiance`` (phase: 12); the actions
``convert`` and ``embezzle`` (pending.action: 10); the verbs ``allegiance``, ``convert``,
``embezzle`` in history entries (21 verbs, entries of 27 + 2n; an allegiance's side is not
encoded, the seats show it; ``convert S`` sets the target); per seat two more features,
``allegiance``: loyalist and reformist (21 per seat, both 0 before the first player chooses); and after
``court`` the field ``reserve``: min(Reserve, 12)/12. With ``h = 12``: 379 + 51·n values
(583 for 4 players).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from coup.envs.kernel.features import Features
from coup.envs.kernel.layout import SLOT, Layout

#: The base game's lists (with Reformation, `coup.envs.kernel.layout.Layout` appends to them).
_BASE = Layout(2, 0)
PHASES, ACTIONS, VERBS = _BASE.phases, _BASE.actions, _BASE.verbs
SEAT_FEATURES = _BASE.seat_size
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
        self.players = players
        self.history = history
        self.reformation = reformation
        #: the kernel's writer of the vector
        self.features = features = Features(players, history, reformation)
        #: the vector's layout: its fields, a seat block's and a history entry's
        self.layout: Layout = features.layout
        self.size = self.layout.size
        #: ``(name, offset, size)`` of every field, in order.
        self.fields: list[tuple[str, int, int]] = list(self.layout.fields)
        self.offset: dict[str, int] = dict(self.layout.at)
        self.seat_features = self.layout.seat_size
        self.entry = self.layout.entry_size

    def __repr__(self) -> str:
        extra = ", reformation=True" if self.reformation else ""
        return f"ObservationEncoder(players={self.players}, history={self.history}{extra})"

    def split(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """The named fields of an encoded vector (views, not copies), for inspection."""
        return {name: vector[off : off + size] for name, off, size in self.fields}

    def encode_state(self, state: Any, seat: int) -> np.ndarray:
        """The vector of `seat`'s view of `state`, written by the kernel."""
        return _frombuffer(self.features.observe(state, seat), _FLOAT32)


__all__ = ["ACTIONS", "PHASES", "SEAT_FEATURES", "SLOT", "VERBS", "ObservationEncoder"]
