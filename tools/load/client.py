"""A small client of the online table (docs/protocol.md) for tests, tools and bots run
from outside: HTTP calls to create and join tables, and one websocket per seat."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import httpx
import websockets


async def create_table(
    base: str, name: str = "Host", settings: dict[str, Any] | None = None
) -> dict[str, Any]:
    """POST /api/tables; returns the reply (table, seat, token, ...)."""
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.post("/api/tables", json={"name": name, "settings": settings or {}})
        r.raise_for_status()
        out: dict[str, Any] = r.json()
        return out


async def join_table(
    base: str, table: str, name: str, seat: int | None = None, device: str | None = None
) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    if device is not None:
        body["device"] = device
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.post(f"/api/tables/{table}/seats", json=body)
        r.raise_for_status()
        out: dict[str, Any] = r.json()
        return out


class SeatClient:
    """One websocket connection: a seat (with its token) or a spectator (no token)."""

    def __init__(
        self,
        base: str,
        table: str,
        token: str | None = None,
        *,
        keep: bool = False,
        name: str | None = None,
    ):
        self.base = base.rstrip("/")
        self.name = name  # a spectator's name, said in the hello
        self.table = table
        self.token = token
        self.keep = keep  # keep every message received (leak tests)
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.errors: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None
        self.closed: int | None = None
        self._ws: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Condition()
        self.view_times: list[tuple[float, dict[str, Any]]] = []

    @property
    def ws_url(self) -> str:
        return self.base.replace("http://", "ws://").replace("https://", "wss://") + (
            f"/ws/{self.table}"
        )

    async def connect(self) -> SeatClient:
        self._ws = await websockets.connect(self.ws_url, max_size=2**22)
        if self.name is not None:
            await self.send("hello", token=self.token, name=self.name)
        else:
            await self.send("hello", token=self.token)
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        try:
            async for frame in self._ws:
                msg = json.loads(frame)
                if self.keep:
                    self.raw.append(frame if isinstance(frame, str) else frame.decode())
                    self.messages.append(msg)
                async with self._changed:
                    if msg.get("type") == "view":
                        # (the same version again: only the spectators changed)
                        if self.view is None or msg["version"] >= self.view["version"]:
                            self.view = msg
                            self.view_times.append((time.perf_counter(), msg))
                            if len(self.view_times) > 50:
                                del self.view_times[:25]
                    elif msg.get("type") == "error":
                        self.errors.append(msg)
                    self._changed.notify_all()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = getattr(self._ws, "close_code", None) or 1006
            async with self._changed:
                self._changed.notify_all()

    async def send(self, kind: str, **fields: Any) -> None:
        await self._ws.send(json.dumps({"type": kind, **fields}))

    async def send_raw(self, frame: str | bytes) -> None:
        await self._ws.send(frame)

    async def wait(self, predicate: Any, timeout: float = 20.0) -> dict[str, Any]:
        """Wait until predicate(view) holds; returns that view."""

        async def _until() -> dict[str, Any]:
            async with self._changed:
                while True:
                    if self.view is not None and predicate(self.view):
                        return self.view
                    if self.closed is not None:
                        raise ConnectionError(f"connection closed ({self.closed})")
                    await self._changed.wait()

        return await asyncio.wait_for(_until(), timeout)

    async def wait_error(self, count: int = 1, timeout: float = 20.0) -> dict[str, Any]:
        async def _until() -> dict[str, Any]:
            async with self._changed:
                while len(self.errors) < count:
                    if self.closed is not None:
                        raise ConnectionError(f"connection closed ({self.closed})")
                    await self._changed.wait()
                return self.errors[count - 1]

        return await asyncio.wait_for(_until(), timeout)

    async def refused(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a message that must be refused; returns the error it got. A `rate_limited`
        answer (this connection sent fast before, e.g. `play_randomly` against quick bots)
        says nothing about the message: it is sent again once the bucket has refilled."""
        for _ in range(5):  # docs/protocol.md: refilled at 5 messages a second
            mark = len(self.errors)
            await self.send(kind, **fields)
            error = await self.wait_error(mark + 1)
            if error.get("code") != "rate_limited":
                return error
            await asyncio.sleep(0.3)
        return error

    async def wait_closed(self, timeout: float = 20.0) -> int:
        async def _until() -> int:
            async with self._changed:
                while self.closed is None:
                    await self._changed.wait()
                return self.closed

        return await asyncio.wait_for(_until(), timeout)

    async def move(self, move: str) -> None:
        assert self.view is not None
        await self.send("move", move=move, version=self.view["version"])

    def legal(self) -> list[str]:
        if self.view is None or self.view["game"] is None:
            return []
        return list(self.view["game"]["legal"])

    async def close(self) -> None:
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await self._reader


async def play_randomly(client: SeatClient, rng: Any, timeout: float = 30.0) -> dict[str, Any]:
    """Play random legal moves for this seat until the game is over; the final view.

    Acts once per game position (not on every view), within the connection's message
    allowance (leaving some for what the caller sends next), and tries again if nothing
    happened for a second (e.g. the move was refused as `rate_limited`).
    """
    last = -1
    acted_on: int | None = None
    quiet = 0.0
    pace = _Pace()

    def fresh(v: dict[str, Any]) -> bool:
        return bool(v["version"] > last and v["game"] is not None)

    while True:
        try:
            view = await client.wait(fresh, timeout=1.0)
        except TimeoutError:
            quiet += 1.0
            if quiet >= timeout:
                raise
            acted_on = None
            if client.view is None or client.view["game"] is None:
                continue
            view = client.view
        else:
            quiet = 0.0
        last = view["version"]
        game = view["game"]
        if game["over"]:
            return view
        position = len(game["history"])
        if game["legal"] and position != acted_on:
            acted_on = position
            await pace.take()
            await client.send("move", move=rng.choice(game["legal"]), version=view["version"])


class _Pace:
    """Moves within the server's allowance for one connection (docs/protocol.md: a burst
    of 20 messages, then 5 a second), keeping `reserve` of the burst for what the caller
    sends after the game (a rematch, a refused message): against quick bots a seat that
    answered every position at once emptied it, and the next message was dropped."""

    def __init__(self, burst: int = 20, rate: float = 5.0, reserve: int = 8) -> None:
        self.rate, self.burst = rate, float(burst - reserve)
        self.tokens, self.at = self.burst, time.monotonic()

    async def take(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / self.rate)
            self.tokens, self.at = 1.0, time.monotonic()
        self.tokens -= 1
