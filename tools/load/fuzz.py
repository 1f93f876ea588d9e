"""`coup loadtest --fuzz N`: N bad messages over the websocket and HTTP, while real games run.

Tables of two people (played by this tool, random legal moves, rematch after each game)
and two bots keep playing. Meanwhile workers open connections (any server of the fleet)
and send, one at a time, messages that must be refused: broken JSON, binary and oversized
frames, unknown types and fields, wrong field types, notation that is no move, moves out
of turn and with stale versions, wrong tokens, wrong tables, host-only requests from
guests, chat too long or empty, a second hello, spectators trying to play; and over HTTP:
broken and oversized bodies, bad names and settings, unknown tables and games, replay
uploads over their bounds or that do not replay, numbers in paths that are no game ("²",
5,000 digits), POSTs that are not JSON or come from another site.

Each must be answered with an `error` (echoing its `id` when it had one), a close with the
documented code, or an HTTP 4xx with an error body. At the end the tool checks the server
is alive and every finished game's record verifies and replays to exactly the view its
players were shown last.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

import coup
from coup.server.replay_job import MAX_REPLAY_MOVES
from tools.load.client import SeatClient, create_table, join_table
from tools.load.long_games import long_record

NEVER_LEGAL = ["coup 9", "steal 7", "keep duke duke duke duke", "lose nobody", "block banker"]
MAYBE = ["income", "tax", "foreign_aid", "pass", "challenge", "block duke", "exchange"]


@dataclass
class Tally:
    sent: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    closes: dict[int, int] = field(default_factory=dict)
    http: dict[int, int] = field(default_factory=dict)
    unanswered: int = 0
    wrong: list[str] = field(default_factory=list)

    def answered(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1

    def closed(self, code: int) -> None:
        self.closes[code] = self.closes.get(code, 0) + 1

    def bad(self, what: str) -> None:
        if len(self.wrong) < 50:
            self.wrong.append(what)


@dataclass
class Site:
    url: str
    table: str
    tokens: list[str]  # seat 0 (host), seat 1
    finals: dict[int, dict[str, Any]] = field(default_factory=dict)  # game -> last view


async def _players(site: Site, rng: random.Random, stop: asyncio.Event) -> None:
    """Two people playing random legal moves; the host rematches; last views are kept."""
    clients = [await SeatClient(site.url, site.table, tok).connect() for tok in site.tokens]
    host = clients[0]
    await host.wait(lambda v: v["you"]["host"])
    for seat in (2, 3):
        await host.send("add_bot", seat=seat)
    await host.wait(lambda v: all(s is not None for s in v["table"]["seats"]))
    await host.send("start")
    acted: dict[int, tuple[int, int]] = {}
    asked: int = 0
    while not stop.is_set():
        await asyncio.sleep(0.02)
        for i, c in enumerate(clients):
            v = c.view
            if v is None or v["game"] is None:
                continue
            number = int(v["table"]["game"])
            game = v["game"]
            if game["over"]:
                if i == 0:
                    site.finals[number] = game
                    if asked != number:
                        asked = number
                        await c.send("rematch")
                continue
            key = (number, len(game["history"]))
            if game["legal"] and acted.get(i) != key:
                acted[i] = key
                await c.send("move", move=rng.choice(game["legal"]), version=v["version"])
    for c in clients:
        await c.close()


def _ws_messages(rng: random.Random, view: dict[str, Any] | None, seated: bool) -> list[Any]:
    """A handful of bad frames for one connection (str/bytes frames, or dict messages).

    Nothing here may be a request that could succeed: host-only requests come from
    guests and spectators only; the host's lobby requests name taken or absent seats."""
    host = bool(view and view["you"]["host"])
    version = view["version"] if view else 1
    legal = set(view["game"]["legal"]) if view and view["game"] else set()
    out: list[Any] = []
    for _ in range(rng.randint(5, 15)):
        k = rng.randrange(16)
        mid = rng.randrange(10**6)
        if k == 0:
            out.append(
                rng.choice(['{"type": "move"', "null", "[1, 2]", '"hi"', "{]", "", "\u0000"])
            )
        elif k == 1:
            out.append(secrets.token_bytes(rng.randint(1, 64)))
        elif k == 2:
            out.append(json.dumps({"type": "chat", "text": "x" * 5000, "id": mid}))
        elif k == 3:
            out.append({"type": rng.choice(["dance", "", "MOVE", "view", 5]), "id": mid})
        elif k == 4:
            out.append(
                {"type": "move", "move": rng.choice([5, None, [], "x" * 70]), "version": "v"}
            )
        elif k == 5:
            out.append(
                {"type": "move", "move": "income", "version": version, "extra": 1, "id": mid}
            )
        elif k == 6:
            out.append({"type": "move", "move": "steal banana", "version": version, "id": mid})
        elif k == 7:
            out.append({"type": "move", "move": rng.choice(MAYBE), "version": -5, "id": mid})
        elif k == 8:
            if view is not None and not legal:  # out of turn: not legal in the view we hold
                out.append({"type": "move", "move": rng.choice(MAYBE), "version": version})
            else:
                out.append({"type": "move", "move": rng.choice(NEVER_LEGAL), "version": version})
        elif k == 9:
            out.append({"type": "chat", "text": rng.choice(["", "   ", "y" * 301]), "id": mid})
        elif k == 10:
            out.append({"type": "hello", "token": None, "id": mid})
        elif k == 11:
            if host:
                out.append({"type": "remove", "seat": rng.choice([0, 42]), "id": mid})
            else:
                out.append({"type": rng.choice(["start", "rematch", "settings"]), "id": mid})
        elif k == 12:
            out.append({"type": "add_bot", "seat": rng.choice([99, -1, 0, 1, "2"]), "id": mid})
        elif k == 13:
            out.append(
                {
                    "type": "move_seat",
                    "from": rng.choice([0, 7]),
                    "to": rng.choice([0, 1, 50]),
                    "id": mid,
                }
            )
        elif k == 14:
            out.append({"type": "settings", "settings": {"seats": rng.choice([1, 11, "x"])}})
        else:
            out.append({"type": "ping", "id": "x" * 100})  # an id over 64 characters
    if not seated:
        out = [m for m in out if not (isinstance(m, dict) and m.get("type") == "hello")]
    return out


