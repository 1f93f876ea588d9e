"""A Reformation table: the setting, its validation, and a whole game over websockets."""

from __future__ import annotations

import asyncio
import random

import httpx

import coup
from tools.load.client import SeatClient, create_table, join_table, play_randomly


async def test_a_reformation_table_plays_a_whole_game(base: str) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        cfg = (await http.get("/api/config")).json()
    assert cfg["defaults"]["reformation"] is False
    made = await create_table(base, "Sara", {"seats": 2, "reformation": True})
    table = made["table"]
    host = await SeatClient(base, table, made["token"]).connect()
    assert (await host.refused("settings", settings={"reformation": "yes"}))["code"] == (
        "bad_settings"
    )
    joined = await join_table(base, table, "Dara")
    guest = await SeatClient(base, table, joined["token"]).connect()
    await host.wait(lambda v: v["table"]["seats"][1] is not None)
    await host.send("start")
    started = await host.wait(lambda v: v["game"] is not None)
    game = started["game"]
    assert game["phase"] == "allegiance" and game["reserve"] == 0
    assert game["settings"]["reformation"] is True
    assert [p["allegiance"] for p in game["players"]] == [None, None]
    rng = random.Random(3)
    ends = await asyncio.gather(play_randomly(host, rng), play_randomly(guest, rng))
    final = ends[0]["game"]
    assert final["over"] and {p["allegiance"] for p in final["players"]} <= {
        "loyalist", "reformist"}  # fmt: skip
    async with httpx.AsyncClient(base_url=base) as http:
        record = (await http.get(f"/api/tables/{table}/games/1/record")).json()
    assert record["settings"]["reformation"] is True
    assert record["moves"][0]["move"].startswith("allegiance ")
    state = coup.replay(record)
    assert state.over and state.view(0)["history"] == final["history"]
    for c in (host, guest):
        await c.close()
