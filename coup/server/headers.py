"""The headers every HTTP answer carries (an ASGI middleware), by what it is:

- every answer: `nosniff`, no referrer (a table's link is its secret), same-origin
  resources only;
- a page (any `text/html`, `/static/index.html` too): a strict Content-Security-Policy
  (scripts, styles, images, connections from this site only; no inline script, no inline
  style but the page's own stylesheets, named by their hashes; no plugins; never
  framed), `Permissions-Policy` (no camera, microphone, location, payment, USB),
  `Cross-Origin-Opener-Policy: same-origin`, `X-Frame-Options: DENY`;
- JSON (seat tokens among it): `Cache-Control: no-store`.

An answer that set one of these itself keeps its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from starlette.types import ASGIApp, Message, Receive, Scope, Send


def csp(styles: Sequence[str] = ()) -> str:
    """The pages' policy; `styles`: the hashes (`'sha256-…'`) of the styles a page carries."""
    style = " ".join(("'self'", *styles))
    return (
        f"default-src 'self'; script-src 'self'; style-src {style}; "
        "img-src 'self' data:; connect-src 'self'; font-src 'self'; manifest-src 'self'; "
        "worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    )


PERMISSIONS = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"

EVERY: list[tuple[bytes, bytes]] = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-resource-policy", b"same-origin"),
]
PAGE: list[tuple[bytes, bytes]] = [
    (b"permissions-policy", PERMISSIONS.encode()),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]
JSON: list[tuple[bytes, bytes]] = [(b"cache-control", b"no-store")]


class Hardened:
    def __init__(self, app: ASGIApp, styles: Sequence[str] = ()) -> None:
        self.app = app
        self.page = [(b"content-security-policy", csp(styles).encode()), *PAGE]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_hardened(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                have = {name.lower() for name, _ in headers}
                kind = next((v for n, v in headers if n.lower() == b"content-type"), b"")
                extra = EVERY + (self.page if kind.startswith(b"text/html") else [])
                extra += JSON if kind.startswith(b"application/json") else []
                headers += [(name, value) for name, value in extra if name not in have]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_hardened)
