"""The HTTP routes of profiles (docs/protocol.md, *Profiles*): making one with a passkey,
signing in and out, a second device's one-time link, the profile page's and the
leaderboard's data, a game's rating changes, export and delete.

A signed-in browser holds a session cookie (`coup_profile`: HttpOnly, SameSite=Lax, and
Secure when the site is HTTPS), kept in the store as its SHA-256; signing out deletes it
there. A seat's token is never a profile's credential, and no answer here holds one.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from coup.server import invite, names, passkeys, ratings
from coup.server.origin import public_origin, request_origin
from coup.server.protocol import ProtocolError, clean_name, now_ms, path_number
from coup.store import SqlStore
from coup.store.profiles import NameTaken, Profiles

COOKIE = "coup_profile"
SESSION_MS = 180 * 24 * 3600 * 1000
#: A second device's one-time link is good this long (ms), once.
LINK_MS = 10 * 60 * 1000
#: Rows the leaderboard shows.
BOARD_ROWS = 100

Body = Callable[[Request], Awaitable[dict[str, Any]]]


def _error(exc: ProtocolError) -> JSONResponse:
    return JSONResponse({"error": {"code": exc.code, "message": exc.message}}, exc.status)


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _text(data: dict[str, Any], key: str, limit: int = 128) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value or len(value) > limit:
        raise ProtocolError("bad_message", f"the field {key!r} is missing or wrong")
    return value


def public(row: dict[str, Any]) -> dict[str, Any]:
    """A profile as its owner's page shows it (never a credential)."""
    return {"id": row["id"], "name": row["name"], "hidden": bool(row["hidden"])}


