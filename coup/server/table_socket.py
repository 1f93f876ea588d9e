"""A table's websocket (`/ws/{table}`, docs/protocol.md): the hello that names a seat's
member (or a spectator), then the loop of client messages (rate-limited, a flood closed),
each handled through the table service (`handlers.py`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Literal

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from coup.server.addresses import client_key
from coup.server.handlers import Door, handle
from coup.server.hub import Connection
from coup.server.protocol import (
    FLOOD_CLOSE,
    HELLO_TIMEOUT,
    Close,
    ProtocolError,
    RateLimit,
    clean_name,
    dumps,
    frame_id,
    parse_message,
)
from coup.server.table import Table

log = logging.getLogger("coup.server")


def table_socket(service: Callable[[], Door]) -> Callable[[WebSocket], Awaitable[None]]:
    """The websocket endpoint; `service()` is the table service once the app started."""

    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        door = service()
        table = await door.get(ws.path_params["table"])
        if table is None:
            await ws.close(Close.NO_TABLE)
            return
        hello = await _hello(ws, table)
        if hello is False:
            return
        member, name = hello
        conn = Connection(ws, table.id, member, client_key(ws.scope))
        conn.name = name
        try:
            await door.admit(table, conn)
        except ProtocolError as exc:  # spectators_full
            await ws.send_text(dumps(exc.payload()))
            await _close(ws, Close.NO_ROOM)
            return
        try:
            await door.connect(table, conn)  # the first view, fresh
            await _serve(ws, door, table, conn)
        finally:
            await door.disconnect(table, conn)

    return websocket


async def _hello(ws: WebSocket, table: Table) -> tuple[str | None, str | None] | Literal[False]:
    """The seat's member id (a former player's: they watch), None for a spectator, and
    the spectator's name if it gave a good one; False if the socket was closed."""
    try:
        frame = await asyncio.wait_for(_receive(ws), HELLO_TIMEOUT)
    except TimeoutError:
        await _close(ws, Close.HELLO_TIMEOUT)
        return False
    if frame is None:
        return False
    try:
        msg = parse_message(frame)
        if msg.type != "hello":
            raise ProtocolError("bad_message", "the first message must be a hello")
    except ProtocolError as exc:
        await ws.send_json(exc.payload())
        await _close(ws, Close.PROTOCOL)
        return False
    token = msg.fields.get("token")
    name = None
    with contextlib.suppress(ProtocolError):  # a bad name: watching unnamed
        name = clean_name(msg.fields["name"]) if msg.fields.get("name") else None
    if token is None:
        return None, name
    member = table.member_by_token(token) if len(token) < 200 else None
    if member is None:
        error = ProtocolError("bad_token", "this token holds no seat at this table")
        await ws.send_json(error.payload(msg.id))
        await _close(ws, Close.BAD_TOKEN)
        return False
    return member, name


async def _serve(ws: WebSocket, door: Door, table: Table, conn: Connection) -> None:
    """Each client message in turn: rate-limited (a flood closes), parsed, handled."""
    limit = RateLimit()
    while True:
        frame = await _receive(ws)
        if frame is None:
            return
        if not limit.allow():
            refused = frame_id(frame)
            if limit.refused_in_row >= FLOOD_CLOSE:
                error = ProtocolError("rate_limited", "flooding: closing the connection")
                await conn.finish(error.payload(refused))  # the replies queued go first
                await _close(ws, Close.FLOODING)
                return
            error = ProtocolError("rate_limited", "too many messages; slow down")
            conn.send(error.payload(refused))
            continue
        msg_id = None
        try:
            msg = parse_message(frame)
            msg_id = msg.id
            await handle(door, table, conn, msg)
        except ProtocolError as exc:
            conn.send(exc.payload(msg_id))
        except Exception:
            log.exception("table %s: a request failed", table.id)
            conn.send(
                ProtocolError("internal", "the server failed; nothing changed").payload(msg_id)
            )


async def _receive(ws: WebSocket) -> str | bytes | None:
    """The next text/bytes frame, or None when the client went away."""
    try:
        message = await ws.receive()
    except (WebSocketDisconnect, RuntimeError):
        return None
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is not None:
        return str(text)
    data = message.get("bytes")
    return bytes(data) if data is not None else b""


async def _close(ws: WebSocket, code: int) -> None:
    if ws.application_state != WebSocketState.DISCONNECTED:
        with contextlib.suppress(Exception):
            await ws.close(code)
