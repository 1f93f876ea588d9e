"""The observation vector's layout, declared once: its fields, their sizes and offsets.

A seat's observation is a float32 vector of named fields (`Layout.fields`): the viewer's
hand, one block per seat (`Layout.seat_fields`, the viewer's first, then clockwise), the
table, the action under way and what the viewer was shown, and the last moves
(`Layout.entry_fields` each, newest first). Everything that writes or reads the vector
takes its offsets from here: the pure writer (`coup.envs.kernel.features`), the C writer
(``_observe.c``, handed `Layout.offsets` when made), ``coup.envs.observation`` (its
``fields`` and ``split``) and the tests' reference encoder of a view dict.
``coup/envs/observation.py`` says what each field means.

Character slots (`SLOT`): slot 3 is the variant's fifth character. Reformation appends to
each list (phases, actions, verbs) and adds fields (a seat's allegiance, the Reserve), so
every other field keeps its meaning. Standard library only; compiled with the rest of the
kernel.
"""

from __future__ import annotations

from typing import Final

#: Character slots: slot 3 is the variant's fifth character.
SLOT: Final[dict[str, int]] = {
    "duke": 0,
    "assassin": 1,
    "captain": 2,
    "ambassador": 3,
    "inquisitor": 3,
    "contessa": 4,
}
PHASES: Final[tuple[str, ...]] = (
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
#: Phases with no action under way (its fields stay 0).
QUIET_PHASES: Final[tuple[str, ...]] = ("action", "draft", "allegiance", "over")
#: What Reformation adds (at the end of each list, so that the others keep their places).
REFORMATION_PHASES: Final[tuple[str, ...]] = ("allegiance",)
REFORMATION_ACTIONS: Final[tuple[str, ...]] = ("convert", "embezzle")
REFORMATION_VERBS: Final[tuple[str, ...]] = ("allegiance", "convert", "embezzle")
ALLEGIANCES: Final[tuple[str, ...]] = ("loyalist", "reformist")
ACTIONS: Final[tuple[str, ...]] = (
    "income",
    "foreign_aid",
    "coup",
    "tax",
    "assassinate",
    "steal",
    "exchange",
    "examine",
)
VERBS: Final[tuple[str, ...]] = ACTIONS + (
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

#: A field: (name, offset, size), the offset from the start of what holds it.
Field = tuple[str, int, int]


def seat_sizes(reformation: bool) -> tuple[tuple[str, int], ...]:
    """A seat's block: (name, size) of its fields in order."""
    fields = (
        ("alive", 1),
        ("influence", 1),  # cards face down, /2
        ("coins", 1),  # min(coins, 12) / 12
        ("can_assassinate", 1),  # coins >= 3
        ("can_coup", 1),  # coins >= 7
        ("must_coup", 1),  # coins >= 10
        ("revealed", 5),  # face-up cards per slot, /2
        ("turn", 1),  # the turn's player
        ("waiting", 1),  # may move now
        ("passed", 1),  # has passed in this reaction window
        ("known", 5),  # cards the viewer knows are in that hand, /2
    )
    return (fields + (("allegiance", len(ALLEGIANCES)),)) if reformation else fields


def entry_sizes(players: int, verbs: int) -> tuple[tuple[str, int], ...]:
    """One move of the history window: (name, size) of its fields in order."""
    return (
        ("present", 1),
        ("mover", players),
        ("verb", verbs),
        ("character", 5),  # the slot its argument names, if shown to the viewer
        ("target", players),  # the seat it targets
    )


def vector_sizes(
    players: int, history: int, reformation: bool, seat: int, entry: int, phases: int, actions: int
) -> tuple[tuple[str, int], ...]:
    """The vector: (name, size) of its fields in order, for blocks of `seat` floats per
    seat and `entry` per history entry."""
    n = players
    return (
        ("hand", 5),
        ("seats", seat * n),
        ("phase", phases),
        ("treasury", 1),
        ("court", 1),
        *((("reserve", 1),) if reformation else ()),
        ("pending.actor", n),
        ("pending.action", actions),
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
        ("history", history * entry),
    )


def _placed(sizes: tuple[tuple[str, int], ...]) -> tuple[tuple[Field, ...], int]:
    """The fields with their offsets, one after the other, and their total size."""
    fields: list[Field] = []
    offset = 0
    for name, size in sizes:
        fields.append((name, offset, size))
        offset += size
    return tuple(fields), offset


class Layout:
    """The vector of `players`-seat games with `history` moves of public history (with the
    Reformation fields if `reformation`): 51 + 25n + h·(24 + 2n) floats for n players and
    h moves, 55 + 27n + h·(27 + 2n) with Reformation."""

    def __init__(self, players: int, history: int, reformation: bool = False) -> None:
        self.players = players
        self.history = history
        self.reformation = reformation
        self.phases: tuple[str, ...] = PHASES + (REFORMATION_PHASES if reformation else ())
        self.actions: tuple[str, ...] = ACTIONS + (REFORMATION_ACTIONS if reformation else ())
        self.verbs: tuple[str, ...] = VERBS + (REFORMATION_VERBS if reformation else ())
        #: a seat's block: its fields (offsets from the block's start) and size
        self.seat_fields, self.seat_size = _placed(seat_sizes(reformation))
        #: a history entry: its fields (offsets from the entry's start) and size
        self.entry_fields, self.entry_size = _placed(entry_sizes(players, len(self.verbs)))
        #: the vector's fields and size
        self.fields, self.size = _placed(
            vector_sizes(
                players,
                history,
                reformation,
                self.seat_size,
                self.entry_size,
                len(self.phases),
                len(self.actions),
            )
        )
        #: offsets by name: of the vector's fields, a seat block's, a history entry's
        self.at: dict[str, int] = {name: offset for name, offset, _size in self.fields}
        self.seat_at: dict[str, int] = {name: offset for name, offset, _ in self.seat_fields}
        self.entry_at: dict[str, int] = {name: offset for name, offset, _ in self.entry_fields}

    def offsets(self) -> dict[str, tuple[int, int]]:
        """Every field's (offset, size) by name, as the C writer takes them: the vector's,
        then a seat block's as ``seat.<name>`` and a history entry's as ``entry.<name>``
        (from the start of their block), and the blocks' sizes as ``seat`` and ``entry``."""
        found = {name: (offset, size) for name, offset, size in self.fields}
        found.update({f"seat.{n}": (offset, size) for n, offset, size in self.seat_fields})
        found.update({f"entry.{n}": (offset, size) for n, offset, size in self.entry_fields})
        found["seat"] = (0, self.seat_size)
        found["entry"] = (0, self.entry_size)
        return found

    def span(self, first: str, last: str) -> tuple[int, int]:
        """(offset, size) of the vector's fields from `first` to `last`, which must follow
        one another in this order (a block a writer writes in one piece)."""
        names = [name for name, _offset, _size in self.fields]
        start, end = names.index(first), names.index(last)
        if end < start:
            raise ValueError(f"{first} does not come before {last} in the layout")
        _name, offset, _size = self.fields[start]
        _name, last_offset, last_size = self.fields[end]
        return offset, last_offset + last_size - offset
