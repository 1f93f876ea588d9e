"""The shapes of what leaves the core: a seat's view of the game, a spectator's, a game's
record and the `coup replay --json` object, as TypedDicts.

At run time they are plain dicts, JSON-ready; the types let mypy check the code that
builds them (views.py, records.py, replays.py, settings.py) and the code that reads them
(bots, `coup play`, the coach, the learning adapters). Each one is described key for key
in docs/engine.md (the views) or docs/records.md (the record, `coup replay --json`), and
a test holds those tables and these declarations together.
"""

# no `from __future__ import annotations`: the keys' NotRequired marks must be seen at run
# time (`__required_keys__`), which Python 3.11 does not do for annotations kept as strings
from typing import Any, Generic, NotRequired, TypedDict, TypeVar

#: The viewer: a seat (int) or a spectator (None).
Viewer = TypeVar("Viewer", bound=int | None)


# ------------------------------------------------------------ settings (records and views)
class RecordSettings(TypedDict, total=False):
    """A game's settings as records and views write them; a missing field takes its
    default when a record is read (the engine writes all but `reformation`, which it
    writes only when it is on)."""

    characters: str
    copies: int
    draft: bool
    treasury: int
    first: int
    reformation: bool


# --------------------------------------------------------------------------- the views
class PlayerView(TypedDict):
    """One player as a view shows them (`view["players"][seat]`)."""

    seat: int
    name: str
    coins: int
    influence: int
    cards: list[str] | None
    revealed: list[str]
    alive: bool
    allegiance: NotRequired[str | None]


class Block(TypedDict):
    """A block under way (`view["pending"]["block"]`)."""

    seat: int
    claim: str


class Pending(TypedDict):
    """The action under way (`view["pending"]`)."""

    actor: int
    action: str
    target: int | None
    claim: str | None
    block: Block | None
    challenger: int | None
    challenged: str | None
    loser: int | None


class Shown(TypedDict):
    """The card an examined player showed (`view["private"]["shown"]`)."""

    seat: int
    card: str


class Private(TypedDict, total=False):
    """What only this seat was shown now (`view["private"]`)."""

    drawn: list[str]
    shown: Shown


class Known(TypedDict):
    """Hard facts a seat still knows about hidden cards (`view["known"]`)."""

    court: list[str]
    hands: dict[str, list[str]]


class HistoryEntry(TypedDict):
    """One move of the history as the viewer may see it (`view["history"][i]`)."""

    seat: int
    move: str
    forced: NotRequired[bool]
    out: NotRequired[bool]


class View(TypedDict, Generic[Viewer]):
    """All a viewer may know of the game (`State.view`); `seat` is the viewer's seat, None
    for a spectator: `SeatView` and `SpectatorView`."""

    seat: Viewer
    players: list[PlayerView]
    settings: RecordSettings
    treasury: int
    court: int
    turn: int
    phase: str
    pending: Pending | None
    waiting: list[int]
    passed: list[int]
    legal: list[str]
    private: Private
    known: Known
    history: list[HistoryEntry]
    over: bool
    winner: int | None
    reserve: NotRequired[int]


#: A seat's view, `State.view(seat)`.
SeatView = View[int]
#: A spectator's view, `State.view(None)`: no cards but at the end, no legal moves.
SpectatorView = View[None]


# --------------------------------------------------------------------------- the record
class RecordDeal(TypedDict):
    """The deal: each seat's face-down cards and the Court, top card first."""

    hands: list[list[str]]
    court: list[str]


class RecordMove(TypedDict):
    """One recorded move: its seat, its notation, and the cards it drew (pinned)."""

    seat: int
    move: str
    draw: NotRequired[list[str]]


class Record(TypedDict):
    """A game record, `coup-record/1` (readers ignore keys they do not know)."""

    format: str
    players: list[str]
    settings: NotRequired[RecordSettings]
    deal: NotRequired[RecordDeal]
    seed: NotRequired[int | str]
    commitment: NotRequired[str]
    moves: NotRequired[list[RecordMove]]


# --------------------------------------------------------------- `coup replay --json`
class FinalPlayer(TypedDict):
    """One player in the `coup replay --json` object: every card shown."""

    seat: int
    name: str
    coins: int
    influence: list[str]
    revealed: list[str]
    alive: bool
    allegiance: NotRequired[str | None]


class WaitingSeat(TypedDict):
    """A seat that may move now, with its legal moves in notation."""

    seat: int
    legal: list[str]


class FinalState(TypedDict):
    """The state after a record's last move, as `coup replay --json` prints it."""

    over: bool
    winner: int | None
    turn: int
    treasury: int
    court: int
    players: list[FinalPlayer]
    waiting: list[WaitingSeat]
    reserve: NotRequired[int]


#: Either view, for code that handles both (`State.view` of an `int | None`).
AnyView = View[Any]

__all__ = [
    "AnyView",
    "Block",
    "FinalPlayer",
    "FinalState",
    "HistoryEntry",
    "Known",
    "Pending",
    "PlayerView",
    "Private",
    "Record",
    "RecordDeal",
    "RecordMove",
    "RecordSettings",
    "SeatView",
    "Shown",
    "SpectatorView",
    "View",
    "WaitingSeat",
]  # fmt: skip