async def _one_connection(
    url: str, sites: list[Site], rng: random.Random, tally: Tally, budget: int
) -> int:
    """Open one connection with a right or wrong identity, send bad messages; how many."""
    site = rng.choice(sites)
    ws_url = url.replace("http://", "ws://") + "/ws/"
    mode = rng.randrange(10)
    table = site.table
    token: str | None = rng.choice(site.tokens) if mode < 6 else None
    if mode == 6:
        token = secrets.token_urlsafe(32)  # a token nobody holds
    elif mode == 7:
        token = rng.choice([s for s in sites if s is not site] or [site]).tokens[1]
    elif mode == 8:
        table = secrets.token_urlsafe(16)  # no such table
    async with websockets.connect(ws_url + table, max_size=2**22, open_timeout=20) as ws:
        try:
            await ws.send(json.dumps({"type": "hello", "token": token}))
        except websockets.ConnectionClosed:
            pass  # an unknown table: the server closes at once (4404)
        first = await _answer(ws, view=True)
        tally.sent += 1
        if mode in (6, 7) and site is not None:
            if first[0] == "error" and first[1] == "bad_token":
                tally.answered("bad_token")
                return 1
            tally.bad(f"wrong token answered {first}")
            return 1
        if mode == 8:
            if first == ("close", 4404):
                tally.closed(4404)
            else:
                tally.bad(f"wrong table answered {first}")
            return 1
        if first[0] != "view":
            tally.bad(f"hello answered {first}")
            return 1
        view = first[2]
        tally.answered("(hello ok)")
        count = 1
        if rng.random() < 0.02:  # a frame over 64 KiB closes the connection (1009)
            await ws.send("z" * (65 * 1024))
            got = await _answer(ws)
            tally.sent += 1
            tally.closed(got[1]) if got[0] == "close" and got[1] == 1009 else tally.bad(f"{got}")
            return count + 1
        for message in _ws_messages(rng, view, token is not None)[: max(1, budget - count)]:
            frame = message if isinstance(message, str | bytes) else json.dumps(message)
            await ws.send(frame)
            tally.sent += 1
            count += 1
            got = await _answer(ws)
            if got[0] == "error":
                tally.answered(str(got[1]))
                if got[1] == "internal":
                    tally.bad(f"internal error for {str(frame)[:80]}")
                want = message.get("id") if isinstance(message, dict) else None
                if isinstance(want, int) and got[2].get("id") != want:
                    tally.bad(f"id not echoed: {got[2]}")
            elif got[0] == "timeout":
                tally.unanswered += 1
                tally.bad(f"no answer to {str(frame)[:80]}")
            else:
                tally.bad(f"{str(frame)[:60]} answered {got[:2]}")
                if got[0] == "close":
                    return count
    return count


