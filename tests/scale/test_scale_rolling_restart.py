"""docs/deploy.md's nginx block, as written, in front of two `coup serve` processes on
PostgreSQL and Redis: games are played over HTTPS and wss while each process is
restarted in turn (SIGTERM, start again, wait for `/readyz`: the page's procedure).

Checked: no handshake or request gets a 502 (nginx's "no live upstreams"), every client
whose socket was closed has a view again within 2 s, and no move any seat was shown is
lost (each seat's history of a game only ever grows). Skipped where nginx is missing
(`make nginx` installs Debian's)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import ssl
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from prometheus_client.parser import text_string_to_metric_families

from tests.scale import nginx_site
from tests.scale.conftest import REDIS, _fresh_database
from tools.load.client import SeatClient
from tools.load.fleet import fresh_channel
from tools.load.process import ServerProcess, free_port

pytestmark = [
    pytest.mark.timeout(240),
    pytest.mark.alone,  # clients back within BACK_WITHIN seconds
    pytest.mark.skipif(
        nginx_site.binary() is None,
        reason="nginx is not installed (`make nginx` installs Debian's; apt-get failed here)",
    ),
]

TABLES = 3
SEATS = 3
BACK_WITHIN = 2.0  # seconds from a socket's close to the client's next view
TLS = ssl.create_default_context()
TLS.check_hostname = False
TLS.verify_mode = ssl.CERT_NONE  # the test's self-signed certificate


class Seat(SeatClient):
    """A seat over wss through nginx."""

    async def connect(self) -> Seat:
        self._ws = await websockets.connect(self.ws_url, ssl=TLS, max_size=2**22, open_timeout=5)
        await self.send("hello", token=self.token)
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        await super()._read()
        self.closed_at = time.monotonic()  # the client hears the close now


@dataclass
class Outcome:
    closes: list[int] = field(default_factory=list)
    back: list[float] = field(default_factory=list)  # seconds to a view again, per close
    bad: list[str] = field(default_factory=list)  # 502s and the like
    moves: int = 0
    histories: dict[tuple[str, int, int], list[str]] = field(default_factory=dict)
    lost: list[str] = field(default_factory=list)
    phases: list[tuple[float, float]] = field(default_factory=list)  # (handshake, first view)

    def saw(self, table: str, seat: int, view: dict[str, Any]) -> None:
        """Each seat's history of a game must only grow: a move shown is never lost."""
        game = view.get("game")
        if game is None:
            return
        key = (table, seat, int(view["table"]["game"]))
        now = [json.dumps(e, sort_keys=True) for e in game["history"]]
        before = self.histories.get(key, [])
        if now[: len(before)] != before:
            self.lost.append(f"{key}: {len(before)} entries shown, then {len(now)} differing")
        if len(now) >= len(before):
            self.histories[key] = now


async def _connect(base: str, table: str, token: str, outcome: Outcome) -> Seat:
    """Connect (again) until a first view comes; a 502 is counted, never waited out."""
    while True:
        try:
            began = time.monotonic()
            seat = await Seat(base, table, token).connect()
            opened = time.monotonic()
            await seat.wait(lambda v: True, timeout=5)
            outcome.phases.append((opened - began, time.monotonic() - opened))
            return seat
        except websockets.InvalidStatus as exc:
            outcome.bad.append(f"handshake {exc.response.status_code}")
        except (OSError, ConnectionError, TimeoutError, websockets.WebSocketException):
            pass
        await asyncio.sleep(0.05)


async def _play(
    base: str, table: str, number: int, token: str, host: bool, outcome: Outcome,
    stop: asyncio.Event,
) -> None:  # fmt: skip
    rng = random.Random(number * 7 + (1 if host else 0))
    seat = await _connect(base, table, token, outcome)
    done: dict[str, Any] = {"acted": None, "started": None}
    try:
        while not stop.is_set():
            if seat.closed is not None:  # as the page does on 1001: reconnect at once
                closed_at = getattr(seat, "closed_at", time.monotonic())
                outcome.closes.append(seat.closed)
                seat = await _connect(base, table, token, outcome)
                outcome.back.append(time.monotonic() - closed_at)
            view = seat.view
            if view is not None:
                outcome.saw(table, number, view)
                try:
                    await _act(seat, view, host, rng, done, outcome, stop)
                except websockets.ConnectionClosed:
                    pass  # closed meanwhile: the next round reconnects
            with contextlib.suppress(TimeoutError, ConnectionError):  # a think, cut by a close
                await seat.wait(lambda v: False, timeout=rng.uniform(0.2, 0.4))
    finally:
        await seat.close()


async def _act(
    seat: Seat, view: dict[str, Any], host: bool, rng: random.Random, done: dict[str, Any],
    outcome: Outcome, stop: asyncio.Event,
) -> None:  # fmt: skip
    """This seat's turn on its latest view: the host starts the next game, a seat moves."""
    game = view["game"]
    if (game is None or game["over"]) and host and not stop.is_set():
        full = all(s is not None for s in view["table"]["seats"])
        if full and done["started"] != view["version"]:  # the first game, then rematches
            done["started"] = view["version"]
            await seat.send("start")
    elif game is not None and game["legal"]:
        here = (int(view["table"]["game"]), len(game["history"]))
        if here != done["acted"]:
            done["acted"] = here
            await seat.send("move", move=rng.choice(game["legal"]), version=view["version"])
            outcome.moves += 1


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, list[ServerProcess], nginx_site.Nginx]]:
    """nginx (the documented block) on two fresh processes, a database and a channel of
    their own."""
    bus = fresh_channel(REDIS, "coup-rolling")
    for database in _fresh_database():
        servers = [
            ServerProcess(database, "--no-address-limits", "--bot-delay", "0", bus=bus,
                          log=tmp_path / f"server{i}.log")
            for i in range(2)
        ]  # fmt: skip
        for server in servers:
            server.start()
        https, http = free_port(), free_port()
        cert, key = nginx_site.certificate(tmp_path)
        block = nginx_site.with_certificate(nginx_site.documented(), cert, key)
        site = nginx_site.on_ports(block, [s.port for s in servers], https, http)
        proxy = nginx_site.Nginx(tmp_path, site).start()
        try:
            yield f"https://127.0.0.1:{https}", servers, proxy
        finally:
            proxy.stop()
            for server in servers:
                server.stop()


