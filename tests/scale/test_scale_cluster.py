"""Two `coup serve` processes, one PostgreSQL, one Redis: one table's players spread over
both play whole games, a racing move is accepted once, a killed process's game goes on."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

import coup
from tools.load.client import SeatClient, create_table, join_table, play_randomly

pytestmark = pytest.mark.timeout(120)


async def _seat_table(
    servers: list[Any], humans: int, bots: int = 0, settings: dict | None = None
) -> tuple[str, list[SeatClient]]:
    """A table made on servers[0]; human i joins and connects through servers[i % 2]."""
    made = await create_table(servers[0].base, "Host", {"seats": humans + bots, **(settings or {})})
    table = made["table"]
    tokens = [made["token"]]
    for i in range(1, humans):
        joined = await join_table(servers[i % len(servers)].base, table, f"P{i}")
        tokens.append(joined["token"])
    clients = [
        await SeatClient(servers[i % len(servers)].base, table, tok).connect()
        for i, tok in enumerate(tokens)
    ]
    for c in clients:
        await c.wait(lambda v: v["you"]["seat"] is not None)
    host = clients[0]
    for seat in range(humans, humans + bots):
        await host.send("add_bot", seat=seat)
    await host.wait(lambda v: sum(s is not None for s in v["table"]["seats"]) == humans + bots)
    return table, clients


async def _record(base: str, table: str, game: int = 1) -> dict:
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.get(f"/api/tables/{table}/games/{game}/record")
        r.raise_for_status()
        return dict(r.json())


def _check_record(record: dict) -> None:
    ok, why = coup.verify(record)
    assert ok, why
    assert coup.replay(record).over


async def test_players_on_two_processes_play_a_whole_game(cluster: list[Any]) -> None:
    table, clients = await _seat_table(cluster, humans=4, bots=1)
    await clients[0].send("start")
    rng = random.Random(5)
    finals = await asyncio.gather(*(play_randomly(c, rng, timeout=60) for c in clients))
    winners = {v["game"]["winner"] for v in finals}
    assert len(winners) == 1
    # every seat ends on the same history, whichever process it is on
    histories = {len(v["game"]["history"]) for v in finals}
    assert len(histories) == 1
    # lost races and a fast game's rate limit: refused cleanly, changing nothing
    raced = ("stale", "illegal_move", "no_game_running", "rate_limited")
    for c in clients:
        assert not [e for e in c.errors if e["code"] not in raced], c.errors
    records = [await _record(s.base, table) for s in cluster]
    assert records[0] == records[1]
    _check_record(records[0])
    assert records[0]["winner"] in winners
    for c in clients:
        await c.close()


async def _settle(*clients: SeatClient) -> int:
    """Wait until every client shows the same, newest version; that version."""
    while True:
        top = max(c.view["version"] for c in clients if c.view is not None)
        for c in clients:
            await c.wait(lambda v, n=top: v["version"] >= n)
        await asyncio.sleep(0.05)
        if all(c.view is not None and c.view["version"] == top for c in clients):
            return top


async def test_racing_moves_for_one_seat_from_two_processes(cluster: list[Any]) -> None:
    """The same seat on both processes sends a different move with the same version:
    exactly one is accepted, the other is refused as stale."""
    made = await create_table(cluster[0].base, "Racer", {"seats": 2, "draft": False})
    table = made["table"]
    other = await join_table(cluster[1].base, table, "Other")
    a = await SeatClient(cluster[0].base, table, made["token"]).connect()
    b = await SeatClient(cluster[1].base, table, made["token"]).connect()
    o = await SeatClient(cluster[1].base, table, other["token"]).connect()
    await a.wait(lambda v: v["table"]["seats"][1] is not None)
    await a.send("start")
    await a.wait(lambda v: v["game"] is not None)
    races = 0
    for _ in range(300):
        if races >= 5:
            break
        await _settle(a, b, o)
        view = a.view
        assert view is not None
        game = view["game"]
        if view["table"]["status"] == "over":
            await a.send("rematch")
            await a.wait(lambda v, n=view["table"]["game"]: v["table"]["game"] > n)
            continue
        legal = game["legal"]
        if "income" in legal and "foreign_aid" in legal:
            before = len(game["history"])
            marks = len(a.errors), len(b.errors)
            await asyncio.gather(
                a.send("move", move="income", version=view["version"]),
                b.send("move", move="foreign_aid", version=view["version"]),
            )
            after = await a.wait(lambda v, n=before: len(v["game"]["history"]) > n)
            await asyncio.sleep(0.3)  # let the loser's refusal arrive
            refusals = a.errors[marks[0] :] + b.errors[marks[1] :]
            assert [e["code"] for e in refusals] == ["stale"], refusals
            assert after["game"]["history"][before]["seat"] == 0
            assert after["game"]["history"][before]["move"] in ("income", "foreign_aid")
            races += 1
        elif legal:
            pick = "income" if "income" in legal else legal[0]
            await a.send("move", move=pick, version=view["version"])
            await a.wait(lambda v, n=view["version"]: v["version"] > n)
        else:
            ov = o.view
            assert ov is not None and ov["game"]["legal"], ov
            moves = ov["game"]["legal"]
            pick = "pass" if "pass" in moves else ("income" if "income" in moves else moves[0])
            await o.send("move", move=pick, version=ov["version"])
            await a.wait(lambda v, n=view["version"]: v["version"] > n)
    assert races >= 5
    for c in (a, b, o):
        await c.close()


async def _every_process_counts(cluster: list[Any], table: str, spectators: int) -> None:
    """Wait until every process counts `spectators` (the GET of the table says what its
    views say), rather than for a fixed time: a loaded machine delivers the bus late."""
    for server in cluster:
        async with httpx.AsyncClient(base_url=server.base) as http:
            for _ in range(200):
                info = (await http.get(f"/api/tables/{table}")).json()["table"]
                if info["spectators"] == spectators:
                    break
                await asyncio.sleep(0.05)
            assert info["spectators"] == spectators, info


async def test_the_spectator_count_counts_every_process(cluster: list[Any]) -> None:
    """Spectators on both processes: every view counts them all; one leaving is seen by
    the other process at the next change; the GET of the table counts them all too."""
    table, clients = await _seat_table(cluster, humans=2)
    watchers = [await SeatClient(cluster[k].base, table).connect() for k in (0, 1, 1)]
    for w in watchers:
        await w.wait(lambda v: True)
    await _every_process_counts(cluster, table, 3)  # the counts' bus messages arrived
    for i, c in enumerate(clients):
        await c.send("chat", text=f"hello {i}")
        for seen in (*clients, *watchers):
            await seen.wait(lambda v, i=i: any(m["text"] == f"hello {i}" for m in v["chat"]))
            assert seen.view is not None and seen.view["table"]["spectators"] == 3
    for server in cluster:
        async with httpx.AsyncClient(base_url=server.base) as http:
            info = (await http.get(f"/api/tables/{table}")).json()["table"]
        assert info["spectators"] == 3
    await watchers[2].close()
    await _every_process_counts(cluster, table, 2)
    await clients[0].send("chat", text="bye")
    for seen in (*clients, *watchers[:2]):
        await seen.wait(lambda v: any(m["text"] == "bye" for m in v["chat"]))
        assert seen.view is not None and seen.view["table"]["spectators"] == 2
    for c in (*clients, *watchers[:2]):
        await c.close()


async def test_a_seat_goes_to_a_bot_only_when_its_player_is_away_from_every_process(
    cluster: list[Any],
) -> None:
    # The host is on process 0, P1 on process 1, a spectator on process 0.
    table, (host, guest) = await _seat_table(cluster, 2, 1, {"draft": False})
    watcher = await SeatClient(cluster[0].base, table).connect()
    await host.send("start")
    await host.wait(lambda v: v["table"]["status"] == "playing")
    await host.wait(lambda v: v["table"]["seats"][1]["connected"] is True)
    assert (await host.refused("hand_to_bot", seat=1))["code"] == "player_present"
    await guest.close()  # P1's only connection, on the other process, closes
    await host.wait(lambda v: v["table"]["seats"][1]["connected"] is False)
    await host.send("hand_to_bot", seat=1)
    # the bot sits in before P1 comes back (else the host's hand-over is refused, rightly:
    # "player_present", and the test would wait for a stand-in that never comes)
    await host.wait(lambda v: v["table"]["seats"][1]["standin"] == "host")
    # P1 comes back through process 1 and takes the seat back: process 0 tells it too.
    guest = await SeatClient(cluster[1].base, table, guest.token).connect()
    await guest.wait(lambda v: v["table"]["seats"][1]["standin"] == "host")
    await guest.send("take_back")
    for c in (host, watcher, guest):
        view = await c.wait(lambda v: len(v["table"]["handoffs"]) == 2)
        assert [h["reason"] for h in view["table"]["handoffs"]] == ["host", "back"]
    for c in (host, guest, watcher):
        await c.close()