async def _answer(ws: Any, timeout: float = 15.0, *, view: bool = False) -> tuple[Any, ...]:
    """The next error (or view, if `view`), or ("close", code), or ("timeout",); views
    pushed meanwhile (the games go on) are skipped."""
    end = time.monotonic() + timeout
    try:
        while True:
            frame = await asyncio.wait_for(ws.recv(), max(0.01, end - time.monotonic()))
            msg = json.loads(frame)
            if msg.get("type") == "error":
                return ("error", msg.get("code"), msg)
            if view and msg.get("type") == "view":
                return ("view", msg.get("version"), msg)
    except TimeoutError:
        return ("timeout",)
    except websockets.ConnectionClosed as exc:
        code = exc.rcvd.code if exc.rcvd is not None else 1006
        return ("close", code)


#: Numbers in paths that are no game: digits to `str.isdigit` only, too many digits.
BAD_NUMBERS = ["²", "٣", "١", "1" * 5000, "-1", "1.0", "0"]


@functools.cache
def _records() -> tuple[bytes, bytes]:
    """Uploads a replay refuses: one move over its bound, a name over 24 characters."""
    longer = long_record(MAX_REPLAY_MOVES + 1)
    wide = {**long_record(40, 3), "players": ["x" * 30_000] * 3}
    return json.dumps(longer).encode(), json.dumps(wide).encode()


async def _http_one(http: httpx.AsyncClient, site: Site, rng: random.Random, tally: Tally) -> None:
    k = rng.randrange(13)
    t = site.table
    json_body = {"content-type": "application/json"}
    if k == 0:
        r = await http.post("/api/tables", content=b"{not json", headers={"content-type": "x"})
    elif k == 1:
        r = await http.post("/api/tables", content=b"{" + b" " * 9000 + b"}")
    elif k == 2:
        r = await http.post("/api/tables", json={"name": "", "settings": {}})
    elif k == 3:
        r = await http.post("/api/tables", json={"name": "A", "settings": {"seats": 99}})
    elif k == 4:
        r = await http.post(f"/api/tables/{secrets.token_urlsafe(16)}/seats", json={"name": "B"})
    elif k == 5:
        r = await http.post(f"/api/tables/{t}/seats", json={"name": "C", "seat": 0})
    elif k == 6:
        r = await http.get(f"/api/tables/{t}/games/999/record")
    elif k == 7:
        r = await http.get(f"/api/tables/{'x' * 300}")
    elif k == 9:  # the replay: records over its bounds (too many moves, names too long)
        r = await http.post("/api/replay", content=rng.choice(_records()), headers=json_body)
    elif k == 10:  # the replay: a record that does not replay, a body that is no record
        body = rng.choice([b'{"format": "coup-record/1", "players": ["A"]}', b"[1]", b"{"])
        r = await http.post("/api/replay", content=body, headers=json_body)
    elif k == 11:  # numbers in paths that are no game
        where = rng.choice(["record", "replay", "coach", "coach/0"])
        r = await http.get(f"/api/tables/{t}/games/{rng.choice(BAD_NUMBERS)}/{where}")
    elif k == 12:  # a POST that is not JSON, or from another site
        wrong = rng.choice(
            [{"content-type": "text/plain"}, {**json_body, "origin": "https://x.example"}]
        )
        r = await http.post("/api/tables", content=b'{"name": "E"}', headers=wrong)
    else:
        r = await http.post(f"/api/tables/{t}/seats", json={"name": "D\x00", "extra": [1]})
    tally.sent += 1
    tally.http[r.status_code] = tally.http.get(r.status_code, 0) + 1
    ok = 400 <= r.status_code < 500 or r.status_code == 503  # 503 busy: replays queued
    try:
        ok = ok and "code" in r.json()["error"]
    except (ValueError, KeyError, TypeError):
        ok = False
    if not ok:
        tally.bad(f"HTTP {k} answered {r.status_code} {r.text[:80]}")


