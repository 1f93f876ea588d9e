"""The Starlette app: pages, static files, the HTTP API and the websocket.

`create_app()` builds it; its lifespan owns the store, the bus and the table service.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from coup import bus as bus_module
from coup.server import heap, invite, wire
from coup.server import settings as table_settings
from coup.server.coach import Coach
from coup.server.hub import Connection, Hub
from coup.server.protocol import (
    FLOOD_CLOSE,
    HELLO_TIMEOUT,
    MAX_HTTP_BODY,
    Close,
    Message,
    ProtocolError,
    RateLimit,
    dumps,
    frame_id,
    now_ms,
    parse_message,
)
from coup.server.review import routes as review_routes
from coup.server.service import TableService
from coup.server.spectators import CAP as SPECTATOR_CAP
from coup.server.table import Table
from coup.server.views import table_info
from coup.store import open_store

log = logging.getLogger("coup.server")
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
PLACEHOLDER = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Coup</title></head>
<body><h1>Coup</h1><p>The table's page is not installed yet. The API is described in
docs/protocol.md.</p></body></html>"""


def _error(exc: ProtocolError) -> JSONResponse:
    return JSONResponse({"error": {"code": exc.code, "message": exc.message}}, exc.status)


def _fields(data: dict[str, Any], **kinds: type | tuple[type, ...]) -> None:
    """A request body's fields: only those named, each of its JSON type (else
    `bad_message`, as on the websocket); their values are checked later."""
    if "name" in kinds and "name" not in data:
        raise ProtocolError("bad_message", "the field 'name' is missing")
    for key, value in data.items():
        if key not in kinds:
            raise ProtocolError("bad_message", f"unknown field {key[:32]!r}")
        if isinstance(value, bool) or not isinstance(value, kinds[key]):
            raise ProtocolError("bad_message", f"field {key!r} has the wrong type")


def _seat_reply(table: Table, seat: int, token: str) -> dict[str, Any]:
    url = f"/t/{table.id}"
    s = table.seats[seat]
    return {
        "table": table.id,
        "seat": seat,
        "host": bool(s is not None and s.host),
        "token": token,
        "url": url,
        "rejoin": f"{url}#token={token}",
    }


class _HttpLimits:
    """A token bucket per client address for the POST endpoints (`rate` 0 = no limit)."""

    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.buckets: dict[str, RateLimit] = {}

    def allow(self, request: Request) -> bool:
        if self.rate <= 0:
            return True
        host = request.client.host if request.client else "?"
        if len(self.buckets) > 10000:
            self.buckets.clear()
        bucket = self.buckets.setdefault(host, RateLimit(burst=60, refill=self.rate))
        return bucket.allow()