class ProfileRoutes:
    def __init__(
        self, store: Callable[[], SqlStore], body: Body, public_url: str | None,
        min_games: int,
    ) -> None:  # fmt: skip
        self.store = store
        self.body = body
        self.public_url = public_url
        self.min_games = min_games

    @property
    def profiles(self) -> Profiles:
        return Profiles(self.store())

    def origin(self, request: Request) -> str:
        return public_origin(self.public_url) if self.public_url else request_origin(request.scope)

    def party(self, request: Request) -> passkeys.Party:
        return passkeys.party(self.origin(request))

    async def signed_in(self, request: Request) -> dict[str, Any] | None:
        """The profile of the request's session cookie (None: a guest)."""
        cookie = request.cookies.get(COOKIE)
        if not cookie or len(cookie) > 100:
            return None
        return await self.profiles.session(_digest(cookie), now_ms())

    async def seat_profile(self, request: Request) -> tuple[str, str] | None:
        """(id, name) of the signed-in player who is taking a seat."""
        me = await self.signed_in(request)
        return None if me is None else (me["id"], me["name"])

    async def _session(self, request: Request, profile_id: str, answer: Response) -> Response:
        token = secrets.token_urlsafe(32)
        now = now_ms()
        await self.profiles.open_session(
            {"token_hash": _digest(token), "profile_id": profile_id,
             "expires_at": now + SESSION_MS},
            now,
        )  # fmt: skip
        self._cookie(request, answer, token)
        return answer

    def _cookie(self, request: Request, answer: Response, token: str) -> None:
        secure = self.origin(request).startswith("https://")
        answer.set_cookie(
            COOKIE, token, max_age=SESSION_MS // 1000, path="/", httponly=True,
            samesite="lax", secure=secure,
        )  # fmt: skip

    async def _me(self, request: Request) -> dict[str, Any]:
        me = await self.signed_in(request)
        if me is None:
            raise ProtocolError("not_signed_in", "sign in with your passkey first", 401)
        return me

    # ---- the routes ---------------------------------------------------------------------
    async def whoami(self, request: Request) -> Response:
        try:
            self.party(request)
        except ProtocolError as exc:
            use = passkeys.named(self.origin(request))
            return JSONResponse(
                {"profile": None, "here": False, "use": use, "message": exc.message}
            )
        me = await self.signed_in(request)
        return JSONResponse({"profile": None if me is None else public(me), "here": True})

    async def register_options(self, request: Request) -> Response:
        try:
            rp = self.party(request)
            data = await self.body(request)
            name = clean_name(data.get("name"))
            if not await self.profiles.name_free(names.forms(name), now_ms()):
                raise ProtocolError("name_taken", f"{name!r} is another profile's name", 409)
            handle = passkeys.new_user_handle()
            challenge, options = passkeys.registration(rp, name, handle)
            ceremony = await self._challenge("register", challenge, name=name, user_handle=handle)
        except ProtocolError as exc:
            return _error(exc)
        return JSONResponse({"ceremony": ceremony, "options": options})

    async def _challenge(self, kind: str, challenge: str, **extra: Any) -> str:
        key = secrets.token_urlsafe(24)
        await self.profiles.put_challenge(
            {"id": key, "kind": kind, "challenge": challenge, "profile_id": None, "name": None,
             "user_handle": None, "expires_at": now_ms() + passkeys.CHALLENGE_MS, **extra}
        )  # fmt: skip
        return key

    async def _taken(self, data: dict[str, Any], kind: str) -> dict[str, Any]:
        row = await self.profiles.take_challenge(_text(data, "ceremony"), kind, now_ms())
        if row is None:
            raise ProtocolError("no_ceremony", "this ceremony is over or unknown; start again", 409)
        return row

    async def register(self, request: Request) -> Response:
        try:
            rp = self.party(request)
            data = await self.body(request)
            row = await self._taken(data, "register")
            key = passkeys.registered(rp, row["challenge"], data.get("credential"))
            now = now_ms()
            profile_id = secrets.token_hex(8)
            profile = {
                "id": profile_id, "kind": "person", "name": row["name"],
                "user_handle": row["user_handle"], "created_at": now, "deleted_at": None,
                "hidden": False, "mu": ratings.MU, "sigma": ratings.SIGMA,
                "rating": ratings.shown(ratings.MU, ratings.SIGMA), "games": 0, "wins": 0,
            }  # fmt: skip
            token = secrets.token_urlsafe(32)
            try:
                await self.profiles.create(
                    profile, names.forms(row["name"]),
                    {**key, "profile_id": profile_id, "created_at": now},
                    {"token_hash": _digest(token), "profile_id": profile_id,
                     "expires_at": now + SESSION_MS},
                    now,
                )  # fmt: skip
            except NameTaken:
                raise ProtocolError("name_taken", "another profile took this name", 409) from None
        except ProtocolError as exc:
            return _error(exc)
        answer = JSONResponse({"profile": public(profile)}, 201)
        self._cookie(request, answer, token)
        return answer

    async def signin_options(self, request: Request) -> Response:
        try:
            challenge, options = passkeys.signin(self.party(request))
            ceremony = await self._challenge("signin", challenge)
        except ProtocolError as exc:
            return _error(exc)
        return JSONResponse({"ceremony": ceremony, "options": options})

    async def signin(self, request: Request) -> Response:
        try:
            rp = self.party(request)
            data = await self.body(request)
            row = await self._taken(data, "signin")
            credential = data.get("credential")
            stored = await self.profiles.credential(passkeys.credential_id(credential))
            if stored is None:
                raise ProtocolError("passkey_refused", "this passkey belongs to no profile here")
            count = passkeys.signed(rp, row["challenge"], credential, stored)
            if not await self.profiles.bump_counter(stored["id"], stored["sign_count"], count):
                raise ProtocolError("passkey_refused", "the passkey's counter went back")
            me = await self.profiles.get(stored["profile_id"])
            if me is None:
                raise ProtocolError("passkey_refused", "this passkey belongs to no profile here")
        except ProtocolError as exc:
            return _error(exc)
        return await self._session(request, me["id"], JSONResponse({"profile": public(me)}))

    async def signout(self, request: Request) -> Response:
        cookie = request.cookies.get(COOKIE)
        if cookie:
            await self.profiles.end_session(_digest(cookie))
        answer = JSONResponse({"profile": None})
        answer.delete_cookie(COOKIE, path="/")
        return answer

    async def new_link(self, request: Request) -> Response:
        """A one-time link (10 minutes) that adds a passkey on another device."""
        try:
            me = await self._me(request)
            code = secrets.token_urlsafe(24)
            await self.profiles.put_challenge(
                {"id": _digest(code), "kind": "code", "challenge": "", "profile_id": me["id"],
                 "name": None, "user_handle": None, "expires_at": now_ms() + LINK_MS}
            )  # fmt: skip
        except ProtocolError as exc:
            return _error(exc)
        link = f"{self.origin(request)}/link#code={code}"
        qr = base64.b64encode(invite.qr_svg(link)).decode()
        return JSONResponse(
            {"link": link, "qr": f"data:image/svg+xml;base64,{qr}", "seconds": LINK_MS // 1000}
        )

    async def link_options(self, request: Request) -> Response:
        """The link's code spent: a registration ceremony for its profile."""
        try:
            rp = self.party(request)
            data = await self.body(request)
            row = await self.profiles.take_challenge(_digest(_text(data, "code")), "code", now_ms())
            me = None if row is None else await self.profiles.get(row["profile_id"])
            if me is None:
                raise ProtocolError("no_ceremony", "this link was used or is too old", 409)
            exclude = await self.profiles.credential_ids(me["id"])
            challenge, options = passkeys.registration(rp, me["name"], me["user_handle"], exclude)
            ceremony = await self._challenge("link", challenge, profile_id=me["id"])
        except ProtocolError as exc:
            return _error(exc)
        return JSONResponse({"ceremony": ceremony, "options": options})

    async def link(self, request: Request) -> Response:
        try:
            rp = self.party(request)
            data = await self.body(request)
            row = await self._taken(data, "link")
            key = passkeys.registered(rp, row["challenge"], data.get("credential"))
            me = await self.profiles.get(row["profile_id"])
            if me is None:
                raise ProtocolError("no_ceremony", "this profile is gone", 409)
            await self.profiles.add_credential(
                {**key, "profile_id": me["id"], "created_at": now_ms()}
            )
        except ProtocolError as exc:
            return _error(exc)
        return await self._session(request, me["id"], JSONResponse({"profile": public(me)}, 201))

    async def settings(self, request: Request) -> Response:
        try:
            me = await self._me(request)
            data = await self.body(request)
            hidden = data.get("hidden")
            if set(data) != {"hidden"} or not isinstance(hidden, bool):
                raise ProtocolError("bad_message", 'send {"hidden": true|false}')
            await self.profiles.set_hidden(me["id"], hidden)
        except ProtocolError as exc:
            return _error(exc)
        return JSONResponse({"profile": {**public(me), "hidden": hidden}})

    async def export(self, request: Request) -> Response:
        try:
            me = await self._me(request)
        except ProtocolError as exc:
            return _error(exc)
        data = await self.profiles.export(me["id"])
        disposition = f'attachment; filename="coup-profile-{me["id"]}.json"'
        return JSONResponse(data, headers={"Content-Disposition": disposition})

    async def delete(self, request: Request) -> Response:
        try:
            me = await self._me(request)
        except ProtocolError as exc:
            return _error(exc)
        await self.profiles.delete(me["id"], now_ms())
        answer = JSONResponse({"profile": None, "deleted": True})
        answer.delete_cookie(COOKIE, path="/")
        return answer

    async def page(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name.startswith("bot:"):
            profile_id: str | None = name[:40]
        else:
            try:
                found = await self.profiles.find(names.forms(clean_name(name)))
            except ProtocolError:
                found = None
            profile_id = None if found is None else found["id"]
        data = None if profile_id is None else await self.profiles.page(profile_id)
        if data is None:
            return _error(ProtocolError("no_profile", "no such profile", 404))
        data["margin"] = ratings.margin(data.pop("sigma"))
        data.pop("mu")
        return JSONResponse({"profile": data})

    async def leaderboard(self, request: Request) -> Response:
        mine = request.query_params.get("mine") == "1"
        me = await self.signed_in(request) if mine else None
        rows = await self.profiles.leaderboard(
            self.min_games, BOARD_ROWS, played_with=None if me is None else me["id"]
        )
        for row in rows:
            row["margin"] = ratings.margin(row.pop("sigma"))
        return JSONResponse({"min_games": self.min_games, "rows": rows})

    async def game_ratings(self, request: Request) -> Response:
        number = path_number(request.path_params["game"], 1 << 30)
        if number is None:
            return _error(ProtocolError("no_game", "no such game at this table", 404))
        rows = await self.profiles.game_ratings(request.path_params["table"], number)
        return JSONResponse({"ratings": rows})

    def routes(self) -> list[Route]:
        return [
            Route("/api/profiles/me", self.whoami),
            Route("/api/profiles/options", self.register_options, methods=["POST"]),
            Route("/api/profiles", self.register, methods=["POST"]),
            Route("/api/profiles/me/link", self.new_link, methods=["POST"]),
            Route("/api/profiles/me/settings", self.settings, methods=["POST"]),
            Route("/api/profiles/me/export", self.export),
            Route("/api/profiles/me/delete", self.delete, methods=["POST"]),
            Route("/api/profiles/{name}", self.page),
            Route("/api/session/options", self.signin_options, methods=["POST"]),
            Route("/api/session", self.signin, methods=["POST"]),
            Route("/api/session/end", self.signout, methods=["POST"]),
            Route("/api/links/options", self.link_options, methods=["POST"]),
            Route("/api/links", self.link, methods=["POST"]),
            Route("/api/leaderboard", self.leaderboard),
            Route("/api/tables/{table}/games/{game}/ratings", self.game_ratings),
        ]