async def run(
    urls: list[str], total: int, *, tables: int = 12, workers: int = 24
) -> dict[str, Any]:
    rng = random.Random(secrets.randbits(32))
    sites: list[Site] = []
    for i in range(tables):
        url = urls[i % len(urls)]
        made = await create_table(url, "Fuzz host", {"seats": 4})
        other = await join_table(urls[(i + 1) % len(urls)], made["table"], "Fuzz guest")
        sites.append(Site(url, made["table"], [made["token"], other["token"]]))
    stop = asyncio.Event()
    players = [
        asyncio.create_task(_players(s, random.Random(i), stop)) for i, s in enumerate(sites)
    ]
    tally = Tally()
    started = time.monotonic()
    left = [total]

    async def worker(n: int) -> None:
        wrng = random.Random(rng.randrange(2**32))
        async with httpx.AsyncClient(base_url=urls[n % len(urls)], timeout=30) as http:
            while left[0] > 0:
                if wrng.random() < 0.1:
                    left[0] -= 1
                    await _http_one(http, wrng.choice(sites), wrng, tally)
                    continue
                budget = min(16, left[0])
                left[0] -= budget
                try:
                    used = await _one_connection(urls[n % len(urls)], sites, wrng, tally, budget)
                except (OSError, websockets.WebSocketException) as exc:
                    tally.bad(f"connection failed: {exc!r}"[:120])
                    used = 0
                left[0] += budget - used

    await asyncio.gather(*(worker(n) for n in range(workers)))
    elapsed = time.monotonic() - started
    await asyncio.sleep(3)  # let the running games reach a finished one or two more
    stop.set()
    await asyncio.gather(*players, return_exceptions=True)
    checked, broken = await _check_records(urls[-1], sites)
    return {
        "messages": tally.sent,
        "seconds": round(elapsed, 1),
        "answered_with_error": sum(v for k, v in tally.errors.items() if k != "(hello ok)"),
        "closed_as_documented": sum(tally.closes.values()),
        "http_4xx": sum(v for k, v in tally.http.items() if 400 <= k < 500),
        "hellos_ok": tally.errors.get("(hello ok)", 0),
        "unanswered": tally.unanswered,
        "error_codes": dict(sorted(tally.errors.items())),
        "close_codes": tally.closes,
        "http_status": tally.http,
        "wrong": tally.wrong,
        "games_checked": checked,
        "records_broken": broken,
    }


async def _check_records(url: str, sites: list[Site]) -> tuple[int, list[str]]:
    """Every finished game: its record verifies and replays to the view last shown."""
    checked, broken = 0, []
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        for site in sites:
            for number, shown in sorted(site.finals.items()):
                r = await http.get(f"/api/tables/{site.table}/games/{number}/record")
                if r.status_code != 200:
                    broken.append(f"{site.table}/{number}: HTTP {r.status_code}")
                    continue
                record = r.json()
                ok, why = coup.verify(record)
                replayed = coup.replay(record).view(0)
                if not ok or replayed != shown:
                    diff = sorted(
                        k for k in set(replayed) | set(shown) if replayed.get(k) != shown.get(k)
                    )
                    broken.append(
                        f"{site.table}/{number}: {why if not ok else f'view differs: {diff}'}"
                    )
                checked += 1
    return checked, broken


def main(args: Any, urls: list[str], fleet: Any) -> int:
    report = asyncio.run(run(urls, args.fuzz))
    alive = fleet.alive() if fleet is not None else True
    report["servers_alive"] = alive
    report["server_log_problems"] = fleet.problems()[:20] if fleet is not None else []
    for url in urls:
        try:
            report.setdefault("healthz", []).append(httpx.get(url + "/healthz").status_code)
        except httpx.HTTPError as exc:
            report.setdefault("healthz", []).append(repr(exc))
    if args.json:
        print(json.dumps(report))
    else:
        print(
            f"{report['messages']} bad messages in {report['seconds']} s over {len(urls)} "
            f"server(s): {report['answered_with_error']} errors, "
            f"{report['closed_as_documented']} documented closes, {report['http_4xx']} HTTP 4xx, "
            f"{report['unanswered']} unanswered\n"
            f"error codes: {report['error_codes']}\nclose codes: {report['close_codes']}; "
            f"HTTP: {report['http_status']}\n"
            f"games checked (record verifies, replay == last view): {report['games_checked']}, "
            f"broken: {report['records_broken'] or 'none'}\n"
            f"servers alive: {alive}; healthz {report['healthz']}; "
            f"log problems: {report['server_log_problems'] or 'none'}\n"
            f"unexpected: {report['wrong'] or 'none'}"
        )
    bad = (
        report["unanswered"] or report["wrong"] or report["records_broken"] or not alive
        or report["server_log_problems"]
    )  # fmt: skip
    return 1 if bad else 0
