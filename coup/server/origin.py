"""Requests from other sites refused (an ASGI middleware): a browser says which site a
`POST` or a websocket comes from (`Origin`); it must be this site, as the public URL
names it (`coup serve --public-url`, `COUP_PUBLIC_URL`) or, without one, as the request
itself names it (its scheme and `Host`: right on a laptop or behind a proxy that passes
`Host` on). A `POST` from elsewhere is answered `403 bad_origin`; a websocket's handshake
is refused (403). A request without `Origin` is not a browser's cross-site request (a
bot, the load tools, `curl`) and passes.

The public URL is also the one the invitation (its link and QR code) names.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from coup.server.protocol import dumps


def public_origin(url: str) -> str:
    """`scheme://host[:port]` of a public URL; ValueError if it is not one."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"the public URL must be http(s)://HOST[:PORT][/], not {url!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"the public URL is the site's root, without a path: {url!r}")
    return f"{parts.scheme}://{parts.netloc}".lower()


def request_origin(scope: Scope) -> str:
    """The origin a request names itself by (its scheme and `Host`)."""
    host = Headers(scope=scope).get("host", "")
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"), scope.get("scheme"))
    return f"{scheme}://{host}".lower()


class SameOrigin:
    def __init__(self, app: ASGIApp, public_url: str | None = None) -> None:
        self.app = app
        self.origin = public_origin(public_url) if public_url else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        checked = scope["type"] == "websocket" or (
            scope["type"] == "http" and scope["method"] == "POST"
        )
        if checked:
            said = Headers(scope=scope).get("origin")
            if said is not None and said.lower() != (self.origin or request_origin(scope)):
                await _refuse(scope, send)
                return
        await self.app(scope, receive, send)


async def _refuse(scope: Scope, send: Send) -> None:
    if scope["type"] == "websocket":  # closed before it is accepted: a 403 to the handshake
        await send({"type": "websocket.close", "code": 1008})
        return
    error = {"code": "bad_origin", "message": "this request comes from another site"}
    body = dumps({"error": error}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 403, "headers": headers})
    await send({"type": "http.response.body", "body": body})
