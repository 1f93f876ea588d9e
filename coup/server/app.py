"""The Starlette app: pages, static files, the HTTP API and the websocket (its endpoint in
`table_socket.py`).

`create_app()` builds it; its lifespan owns the store, the bus and the table service.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute

from coup import bus as bus_module
from coup import work
from coup.server import gc_tuning, invite, names, wire
from coup.server import settings as table_settings
from coup.server.address_limits import AddressLimits
from coup.server.after_game import routes as after_game_routes
from coup.server.coach import Coach
from coup.server.headers import Hardened
from coup.server.health import Readiness, StoreDown, quiet_outages
from coup.server.hub import Hub
from coup.server.loop_watch import LoopWatch
from coup.server.messages import SeatReply
from coup.server.metrics import Metrics
from coup.server.origin import SameOrigin
from coup.server.profile_routes import ProfileRoutes
from coup.server.protocol import MAX_HTTP_BODY, Close, ProtocolError, parse_object, path_number
from coup.server.rate_limits import BUDGETS, Buckets, Budget
from coup.server.replay_worker import ReplayWorker
from coup.server.service import TableService
from coup.server.shared_limits import SharedBuckets
from coup.server.spectators import CAP as SPECTATOR_CAP
from coup.server.static_files import StaticFiles
from coup.server.table import Table
from coup.server.table_socket import table_socket
from coup.server.views import table_info
from coup.store import open_store

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


def _seat_reply(table: Table, seat: int, token: str) -> SeatReply:
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


def create_app(
    db: str = "sqlite:///coup.db",
    bus: str = "memory://",
    *,
    bot_delay: tuple[float, float] = (0.6, 1.5),
    away_seconds: float = 30.0,
    grace: tuple[float, float] = (60.0, 30.0),
    http_rate: float = 2.0,
    address_limits: bool = True,
    public_url: str | None = None,
    web_dir: Path | None = None,
    short_collections: bool = False,
    spectators: int = SPECTATOR_CAP,
    workers: int | None = None,
    metrics_allow: str = "127.0.0.1,::1",
    leaderboard_games: int = 5,
) -> Starlette:
    """The app. `workers`: bot worker processes on this machine with the memory bus
    (None: one per core but one); with Redis, `coup worker` processes do the work.
    `metrics_allow`: the addresses `GET /metrics` answers (`metrics.py`).
    `leaderboard_games`: the games a profile has played before the leaderboard lists it."""
    web = web_dir or WEB_DIR
    static = StaticFiles(web)  # read and compressed once, here
    hub = Hub()
    budgets = {**BUDGETS, "post": Budget(BUDGETS["post"].burst, http_rate)}
    limiter = _limiter(bus, budgets) if address_limits else None
    metrics = Metrics(metrics_allow)
    quiet_outages()  # one line per outage in the log, not a traceback per failure
    readiness = Readiness(metrics.backend_error)
    holder: dict[str, TableService] = {}
    coaches: dict[str, Coach] = {}
    pools: dict[str, work.Workers] = {}
    replays = ReplayWorker()
    watch = LoopWatch()

    def service() -> TableService:
        return holder["service"]

    def coach() -> Coach:
        return coaches["coach"]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await open_store(db)
        the_bus = bus_module.connect(bus)
        await the_bus.start()
        pools["workers"] = the_workers = work.connect(bus, processes=workers)
        await the_workers.start()
        coaches["coach"] = Coach(store, the_workers)
        svc = TableService(
            store,
            the_bus,
            hub,
            bot_delay=bot_delay,
            away_seconds=away_seconds,
            grace=grace,
            spectator_cap=spectators,
            coach_woken=coaches["coach"].wake,
            workers=the_workers,
        )
        holder["service"] = svc
        app.state.service = svc
        _watch(metrics, readiness, store, the_bus, svc, the_workers, coaches["coach"])
        app.state.loop_watch = watch
        names.forms("")  # the look-alikes' table read now, not in the first request
        watch.start()
        await svc.start()
        await coaches["coach"].start()
        freezer = None
        if short_collections:  # `coup serve`: one server per process (coup/server/gc_tuning.py)
            freezer = asyncio.create_task(gc_tuning.keep_collections_short())
        try:
            yield
        finally:
            if freezer is not None:
                freezer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await freezer
            await coaches["coach"].stop()
            await replays.stop()
            await svc.stop()
            await the_workers.stop()
            for conns in list(hub.tables.values()):
                for conn in list(conns):
                    with contextlib.suppress(Exception):
                        await conn.ws.close(Close.GOING_AWAY)
            await the_bus.close()
            await store.close()
            await watch.stop()
            if isinstance(limiter, SharedBuckets):
                await limiter.close()

    async def page(request: Request) -> Response:
        index = static.page()
        if index is None:
            return HTMLResponse(PLACEHOLDER, headers={"Cache-Control": "no-cache"})
        return static.answer(request, index, "no-cache")  # the rest: `headers.py`

    async def service_worker(request: Request) -> Response:
        # Served from the root so that it may cover every page (docs/web.md).
        worker = static.files.get("sw.js")
        if worker is None:
            return Response("not found", 404)
        answer = static.answer(request, worker, "no-cache")
        answer.headers["Service-Worker-Allowed"] = "/"
        return answer

    async def table_qr(request: Request) -> Response:
        try:
            table = await find(request.path_params["table"])
        except ProtocolError as exc:
            return _error(exc)
        link = invite.table_link(public_url or str(request.base_url), table.id)
        headers = {"Cache-Control": "private, max-age=3600", "Referrer-Policy": "no-referrer"}
        return Response(invite.qr_svg(link), media_type="image/svg+xml", headers=headers)

    async def healthz(request: Request) -> Response:
        """Up, and the workers' counters (`coup.work.meter`) with the bots' own."""
        out: dict[str, Any] = {"ok": True}
        if "workers" in pools and "service" in holder:
            out["workers"] = {**pools["workers"].stats(), **holder["service"].bots.stats()}
            out["coach"] = coaches["coach"].depth
        return JSONResponse(out)

    async def config(request: Request) -> Response:
        return JSONResponse(table_settings.config())

    async def read(request: Request, limit: int) -> bytes:
        """A POST's body, at most `limit` bytes (docs/protocol.md: the order of refusals;
        the rate and the origin were checked at the door: `address_limits.py`,
        `origin.py`)."""
        kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if kind != "application/json":
            raise ProtocolError("bad_content_type", "the body must be application/json", 415)
        length = request.headers.get("content-length")
        if length is not None and path_number(length, limit) is None:
            raise ProtocolError("too_large", f"the body is over {limit} bytes", 413)
        raw = bytearray()  # (appended to in place: many small chunks cost their bytes)
        try:
            async for chunk in request.stream():  # never hold more than the limit
                raw += chunk
                if len(raw) > limit:
                    raise ProtocolError("too_large", f"the body is over {limit} bytes", 413)
        except ClientDisconnect:  # gone, or closed by the gate for a body too slow
            raise ProtocolError("timeout", "the body did not come in time", 408) from None
        return bytes(raw)

    async def body(request: Request) -> dict[str, Any]:
        return parse_object(await read(request, MAX_HTTP_BODY))

    async def find(table_id: str) -> Table:
        table = await service().get(table_id)
        if table is None:
            raise ProtocolError("no_table", "no such table", 404)
        return table

    async def create_table(request: Request) -> Response:
        try:
            data = await body(request)
            _fields(data, name=str, settings=(dict, type(None)), device=(str, type(None)))
            table, seat, token = await service().create(
                data.get("name"),
                data.get("settings"),
                data.get("device"),
                await profiles.seat_profile(request),
            )
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
            _fields(data, name=str, seat=(int, type(None)), device=(str, type(None)))
            table = await find(request.path_params["table"])
            seat, token = await service().join(
                table,
                data.get("name"),
                data.get("seat"),
                data.get("device"),
                await profiles.seat_profile(request),
            )
        except ProtocolError as exc:
            return _error(exc)
        return JSONResponse(_seat_reply(table, seat, token), 201)

    async def get_record(request: Request) -> Response:
        try:
            table = await find(request.path_params["table"])
            number = path_number(request.path_params["game"], table.games)
            if number is None or number < 1:
                raise ProtocolError("no_game", "no such game at this table", 404)
            record = await service().record(table, number)
        except ProtocolError as exc:
            return _error(exc)
        return JSONResponse(
            record,
            headers={
                "Content-Disposition": f'attachment; filename="coup-{table.id}-{number}.json"'
            },
        )

    profiles = ProfileRoutes(lambda: service().store, body, public_url, leaderboard_games)
    routes = [
        Route("/", page),
        Route("/p/{name}", page),
        Route("/leaderboard", page),
        Route("/link", page),
        Route("/t/{table}", page),
        Route("/sw.js", service_worker),
        Route("/t/{table}/games/{game}/replay", page),
        Route("/replay", page),
        Route("/healthz", healthz),
        Route("/readyz", readiness.answer),
        Route("/metrics", metrics.answer),
        Route("/api/config", config),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table}", get_table),
        Route("/api/tables/{table}/seats", join_table, methods=["POST"]),
        Route("/api/tables/{table}/games/{game}/record", get_record),
        Route("/api/tables/{table}/qr.svg", table_qr),
        *after_game_routes(service, coach, lambda: replays, read, find),
        *profiles.routes(),
        WebSocketRoute("/ws/{table}", table_socket(service)),
        Route("/static/v/{version}/{path:path}", static.versioned_file),
        Route("/static/{path:path}", static.plain_file),
    ]
    middleware = [
        Middleware(Hardened, styles=static.style_sources),
        Middleware(StoreDown, counted=metrics.backend_error),
        Middleware(AddressLimits, limiter=limiter, refused=metrics.rate_limited),
        Middleware(SameOrigin, public_url=public_url),
        Middleware(wire.KeepSend),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
    app.state.hub = hub  # `shutdown.py` closes its sockets first
    app.state.metrics = metrics
    return app


def _limiter(bus: str, budgets: dict[str, Budget]) -> Buckets | SharedBuckets:
    """The rate limits: shared by the site's processes through Redis with the Redis bus
    (`shared_limits.py`), else this process's own."""
    if bus.split("://", 1)[0] in ("redis", "rediss"):
        return SharedBuckets(bus, budgets)
    return Buckets(budgets)


def _watch(
    metrics: Metrics,
    readiness: Readiness,
    store: Any,
    bus: Any,
    svc: TableService,
    workers: work.Workers,
    coach: Coach,
) -> None:
    """What `/readyz` asks and `/metrics` reads, once the parts exist."""
    readiness.database = store.ping
    readiness.bus = bus.ping
    metrics.time_moves(svc.dealer)
    metrics.gauge("coup_tables", "Tables held in this process", lambda: len(svc.tables.held))
    metrics.gauge("coup_connections", "Websockets open", svc.hub.count)
    metrics.gauge(
        "coup_bot_decisions_queued",
        "Bot decisions waiting for a worker",
        lambda: workers.stats().get("queued", 0),
    )
    metrics.gauge(
        "coup_coach_queued", "Coach analyses waiting", lambda: coach.depth.get("queued", 0)
    )
    metrics.gauge(
        "coup_bot_answered_here",
        "Bot decisions answered in the server (no worker in time)",
        lambda: svc.bots.stats().get("answered_here", 0),
    )
