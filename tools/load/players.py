"""The load test's players: every seat of a table a websocket client that plays a random
legal move after a think time, and each move timed from its sending until every seat of
its table was shown it ("move to all views"). `measure()` (measure.py) runs them.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    games: int = 0

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


class TableLoad:
    """One table: its seats' connections and the moves still waiting to be seen by all."""

    def __init__(self, seats: int, stats: Stats) -> None:
        self.seats = seats
        self.stats = stats
        # (history length when sent, sent at, seat, move, seats that saw it)
        self.pending: list[tuple[int, float, int, str, set[int]]] = []
        self.last = (0, 0)  # the furthest (game, history length) any seat was shown

    def sent(self, position: int, seat: int, move: str) -> None:
        self.pending.append((position, time.perf_counter(), seat, move, set()))

    def seen(self, seat: int, history: list[dict[str, Any]]) -> None:
        """A seat was shown `history`: a sent move counts once every seat was shown it
        at the place it was sent for (a refused or overtaken move is not counted)."""
        now = time.perf_counter()
        keep = []
        for entry in self.pending:
            pos, at, mover, move, who = entry
            if len(history) > pos:
                played = history[pos]
                if played.get("seat") != mover or played.get("move") != move:
                    continue  # refused (stale) or someone else moved first
                who.add(seat)
            if len(who) >= self.seats:
                self.stats.latencies.append(now - at)
                self.stats.moves += 1
            else:
                keep.append(entry)
        self.pending = keep


@dataclass
class Clock:
    """Every seat connects first; then `go` is set and the measured run begins."""

    go: asyncio.Event = field(default_factory=asyncio.Event)
    until: float = 0.0
    ready: int = 0
    connecting: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(50))


async def seat_loop(
    url: str,
    table_id: str,
    token: str,
    seat: int,
    load: TableLoad,
    clock: Clock,
    *,
    think: float,
    rng: random.Random,
) -> None:
    stats = load.stats
    async with clock.connecting:
        ws = await websockets.connect(f"{url}/ws/{table_id}", max_size=2**22)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        await ws.recv()  # the first view
    clock.ready += 1
    await clock.go.wait()
    if seat == 0:
        await ws.send(json.dumps({"type": "start"}))
    acted_on: tuple[int, int] | None = None
    latest: dict[str, Any] | None = None
    act: asyncio.Task[None] | None = None

    async def act_later(view: dict[str, Any]) -> None:
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        now_view = latest or view
        game = now_view["game"]
        if game is None or game["over"] or not game["legal"]:
            return
        message = {"move": rng.choice(game["legal"]), "version": now_view["version"]}
        load.sent(len(game["history"]), seat, message["move"])
        await ws.send(json.dumps({"type": "move", **message}))

    try:
        while time.monotonic() < clock.until:
            try:
                frame = await asyncio.wait_for(ws.recv(), max(0.1, clock.until - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(frame)
            if msg["type"] == "error":
                stats.error(msg["code"])
                acted_on = None
                continue
            if msg["type"] != "view":
                continue
            if latest is not None and msg["version"] < latest["version"]:
                continue
            latest = msg
            game = msg["game"]
            if game is None:
                continue
            load.seen(seat, game["history"])
            load.last = max(load.last, (int(msg["table"]["game"]), len(game["history"])))
            if game["over"]:
                if seat == 0 and msg["table"]["status"] == "over":
                    stats.games += 1
                    await asyncio.sleep(think)
                    await ws.send(json.dumps({"type": "rematch"}))
                continue
            key = (msg["table"]["game"], len(game["history"]))
            if game["legal"] and key != acted_on and (act is None or act.done()):
                acted_on = key
                act = asyncio.create_task(act_later(msg))
    finally:
        if act is not None:
            act.cancel()
        await ws.close()


async def prepare_table(http: httpx.AsyncClient, players: int) -> tuple[str, list[str]]:
    """Create a table and fill its seats over HTTP; returns (table id, seat tokens). A
    connection lost on the way (a busy machine: the server closed an idle keep-alive
    connection as it was reused) starts another table, up to five times."""
    for attempt in range(5):
        try:
            return await _prepare_table(http, players)
        except httpx.TransportError:
            if attempt == 4:
                raise
            await asyncio.sleep(0.5)
    raise AssertionError("unreachable")


async def _prepare_table(http: httpx.AsyncClient, players: int) -> tuple[str, list[str]]:
    r = await http.post("/api/tables", json={"name": "P0", "settings": {"seats": players}})
    r.raise_for_status()
    made = r.json()
    tokens = [made["token"]]
    for seat in range(1, players):
        j = await http.post(f"/api/tables/{made['table']}/seats", json={"name": f"P{seat}"})
        j.raise_for_status()
        tokens.append(j.json()["token"])
    return made["table"], tokens
