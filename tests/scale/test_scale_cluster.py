"""Two `coup serve` processes, one PostgreSQL, one Redis: one table's players spread over
both play whole games, a racing move is accepted once, a killed process's game goes on."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

import coup
from coup.server.client import SeatClient, create_table, join_table, play_randomly

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
    for c in clients:
        assert not [e for e in c.errors if e["code"] not in ("stale", "illegal_move")], c.errors
    records = [await _record(s.base, table) for s in cluster]
    assert records[0] == records[1]
    _check_record(records[0])
    assert records[0]["winner"] in winners
    for c in clients:
        await c.close()


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
    races = 0
    rng = random.Random(9)
    for _ in range(200):
        if races >= 12:
            break
        view = await a.wait(lambda v: v["game"] is not None and v["table"]["status"] != "lobby")
        game = view["game"]
        if game["over"]:
            break
        if game["legal"] and "income" in game["legal"] and "foreign_aid" in game["legal"]:
            await b.wait(lambda v, n=view["version"]: v["version"] >= n)
            before = len(game["history"])
            errors_a, errors_b = len(a.errors), len(b.errors)
            await asyncio.gather(
                a.send("move", move="income", version=view["version"]),
                b.send("move", move="foreign_aid", version=view["version"]),
            )
            after = await a.wait(lambda v, n=before: len(v["game"]["history"]) > n)
            await asyncio.sleep(0.3)  # let the loser's refusal arrive
            refused = (len(a.errors) - errors_a) + (len(b.errors) - errors_b)
            played = [h for h in after["game"]["history"][before:] if h.get("seat") == 0]
            assert refused == 1, (a.errors, b.errors)
            assert [e["code"] for e in (a.errors[errors_a:] + b.errors[errors_b:])] == ["stale"]
            assert played and played[0]["move"] in ("income", "foreign_aid")
            races += 1
            continue
        # not a racing position: someone plays on (seat 0 through a, seat 1 through o)
        mover = a if game["legal"] else o
        mview = await mover.wait(lambda v: v["game"] is not None)
        if mview["game"]["legal"]:
            await mover.send(
                "move", move=rng.choice(mview["game"]["legal"]), version=mview["version"]
            )
        await asyncio.sleep(0.05)
        if not game["legal"]:
            ov = o.view
            if ov and ov["game"] and ov["game"]["legal"]:
                await o.send("move", move=rng.choice(ov["game"]["legal"]), version=ov["version"])
    assert races >= 3
    for c in (a, b, o):
        await c.close()