def create_app(
    db: str = "sqlite:///coup.db",
    bus: str = "memory://",
    *,
    bot_delay: tuple[float, float] = (0.6, 1.5),
    away_seconds: float = 30.0,
    http_rate: float = 2.0,
    web_dir: Path | None = None,
    short_collections: bool = False,
    spectators: int = SPECTATOR_CAP,
) -> Starlette:
    web = web_dir or WEB_DIR
    hub = Hub()
    limits = _HttpLimits(http_rate)
    holder: dict[str, TableService] = {}
    coaches: dict[str, Coach] = {}

    def service() -> TableService:
        return holder["service"]

    def coach() -> Coach:
        return coaches["coach"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await open_store(db)
        the_bus = bus_module.connect(bus)
        await the_bus.start()
        svc = TableService(
            store,
            the_bus,
            hub,
            bot_delay=bot_delay,
            away_seconds=away_seconds,
            spectator_cap=spectators,
        )
        holder["service"] = svc
        app.state.service = svc
        await svc.start()
        coaches["coach"] = Coach(store)
        svc.coach_woken = coaches["coach"].wake
        await coaches["coach"].start()
        freezer = None
        if short_collections:  # `coup serve`: one server per process (coup/server/heap.py)
            freezer = asyncio.create_task(heap.keep_collections_short())
        try:
            yield
        finally:
            if freezer is not None:
                freezer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await freezer
            await coaches["coach"].stop()
            await svc.stop()
            for conns in list(hub.tables.values()):
                for conn in list(conns):
                    with contextlib.suppress(Exception):
                        await conn.ws.close(Close.GOING_AWAY)
            await the_bus.close()
            await store.close()

    async def page(request: Request) -> Response:
        index = web / "index.html"
        text = index.read_text(encoding="utf-8") if index.is_file() else PLACEHOLDER
        # The table's link is its secret: never send it on as a referrer; no framing.
        headers = {
            "Referrer-Policy": "no-referrer",
            "X-Content-Type-Options": "nosniff",
            "X-Frame-Options": "DENY",
            "Cache-Control": "no-cache",
        }
        return HTMLResponse(text, headers=headers)

    async def service_worker(request: Request) -> Response:
        # Served from the root so that it may cover every page (docs/web.md).
        path = web / "sw.js"
        if not path.is_file():
            return Response("not found", 404)
        headers = {"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"}
        return Response(path.read_bytes(), media_type="text/javascript", headers=headers)

    async def table_qr(request: Request) -> Response:
        try:
            table = await find(request.path_params["table"])
        except ProtocolError as exc:
            return _error(exc)
        link = invite.table_link(str(request.base_url), table.id)
        headers = {"Cache-Control": "private, max-age=3600", "Referrer-Policy": "no-referrer"}
        return Response(invite.qr_svg(link), media_type="image/svg+xml", headers=headers)

    async def healthz(request: Request) -> Response:
        return JSONResponse({"ok": True})

    async def config(request: Request) -> Response:
        return JSONResponse(table_settings.config())

    async def body(request: Request, limit: int = MAX_HTTP_BODY) -> dict[str, Any]:
        if not limits.allow(request):
            raise ProtocolError("rate_limited", "too many requests; slow down", 429)
        length = request.headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > limit:
            raise ProtocolError("too_large", f"the body is over {limit} bytes", 413)
        raw = b""
        async for chunk in request.stream():  # never hold more than the limit
            raw += chunk
            if len(raw) > limit:
                raise ProtocolError("too_large", f"the body is over {limit} bytes", 413)
        try:
            data = json.loads(raw or b"{}")
        except (ValueError, RecursionError):
            raise ProtocolError("bad_json", "the body is not valid JSON") from None
        if not isinstance(data, dict):
            raise ProtocolError("bad_json", "the body must be a JSON object")
        return data

    async def find(table_id: str) -> Table:
        table = await service().get(table_id)
        if table is None:
            raise ProtocolError("no_table", "no such table", 404)
        return table

    async def create_table(request: Request) -> Response:
        try:
            data = await body(request)
            _fields(data, name=str, settings=(dict, type(None)))
            table, seat, token = await service().create(data.get("name"), data.get("settings"))
        except ProtocolError as exc:
            return _error(exc)
        return JSONResponse(_seat_reply(table, seat, token), 201)

    async def get_table(request: Request) -> Response:
        try:
            table = await find(request.path_params["table"])
        except ProtocolError as exc:
            return _error(exc)
        return JSONResponse({"table": table_info(table, service().spectators_of(table))})

    async def join_table(request: Request) -> Response:
        try:
            data = await body(request)
            _fields(data, name=str, seat=(int, type(None)))
            table = await find(request.path_params["table"])
            seat, token = await service().join(table, data.get("name"), data.get("seat"))
        except ProtocolError as exc:
            return _error(exc)
        return JSONResponse(_seat_reply(table, seat, token), 201)

    async def get_record(request: Request) -> Response:
        try:
            table = await find(request.path_params["table"])
            raw = request.path_params["game"]
            if not raw.isdigit() or not 1 <= int(raw) <= table.games:
                raise ProtocolError("no_game", "no such game at this table", 404)
            number = int(raw)
            record = await service().record(table, number)
        except ProtocolError as exc:
            return _error(exc)
        return JSONResponse(
            record,
            headers={
                "Content-Disposition": f'attachment; filename="coup-{table.id}-{number}.json"'
            },
        )

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
            await svc.play(table, seat, f["move"], f["version"])
        elif kind == "chat":
            await svc.chat(table, member, f["text"])
        elif kind == "leave" and table.playing:  # a bot plays the seat to the end
            await svc.seats_in_game(table, lambda t: t.leave(member))
        elif kind == "leave":
            await svc.lobby(table, lambda t: t.leave(member))
        elif kind == "take_back":
            await svc.seats_in_game(table, lambda t: t.take_back(member))
        elif kind in ("start", "rematch"):
            await svc.start_game(table, member, rematch=kind == "rematch")
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

    routes = [
        Route("/", page),
        Route("/t/{table}", page),
        Route("/sw.js", service_worker),
        Route("/t/{table}/games/{game}/replay", page),
        Route("/replay", page),
        Route("/healthz", healthz),
        Route("/api/config", config),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table}", get_table),
        Route("/api/tables/{table}/seats", join_table, methods=["POST"]),
        Route("/api/tables/{table}/games/{game}/record", get_record),
        Route("/api/tables/{table}/qr.svg", table_qr),
        *review_routes(service, coach, body, find),
        WebSocketRoute("/ws/{table}", websocket),
        Mount("/static", StaticFiles(directory=web, check_dir=False), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(wire.KeepSend)])


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
