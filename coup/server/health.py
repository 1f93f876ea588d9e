"""Health a load balancer and an operator can act on (docs/deploy.md, *What to watch*).

- `/healthz` (in `app.py`) is liveness: the process answers; it asks nothing else.
- `/readyz` asks the database (`SELECT 1`) and the bus (a Redis `PING`), each with a
  short timeout, and says which failed: 200 when both answer, else 503.
- `StoreDown`, an ASGI middleware: a request whose database (or bus) failed gets the
  documented JSON error `503 unavailable` with `Retry-After`, not a plain-text 500 (a
  websocket: close 1013, try again later), and the log gets one line per outage rather
  than a traceback per request.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from coup.server.protocol import dumps

log = logging.getLogger("coup.server")

#: Seconds each of `/readyz`'s checks may take before it counts as failed.
CHECK_TIMEOUT = 1.0
#: What a refused request is told to wait before trying again (seconds).
RETRY_AFTER = 2
#: The websocket close code for "try again later" (RFC 6455's 1013).
TRY_AGAIN_LATER = 1013
#: One log line per outage: at most one every this many seconds.
LOG_EVERY = 10.0


def is_outage(exc: BaseException) -> bool:
    """`exc` says the database or Redis is unreachable or failing (not a bug of ours)."""
    if isinstance(exc, (OSError, ConnectionError, TimeoutError)):
        return True
    try:
        from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
    except ImportError:  # pragma: no cover - a dependency
        return False
    if isinstance(exc, (OperationalError, InterfaceError)):
        return True
    if isinstance(exc, DBAPIError) and exc.connection_invalidated:
        return True
    name = type(exc).__module__
    return name.startswith(("asyncpg", "redis")) and "Connection" in type(exc).__name__


async def _check(ask: Callable[[], Awaitable[Any]]) -> str:
    try:
        await asyncio.wait_for(ask(), CHECK_TIMEOUT)
    except TimeoutError:
        return f"no answer within {CHECK_TIMEOUT:g} s"
    except Exception as exc:  # noqa: BLE001 - any failure is the answer
        return f"{type(exc).__name__}: {str(exc)[:120]}" if str(exc) else type(exc).__name__
    return "ok"


class Readiness:
    """`/readyz`: the database and the bus, each asked with `CHECK_TIMEOUT`."""

    def __init__(self, errors: Callable[[str], None] | None = None) -> None:
        self.database: Callable[[], Awaitable[Any]] | None = None
        self.bus: Callable[[], Awaitable[Any]] | None = None
        self.errors = errors  # told "store" or "bus" on each failed check (metrics)

    async def answer(self, request: Request) -> Response:
        if self.database is None or self.bus is None:
            return JSONResponse({"ready": False, "database": "starting", "bus": "starting"}, 503)
        database, bus = await asyncio.gather(_check(self.database), _check(self.bus))
        if self.errors is not None:
            if database != "ok":
                self.errors("store")
            if bus != "ok":
                self.errors("bus")
        ready = database == "ok" and bus == "ok"
        body = {"ready": ready, "database": database, "bus": bus}
        headers = {} if ready else {"Retry-After": str(RETRY_AFTER)}
        return JSONResponse(body, 200 if ready else 503, headers=headers)


class StoreDown:
    """Turn an outage of the database or the bus, raised by a route, into `503
    unavailable` (JSON, `Retry-After: 2`); log it once per `LOG_EVERY` seconds."""

    def __init__(self, app: ASGIApp, counted: Callable[[str], None] | None = None) -> None:
        self.app = app
        self.counted = counted
        self.logged_at = -LOG_EVERY
        self.refused = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await self._socket(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking)
        except Exception as exc:
            if not is_outage(exc) or started:
                raise
            self._outage(exc)
            await unavailable(send)

    def _outage(self, exc: BaseException) -> None:
        self.refused += 1
        if self.counted is not None:
            self.counted("store")
        now = time.monotonic()
        if now - self.logged_at >= LOG_EVERY:
            self.logged_at = now
            log.warning(
                "the database or the bus is unavailable (%s: %s); answering 503 and closing "
                "new sockets with 1013 (one line per %g s)",
                type(exc).__name__,
                str(exc)[:200],
                LOG_EVERY,
            )

    async def _socket(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A websocket whose handler met an outage: closed with 1013 (try again later;
        the page reconnects with its backoff), not an error in the log per socket."""
        state = {"accepted": False, "closed": False}

        async def tracking(message: Message) -> None:
            if message["type"] == "websocket.accept":
                state["accepted"] = True
            elif message["type"] == "websocket.close":
                state["closed"] = True
            await send(message)

        try:
            await self.app(scope, receive, tracking)
        except Exception as exc:
            if not is_outage(exc) or state["closed"]:
                raise
            self._outage(exc)
            if not state["accepted"]:
                await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": TRY_AGAIN_LATER})


async def unavailable(send: Send) -> None:
    body = dumps(
        {
            "error": {
                "code": "unavailable",
                "message": "the server cannot reach its database; try again shortly",
            }
        }
    ).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(RETRY_AFTER).encode()),
        (b"cache-control", b"no-store"),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class OutageFilter(logging.Filter):
    """A log record whose exception is an outage (`is_outage`) loses its traceback and
    says the exception in its one line; the same line comes at most once per `LOG_EVERY`
    seconds. Every loop of the service (heartbeats, claims, catch-ups) logs a failure with
    its traceback, which is right for a bug and noise for a database that is down."""

    def __init__(self) -> None:
        super().__init__()
        self.last: dict[str, float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        info = record.exc_info
        if not info or info[1] is None or not is_outage(info[1]):
            return True
        now = time.monotonic()
        key = f"{record.name}:{record.msg}"
        if now - self.last.get(key, -LOG_EVERY) < LOG_EVERY:
            return False
        self.last[key] = now
        if len(self.last) > 1000:
            self.last.clear()
        exc = info[1]
        record.msg = f"{record.getMessage()} ({type(exc).__name__}: {str(exc)[:200]}; "
        record.msg += f"the database or Redis is unavailable; once per {LOG_EVERY:g} s)"
        record.args = None
        record.exc_info = None
        record.exc_text = None
        return True


def quiet_outages() -> None:
    """Put one `OutageFilter` on the loggers of the server, the store and the bus."""
    for name in ("coup.server", "coup.store", "coup.bus"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, OutageFilter) for f in logger.filters):
            logger.addFilter(OutageFilter())
