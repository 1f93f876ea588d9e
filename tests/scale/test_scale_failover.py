"""A process dies mid-game and the game finishes on the other; a table everybody left
still plays out its clocks (any process claims the deadlines)."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import httpx
import pytest

import coup
from tools.load.client import SeatClient, create_table, join_table, play_randomly

pytestmark = pytest.mark.timeout(150)


async def _play_until(clients: list[SeatClient], rng: random.Random, moves: int) -> None:
    """Random moves from every seat until the game's history has `moves` entries."""
    acted: dict[int, int] = {}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for i, c in enumerate(clients):
            v = c.view
            if v is None or v["game"] is None:
                continue
            if len(v["game"]["history"]) >= moves or v["game"]["over"]:
                return
            pos = len(v["game"]["history"])
            if v["game"]["legal"] and acted.get(i) != pos:
                acted[i] = pos
                await c.send("move", move=rng.choice(v["game"]["legal"]), version=v["version"])
        await asyncio.sleep(0.05)
    raise TimeoutError("the game did not get that far")


async def test_a_killed_process_game_finishes_on_the_other(spare_pair: list[Any]) -> None:
    a, b = spare_pair
    made = await create_table(a.base, "Host", {"seats": 4})
    table = made["table"]
    tokens = [made["token"]]
    for i, server in ((1, b), (2, a)):
        tokens.append((await join_table(server.base, table, f"P{i}"))["token"])
    homes = [a, b, a]
    clients = [
        await SeatClient(s.base, table, tok).connect() for s, tok in zip(homes, tokens, strict=True)
    ]
    await clients[0].wait(lambda v: v["you"]["host"])
    await clients[0].send("add_bot", seat=3)
    await clients[0].wait(lambda v: v["table"]["seats"][3] is not None)
    await clients[0].send("start")
    rng = random.Random(3)
    await _play_until(clients, rng, 8)
    a.kill()
    await asyncio.sleep(0.2)
    for c in clients:
        await c.close()
    # everybody (also the players who were on the dead process) goes on through b
    clients = [await SeatClient(b.base, table, tok).connect() for tok in tokens]
    finals = await asyncio.gather(*(play_randomly(c, rng, timeout=60) for c in clients))
    assert len({v["game"]["winner"] for v in finals}) == 1
    async with httpx.AsyncClient(base_url=b.base) as http:
        r = await http.get(f"/api/tables/{table}/games/1/record")
    assert r.status_code == 200, r.text
    record = r.json()
    ok, why = coup.verify(record)
    assert ok, why
    assert coup.replay(record).over
    for c in clients:
        await c.close()
    assert not b.problems()


async def test_a_table_everybody_left_finishes_its_clocks(spare_pair: list[Any]) -> None:
    a, b = spare_pair
    made = await create_table(a.base, "Leaver", {"seats": 2, "draft": False})
    table = made["table"]
    host = await SeatClient(a.base, table, made["token"]).connect()
    await host.wait(lambda v: v["you"]["host"])
    await host.send("add_bot", seat=1)
    await host.wait(lambda v: all(s is not None for s in v["table"]["seats"]))
    await host.send("start")
    await host.wait(lambda v: v["table"]["status"] == "playing")
    await host.close()  # nobody is connected any more; the away clock plays for seat 0
    async with httpx.AsyncClient(base_url=b.base) as http:
        deadline = time.monotonic() + 120
        status = None
        while time.monotonic() < deadline:
            status = (await http.get(f"/api/tables/{table}")).json()["table"]["status"]
            if status == "over":
                break
            await asyncio.sleep(0.5)
        assert status == "over"
        record = (await http.get(f"/api/tables/{table}/games/1/record")).json()
    ok, why = coup.verify(record)
    assert ok, why
    assert record["timeouts"], "the away clock played for the player who left"
