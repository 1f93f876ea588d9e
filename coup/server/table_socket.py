"""A table's websocket (`/ws/{table}`, docs/protocol.md): the hello that names a seat's
member (or a spectator), then the loop of client messages (rate-limited, a flood closed)
and each message handled through the table service.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from coup.server.hub import Connection, Hub
from coup.server.protocol import (
    FLOOD_CLOSE,
    HELLO_TIMEOUT,
    Close,
    Message,
    ProtocolError,
    RateLimit,
    dumps,
    frame_id,
    now_ms,
    parse_message,
)
from coup.server.table import Table

if TYPE_CHECKING:
    from coup.server.service import TableService

log = logging.getLogger("coup.server")


def table_socket(
    service: Callable[[], TableService], hub: Hub
) -> Callable[[WebSocket], Awaitable[None]]:
    """The websocket endpoint; `service()` is the table service once the app started."""

    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        table = await service().get(ws.path_params["table"])
        if table is None:
            await ws.close(Close.NO_TABLE)
            return
        member = await _hello(ws, table)
        if member is False:
            return
        conn = Connection(ws, table.id, member if isinstance(member, str) else None)
        svc = service()
        hub.add(conn)
        if conn.member is None:
            try:
                await svc.spectators(table, joining=True)
            except ProtocolError as exc:
                hub.remove(conn)
                await ws.send_text(dumps(exc.payload()))
                await _close(ws, Close.NO_ROOM)
                return
        try:
            await svc.watch(table)  # hear of its changes, then catch up: the first view is fresh
            conn.start()
            conn.send_view(dumps(svc.view_for(table, conn.member)))
            if conn.member is not None:
                await svc.presence(table, conn.member, +1)
            await _serve(ws, table, conn)
        finally:
            hub.remove(conn)
            await svc.unwatch(table)
            await conn.stop()
            with contextlib.suppress(Exception):
                if conn.member is not None:
                    await svc.presence(table, conn.member, -1)
                if conn.member not in table.holders():  # a spectator (or a player who left)
                    await svc.spectators(table)

    async def _hello(ws: WebSocket, table: Table) -> str | None | bool:
        """The seat's member id, None for a spectator, False if the socket was closed."""
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
        if token is None:
            return None
        member = table.member_by_token(token) if len(token) < 200 else None
        if member is None:
            error = ProtocolError("bad_token", "this token holds no seat at this table")
            await ws.send_json(error.payload(msg.id))
            await _close(ws, Close.BAD_TOKEN)
            return False
        return member

    async def _serve(ws: WebSocket, table: Table, conn: Connection) -> None:
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
                await _handle(table, conn, msg)
            except ProtocolError as exc:
                conn.send(exc.payload(msg_id))
            except Exception:
                log.exception("table %s: a request failed", table.id)
                conn.send(
                    ProtocolError("internal", "the server failed; nothing changed").payload(msg_id)
                )

    async def _handle(table: Table, conn: Connection, msg: Message) -> None:
        svc = service()
        f = msg.fields
        kind = msg.type
        member = conn.member if table.seat_held(conn.member) is not None else None
        if kind == "ping":
            out: dict[str, Any] = {"type": "pong", "now": now_ms()}
            if msg.id is not None:
                out["id"] = msg.id
            conn.send(out)
        elif kind == "hello":
            raise ProtocolError("bad_message", "hello was already said on this connection")
        elif kind == "chat" and member is None:
            await svc.watcher_chat(table, f.get("name"), f["text"], conn.chat_limit)
        elif member is None:
            raise ProtocolError("not_seated", "spectators may only watch")
        elif kind == "move":
            run = table.run
            if run is None or not table.playing:
                raise ProtocolError("no_game_running", "no game is running at this table")
            seat = run.seat_of(member)
            if seat is None:
                raise ProtocolError("not_seated", "you do not play in this game")
            sitter = table.seat(member)
            if sitter is not None and sitter.standin is not None:
                raise ProtocolError("bot_playing", "a bot plays your seat; take it back first")
            await svc.dealer.play(table, seat, f["move"], f["version"])
        elif kind == "chat":
            await svc.chat(table, member, f["text"])
        elif kind == "leave" and table.playing:  # a bot plays the seat to the end
            await svc.seats_in_game(table, lambda t: t.leave(member))
        elif kind == "leave":
            await svc.lobby(table, lambda t: t.leave(member))
        elif kind == "take_back":
            await svc.seats_in_game(table, lambda t: t.take_back(member))
        elif kind in ("start", "rematch"):
            await svc.dealer.start_game(table, member, rematch=kind == "rematch")
        else:
            svc.host_only(table, member)
            if kind == "add_bot":
                await svc.lobby(
                    table, lambda t: t.add_bot(f["seat"], f.get("level"), f.get("personality"))
                )
            elif kind == "remove":
                await svc.lobby(table, lambda t: t.remove(f["seat"]))
            elif kind == "move_seat":
                await svc.lobby(table, lambda t: t.move_seat(f["from"], f["to"]))
            elif kind == "settings":
                await svc.lobby(table, lambda t: t.change_settings(f["settings"]))
            elif kind == "hand_to_bot":
                await svc.seats_in_game(table, lambda t: t.hand_to_bot(f["seat"]))

    return websocket


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
