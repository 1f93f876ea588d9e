"""Limits per client address at the app's door (an ASGI middleware): the rate of every
request (`rate_limits.py`: POSTs, the API's GETs and the pages, websocket opens) and the
websockets one address holds open at once.

A refused request gets `429 rate_limited` with the usual error body; a refused websocket
is accepted and closed at once with 4429, before its hello (docs/protocol.md). Static
files and `/healthz` are not rate-limited: they are cheap, and a load balancer asks
`/healthz` often from one address. The client is who uvicorn says it is: the peer, or
what a trusted proxy wrote in `X-Forwarded-For` (`addresses.Proxies`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from starlette.types import ASGIApp, Receive, Scope, Send

from coup.server.addresses import client_key
from coup.server.protocol import Close, dumps
from coup.server.rate_limits import Limiter

#: Websockets one address may hold open at once (a household or an office behind one
#: address: one per tab); one more is closed with 4429.
SOCKETS_PER_ADDRESS = 32
#: Paths no rate limit applies to (their connections are still counted and timed).
UNLIMITED = ("/static/", "/healthz", "/readyz", "/metrics")
#: A profile's ceremonies (making one, signing in, a second device's link): the `profile`
#: door's budget too.
CEREMONIES = ("/api/profiles/options", "/api/session/options", "/api/links/options")


class AddressLimits:
    def __init__(
        self,
        app: ASGIApp,
        limiter: Limiter | None,
        sockets: int = SOCKETS_PER_ADDRESS,
        refused: Callable[[str], None] | None = None,
    ) -> None:
        self.app = app
        self.refused = refused  # told the door of each refusal (metrics)
        self.limiter = limiter  # None: no per-address limit at all (load tests on loopback)
        self.sockets = sockets
        self.open: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.limiter is None or scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        key = client_key(scope)
        if scope["type"] == "http":
            if scope["method"] == "POST":
                door: str | None = "post"
            else:
                door = None if scope["path"].startswith(UNLIMITED) else "get"
            if door is not None and not await self.limiter.allow(door, key):
                if self.refused is not None:
                    self.refused(door)
                await _too_many(send)
                return
            ceremony = door == "post" and scope["path"].startswith(CEREMONIES)
            if ceremony and not await self.limiter.allow("profile", key):
                await _too_many(send)
                return
            await self.app(scope, receive, send)
            return
        opening = await self.limiter.allow("socket", key)  # a refused open counts too
        if not opening or self.open[key] >= self.sockets:
            if self.refused is not None:
                self.refused("socket")
            await receive()  # websocket.connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": Close.FLOODING})
            return
        self.open[key] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open[key] -= 1
            if not self.open[key]:
                del self.open[key]


async def _too_many(send: Send) -> None:
    body = dumps(
        {"error": {"code": "rate_limited", "message": "too many requests; slow down"}}
    ).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 429, "headers": headers})
    await send({"type": "http.response.body", "body": body})
