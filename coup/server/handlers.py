"""What each client message does (docs/protocol.md, *Client → server messages*): one table
of message type -> who may send it and what the table service is asked to do.

Who may send it is checked here, once, before anything else: `anyone`, a `seated` player
(else `not_seated`), or the `host` (else `not_seated` for a spectator, `not_host`). The
rest (is a game running, is the seat free, is the move legal...) is the service's to
check. `tests/server/test_server_messages.py` holds the table against the doc's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from coup.server.hub import Connection
from coup.server.messages import (
    AddBotMessage,
    BlockMessage,
    ChatMessage,
    FillBotsMessage,
    HandToBotMessage,
    MoveMessage,
    MoveSeatMessage,
    PongMessage,
    RemoveMessage,
    SettingsMessage,
)
from coup.server.protocol import Message, ProtocolError, now_ms
from coup.server.table import Table

Who = Literal["anyone", "seated", "host"]


class Door(Protocol):
    """The table service, as the websocket sees it (`service.TableService`)."""

    async def get(self, table_id: str) -> Table | None: ...
    async def admit(self, table: Table, conn: Connection) -> None: ...
    async def connect(self, table: Table, conn: Connection) -> None: ...
    async def disconnect(self, table: Table, conn: Connection) -> None: ...
    async def play(self, table: Table, member: str, move: str, version: int) -> None: ...
    async def chat(self, table: Table, member: str, text: str) -> None: ...
    async def watcher_chat(self, table: Table, name: Any, text: str, address: str) -> None: ...
    async def leave(self, table: Table, member: str) -> None: ...
    async def take_back(self, table: Table, member: str) -> None: ...
    async def start_game(self, table: Table, *, rematch: bool = False) -> None: ...
    async def add_bot(
        self, table: Table, seat: int, level: str | None, personality: str | None
    ) -> None: ...
    async def remove(self, table: Table, seat: int, block: bool = False) -> None: ...
    async def fill_bots(self, table: Table, level: str | None, personality: str | None) -> None: ...
    async def block(self, table: Table, index: int, blocked: bool) -> None: ...
    async def move_seat(self, table: Table, source: int, target: int) -> None: ...
    async def change_settings(self, table: Table, patch: Any) -> None: ...
    async def hand_to_bot(self, table: Table, seat: int) -> None: ...


@dataclass(frozen=True)
class Sender:
    """Who sent a message: the connection, its table and the seat's member (None for a
    spectator, also one whose seat was taken away or given up)."""

    door: Door
    table: Table
    conn: Connection
    member: str | None
    msg_id: Any


# Each handler gets the sender and the message's fields (`messages.py`: the type of each).
Handler = Callable[[Sender, Any], Awaitable[None]]


async def _hello(s: Sender, f: Any) -> None:
    raise ProtocolError("bad_message", "hello was already said on this connection")


async def _ping(s: Sender, f: Any) -> None:
    out: PongMessage = {"type": "pong", "now": now_ms()}
    if s.msg_id is not None:
        out["id"] = s.msg_id
    s.conn.send(out)


async def _chat(s: Sender, f: ChatMessage) -> None:
    if s.member is None:
        await s.door.watcher_chat(s.table, f.get("name"), f["text"], s.conn.address)
    else:
        await s.door.chat(s.table, s.member, f["text"])


async def _move(s: Sender, f: MoveMessage) -> None:
    await s.door.play(s.table, _seated(s), f["move"], f["version"])


async def _leave(s: Sender, f: Any) -> None:
    await s.door.leave(s.table, _seated(s))


async def _take_back(s: Sender, f: Any) -> None:
    await s.door.take_back(s.table, _seated(s))


async def _start(s: Sender, f: Any) -> None:
    await s.door.start_game(s.table)


async def _rematch(s: Sender, f: Any) -> None:
    await s.door.start_game(s.table, rematch=True)


async def _add_bot(s: Sender, f: AddBotMessage) -> None:
    await s.door.add_bot(s.table, f["seat"], f.get("level"), f.get("personality"))


async def _remove(s: Sender, f: RemoveMessage) -> None:
    await s.door.remove(s.table, f["seat"], f.get("block", False))


async def _fill_bots(s: Sender, f: FillBotsMessage) -> None:
    await s.door.fill_bots(s.table, f.get("level"), f.get("personality"))


async def _block(s: Sender, f: BlockMessage) -> None:
    await s.door.block(s.table, f["index"], f["blocked"])


async def _move_seat(s: Sender, f: MoveSeatMessage) -> None:
    await s.door.move_seat(s.table, f["from"], f["to"])


async def _settings(s: Sender, f: SettingsMessage) -> None:
    await s.door.change_settings(s.table, f["settings"])


async def _hand_to_bot(s: Sender, f: HandToBotMessage) -> None:
    await s.door.hand_to_bot(s.table, f["seat"])


def _seated(s: Sender) -> str:
    if s.member is None:  # (`handle` lets only seated players through to here)
        raise ProtocolError("not_seated", "spectators may only watch")
    return s.member


HANDLERS: dict[str, tuple[Who, Handler]] = {
    "hello": ("anyone", _hello),
    "ping": ("anyone", _ping),
    "chat": ("anyone", _chat),
    "move": ("seated", _move),
    "leave": ("seated", _leave),
    "take_back": ("seated", _take_back),
    "add_bot": ("host", _add_bot),
    "remove": ("host", _remove),
    "move_seat": ("host", _move_seat),
    "settings": ("host", _settings),
    "start": ("host", _start),
    "rematch": ("host", _rematch),
    "hand_to_bot": ("host", _hand_to_bot),
    "fill_bots": ("host", _fill_bots),
    "block": ("host", _block),
}


async def handle(door: Door, table: Table, conn: Connection, msg: Message) -> None:
    """Check who sent `msg`, then ask the table service to do it."""
    who, handler = HANDLERS[msg.type]
    member = conn.member if table.seat_held(conn.member) is not None else None
    if who != "anyone":
        if member is None:
            raise ProtocolError("not_seated", "spectators may only watch")
        if who == "host" and not table.is_host(member):
            raise ProtocolError("not_host", "only the host may do that")
    await handler(Sender(door, table, conn, member, msg.id), msg.fields)
