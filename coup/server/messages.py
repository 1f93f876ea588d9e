"""The protocol's messages as types (docs/protocol.md), field for field: what a client
sends on the websocket, what the server sends back, and the HTTP answer that seats a
person. They are plain dicts at run time; a test holds them against the doc's tables and
examples (tests/server/test_server_messages.py).

A client message is `{"type": ..., "id": ..., <fields>}`: the classes named `...Message`
below `CLIENT` hold the fields of each type (`id`, optional on every message, is checked
by `protocol.parse_message`, which reads what each field may hold from these classes).

Annotations are evaluated here (no `from __future__ import annotations`): Python 3.11 reads
`NotRequired` only from evaluated annotations.
"""

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict

# ---- client -> server (the fields beside `type` and `id`) ---------------------------


class HelloMessage(TypedDict):
    token: NotRequired[str | None]  # a seat's token; absent or null: a spectator
    name: NotRequired[str | None]  # a spectator's name, shown to the table as watching


class MoveMessage(TypedDict):
    move: str  # notation
    version: int  # of the view the player acted on


class ChatMessage(TypedDict):
    text: str
    name: NotRequired[str | None]  # a spectator's name


class PingMessage(TypedDict):
    pass


class LeaveMessage(TypedDict):
    pass


class TakeBackMessage(TypedDict):
    pass


class AddBotMessage(TypedDict):
    seat: int
    level: NotRequired[str | None]
    personality: NotRequired[str | None]


class RemoveMessage(TypedDict):
    seat: int
    block: NotRequired[bool]  # and block them from sitting again


class BlockMessage(TypedDict):
    index: int  # in `table.former`
    blocked: bool


class FillBotsMessage(TypedDict):
    level: NotRequired[str | None]
    personality: NotRequired[str | None]


MoveSeatMessage = TypedDict("MoveSeatMessage", {"from": int, "to": int})


class SettingsMessage(TypedDict):
    settings: dict[str, Any]


class StartMessage(TypedDict):
    pass


class RematchMessage(TypedDict):
    pass


class HandToBotMessage(TypedDict):
    seat: int


CLIENT: dict[str, type] = {
    "hello": HelloMessage,
    "move": MoveMessage,
    "chat": ChatMessage,
    "ping": PingMessage,
    "leave": LeaveMessage,
    "take_back": TakeBackMessage,
    "add_bot": AddBotMessage,
    "remove": RemoveMessage,
    "move_seat": MoveSeatMessage,
    "settings": SettingsMessage,
    "start": StartMessage,
    "rematch": RematchMessage,
    "hand_to_bot": HandToBotMessage,
    "fill_bots": FillBotsMessage,
    "block": BlockMessage,
}

# ---- server -> client ---------------------------------------------------------------


class You(TypedDict):
    seat: int | None
    host: bool
    name: str | None
    gone: str | None  # a former player: "removed" | "left"
    blocked: bool  # a former player the host blocked from sitting again


class SeatInfo(TypedDict):
    seat: int
    name: str
    kind: str  # "human" | "bot"
    level: str | None
    personality: str | None
    host: bool
    connected: bool
    idle: bool
    standin: str | None  # None | "host" | "left"
    stalled: bool  # here, but let the grace and its clock pass (the host may hand it over)


class DeadlineInfo(TypedDict):
    at: int
    seconds: int
    kind: str  # "turn" | "reaction" | "away" | "stall"
    seats: list[int]


class TimeoutEntry(TypedDict):
    index: int
    seat: int


class HandoffEntry(TypedDict):
    index: int
    seat: int
    reason: str  # "host" | "left" | "back"


class FormerInfo(TypedDict):
    name: str
    gone: str  # "removed" | "left"
    blocked: bool


class TableInfo(TypedDict):
    id: str
    status: str  # "lobby" | "playing" | "over"
    settings: dict[str, Any]
    seats: list[SeatInfo | None]
    spectators: int
    watching: list[str]  # names of spectators who gave one (this server process's)
    former: list[FormerInfo]
    game: int
    first: int | None
    commitment: str | None
    seed: str | None
    winner: int | None
    deadline: DeadlineInfo | None
    timeouts: list[TimeoutEntry]
    handoffs: list[HandoffEntry]


class ChatLine(TypedDict):
    id: int
    seat: int | None
    name: str
    text: str
    at: int
    watching: NotRequired[bool]  # a spectator's line


class ViewMessage(TypedDict):
    type: Literal["view"]
    version: int
    now: int
    you: You
    table: TableInfo
    # The engine's `state.view(seat)` (docs/engine.md), typed where the rules type it.
    game: Mapping[str, Any] | None
    chat: list[ChatLine]


class ErrorMessage(TypedDict):
    type: Literal["error"]
    code: str
    message: str
    id: NotRequired[int | str]


class PongMessage(TypedDict):
    type: Literal["pong"]
    now: int
    id: NotRequired[int | str]


# ---- HTTP -------------------------------------------------------------------------------


class SeatReply(TypedDict):
    """`POST /api/tables` and `POST /api/tables/{table}/seats`: the seat taken."""

    table: str
    seat: int
    host: bool
    token: str
    url: str
    rejoin: str