async def _connections(server: ServerProcess) -> float:
    async with httpx.AsyncClient() as http:
        text = (await http.get(server.base + "/metrics")).text
    for family in text_string_to_metric_families(text):
        if family.name == "coup_connections":
            return float(family.samples[0].value)
    raise AssertionError("no coup_connections")


async def _a_new_tables_seats(base: str, servers: list[ServerProcess]) -> list[int]:
    """After the restarts, how a new table's sockets sit on the processes (sorted): the
    hash sends them all to one (nothing is marked down), not some to each."""
    before = [await _connections(s) for s in servers]
    async with httpx.AsyncClient(base_url=base, verify=TLS) as http:
        made = (
            await http.post("/api/tables", json={"name": "Late", "settings": {"seats": SEATS}})
        ).json()
        tokens = [made["token"]]
        for seat in range(1, SEATS):
            r = await http.post(f"/api/tables/{made['table']}/seats", json={"name": f"L{seat}"})
            tokens.append(r.json()["token"])
    seats = [await Seat(base, made["table"], token).connect() for token in tokens]
    try:
        for seat in seats:
            await seat.wait(lambda v: True)
        after = [await _connections(s) for s in servers]
    finally:
        for seat in seats:
            await seat.close()
    return sorted(int(a - b) for a, b in zip(after, before, strict=True))


def _restart(server: ServerProcess) -> None:
    """The page's procedure for one process: stop (SIGTERM), start, wait until ready."""
    server.stop()
    server.start()
    deadline = time.monotonic() + 30
    while httpx.get(server.base + "/readyz", timeout=2).status_code != 200:
        assert time.monotonic() < deadline, "not ready again"
        time.sleep(0.1)


async def test_a_rolling_restart_behind_the_documented_nginx(
    site: tuple[str, list[ServerProcess], nginx_site.Nginx],
) -> None:
    base, servers, proxy = site
    outcome = Outcome()
    stop = asyncio.Event()
    players = []
    async with httpx.AsyncClient(base_url=base, verify=TLS) as http:
        for _ in range(TABLES):
            r = await http.post("/api/tables", json={"name": "Host", "settings": {"seats": SEATS}})
            assert r.status_code == 201, r.text
            made = r.json()
            table = made["table"]
            players.append((table, 0, made["token"], True))
            for seat in range(1, SEATS):
                r = await http.post(f"/api/tables/{table}/seats", json={"name": f"P{seat}"})
                assert r.status_code == 201, r.text
                players.append((table, seat, r.json()["token"], False))
        # over the protocol's body sizes nginx answers itself, in the protocol's JSON
        for path, size in (("/api/tables", 9 * 1024), ("/api/replay", 300 * 1024)):
            r = await http.post(
                path, content=b"x" * size, headers={"content-type": "application/json"}
            )
            assert r.status_code == 413 and r.json()["error"]["code"] == "too_large", r.text
    tasks = [
        asyncio.create_task(_play(base, table, number, token, host, outcome, stop))
        for table, number, token, host in players
    ]
    await asyncio.sleep(2)  # everybody connected, the hosts started their games
    for server in servers:
        await asyncio.to_thread(_restart, server)
        await asyncio.sleep(2)
    after_restarts = outcome.moves
    for _ in range(100):  # the games go on after both restarts (a few more moves)
        if outcome.moves >= after_restarts + 5:
            break
        await asyncio.sleep(0.1)
    spread = await _a_new_tables_seats(base, servers)
    stop.set()
    await asyncio.gather(*tasks)

    print(
        f"rolling restart: {outcome.moves} moves sent, {len(outcome.closes)} sockets moved "
        f"(codes {sorted(set(outcome.closes))}), back within {max(outcome.back, default=0):.2f} s "
        f"at most (median {sorted(outcome.back)[len(outcome.back) // 2] if outcome.back else 0:.2f} s), "
        f"{len(outcome.bad)} refused handshakes; slowest (handshake, first view): "
        f"{sorted(outcome.phases, key=sum)[-3:]}"
    )
    assert outcome.moves >= after_restarts + 5 and after_restarts > 0, "the games went on"
    assert outcome.closes, "no socket was moved: the restarts did nothing"
    assert set(outcome.closes) <= {1001}, f"closed with {sorted(set(outcome.closes))}"
    assert not outcome.bad, outcome.bad
    assert spread == [0, SEATS], f"a new table's seats over the processes: {spread}"
    assert " 502 " not in proxy.access_log()
    slow = [round(s, 2) for s in outcome.back if s > BACK_WITHIN]
    assert not slow, f"clients back after {slow} s (of {len(outcome.back)})"
    assert not outcome.lost, outcome.lost
    for server in servers:
        assert not server.problems(), server.log.read_text(errors="replace")[-3000:]
