"""Playing over real websockets: create, join, host operations, a whole game, the
record, rematch, reconnecting and moving to another device."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

import coup
from tools.load.client import SeatClient, create_table, join_table, play_randomly


def replay_cli(record: dict[str, Any], tmp_path: Path) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    out = subprocess.run(
        [sys.executable, "-m", "coup", "replay", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


async def test_pages_and_config(base: str) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        for path in ("/", "/t/whatever"):
            r = await http.get(path)
            assert r.status_code == 200 and "text/html" in r.headers["content-type"]
            assert r.headers["referrer-policy"] == "no-referrer"
        cfg = (await http.get("/api/config")).json()
        assert cfg["seats"] == {"min": 2, "max": 10}
        assert "inquisitor" in cfg["characters"]
        health = (await http.get("/healthz")).json()
        assert health["ok"] is True and health["workers"]["workers"] >= 1
        assert (await http.get("/api/tables/nope")).status_code == 404


async def test_create_join_and_lobby(base: str) -> None:
    made = await create_table(base, "Mahshid", {"seats": 5, "turn_timer": 30})
    assert len(made["table"]) >= 22 and len(made["token"]) >= 43 and made["seat"] == 0
    assert made["rejoin"] == f"/t/{made['table']}#token={made['token']}"
    host = await SeatClient(base, made["table"], made["token"]).connect()
    view = await host.wait(lambda v: True)
    assert view["you"] == {
        "seat": 0,
        "host": True,
        "name": "Mahshid",
        "gone": None,
        "blocked": False,
    }
    assert view["table"]["settings"]["seats"] == 5 and view["game"] is None

    guest_seat = await join_table(base, made["table"], "Sepideh", 3)
    assert guest_seat["seat"] == 3 and not guest_seat["host"]
    guest = await SeatClient(base, made["table"], guest_seat["token"]).connect()
    await guest.wait(lambda v: v["you"]["seat"] == 3)
    await host.wait(lambda v: v["table"]["seats"][3] and v["table"]["seats"][3]["connected"])

    # Only the host may change the table.
    err = await guest.refused("add_bot", seat=1, id="x")
    assert err["code"] == "not_host" and err["id"] == "x"

    await host.send("add_bot", seat=1, level="easy")
    await host.send("move_seat", **{"from": 3, "to": 2})
    await host.send("settings", settings={"characters": "inquisitor", "reaction_timer": 10})
    view = await host.wait(
        lambda v: (
            v["table"]["settings"]["characters"] == "inquisitor"
            and v["table"]["seats"][2] is not None
        )
    )
    seats = view["table"]["seats"]
    assert seats[1]["kind"] == "bot" and seats[2]["name"] == "Sepideh" and seats[3] is None
    await guest.wait(lambda v: v["you"]["seat"] == 2)

    assert (await host.refused("remove", seat=0))["code"] == "host_stays"
    assert (await host.refused("settings", settings={"seats": 11}))["code"] == "bad_settings"

    # Seats taken, bad names, unknown tables.
    async with httpx.AsyncClient(base_url=base) as http:
        url = f"/api/tables/{made['table']}/seats"
        r = await http.post(url, json={"name": "X", "seat": 2})
        assert r.status_code == 409 and r.json()["error"]["code"] == "seat_taken"
        r = await http.post(url, json={"name": "   "})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_name"
        r = await http.post(url, json={"name": "X", "seat": 9})
        assert r.json()["error"]["code"] == "bad_seat"
        r = await http.post("/api/tables/nope/seats", json={"name": "X"})
        assert r.status_code == 404

    # The host removes the guest: the guest keeps watching, told so; its token holds no
    # seat (it opens the table to watch, told again); a token never given is refused.
    await host.send("remove", seat=2)
    await guest.wait(lambda v: v["you"]["seat"] is None and v["you"]["gone"] == "removed")
    again = await SeatClient(base, made["table"], guest_seat["token"]).connect()
    told = await again.wait(lambda v: v["you"]["gone"] == "removed")
    assert told["you"]["seat"] is None
    forged = await SeatClient(base, made["table"], "x" * 43).connect()
    assert await forged.wait_closed() == 4401
    assert forged.errors[0]["code"] == "bad_token"
    for c in (host, guest, again, forged):
        await c.close()


async def test_whole_game_record_and_rematch(base: str, tmp_path: Path) -> None:
    rng = random.Random(7)
    made = await create_table(base, "Mahshid", {"seats": 4})
    table = made["table"]
    host = await SeatClient(base, table, made["token"]).connect()
    other = await join_table(base, table, "Sepideh")
    guest = await SeatClient(base, table, other["token"]).connect()
    watcher = await SeatClient(base, table).connect()
    await host.send("add_bot", seat=2)
    await host.send("add_bot", seat=3, level="medium")
    await host.wait(lambda v: v["table"]["seats"][3] is not None)
    await host.send("start")
    started = await watcher.wait(lambda v: v["table"]["status"] == "playing")
    commitment = started["table"]["commitment"]
    assert started["table"]["seed"] is None and len(commitment) == 64
    assert all(p["cards"] is None for p in started["game"]["players"])

    # Reading the record of a running game is refused (its seed is secret).
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.get(f"/api/tables/{table}/games/1/record")
        assert r.status_code == 409

    ends = await asyncio.gather(play_randomly(host, rng), play_randomly(guest, rng))
    final = await watcher.wait(lambda v: v["table"]["status"] == "over")
    assert ends[0]["game"]["winner"] == final["game"]["winner"] == final["table"]["winner"]
    seed = final["table"]["seed"]
    assert hashlib.sha256(seed.encode()).hexdigest() == commitment
    assert all(p["cards"] is not None for p in final["game"]["players"])  # all revealed

    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.get(f"/api/tables/{table}/games/1/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = r.json()
    assert (
        record["format"] == "coup-record/1" and record["seed"] == seed
    )  # a 128-bit seed: written as a string
    assert record["commitment"] == commitment
    state = coup.replay(record)
    assert state.over and state.winner == final["game"]["winner"]
    assert state.view(None)["history"] == final["game"]["history"]

    # `coup replay` checks the commitment and says verified.
    assert "verified" in replay_cli(record, tmp_path)

    # Rematch: the last winner starts.
    winner_name = final["game"]["players"][final["game"]["winner"]]["name"]
    assert (await guest.refused("rematch"))["code"] == "not_host"
    await host.send("rematch")
    second = await watcher.wait(
        lambda v: v["table"]["game"] == 2 and v["table"]["status"] == "playing"
    )
    first = second["table"]["first"]
    assert second["game"]["players"][first]["name"] == winner_name
    assert second["table"]["commitment"] != commitment
    for c in (host, guest, watcher):
        await c.close()


async def test_reconnect_and_second_device(base: str) -> None:
    made = await create_table(base, "Mahshid", {"seats": 2, "draft": False})
    table, token = made["table"], made["token"]
    host = await SeatClient(base, table, token).connect()
    await host.send("add_bot", seat=1)
    await host.wait(lambda v: v["table"]["seats"][1] is not None)
    await host.send("start")
    view = await host.wait(lambda v: v["game"] is not None and v["game"]["legal"])
    mine = view["game"]["players"][0]["cards"]
    await host.close()

    # Refreshing: the same token on a new connection gets the current view at once.
    back = await SeatClient(base, table, token).connect()
    now = await back.wait(lambda v: True)
    assert now["you"]["seat"] == 0 and now["game"]["players"][0]["cards"] == mine
    assert now["version"] >= view["version"]
    # A second device (the rejoin link) plays the same seat.
    phone = await SeatClient(base, table, token).connect()
    await phone.wait(lambda v: v["game"] is not None)
    legal = phone.legal()
    if legal:
        await phone.move(legal[0])
        await back.wait(lambda v: len(v["game"]["history"]) > len(now["game"]["history"]))
    for c in (back, phone):
        await c.close()


async def test_full_table_running_game_and_leaving(base: str) -> None:
    made = await create_table(base, "Mahshid", {"seats": 2, "draft": False, "spectator_chat": True})
    table = made["table"]
    host = await SeatClient(base, table, made["token"]).connect()
    guest_seat = await join_table(base, table, "Sepideh")
    guest = await SeatClient(base, table, guest_seat["token"]).connect()
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.post(f"/api/tables/{table}/seats", json={"name": "Bahareh"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "table_full"
    # The guest leaves: the seat is free again and the token no longer holds it.
    await guest.send("leave")
    await guest.wait(lambda v: v["you"]["seat"] is None and v["table"]["seats"][1] is None)
    back = await join_table(base, table, "Bahareh", 1)
    again = await SeatClient(base, table, back["token"]).connect()
    await host.send("start")
    await host.wait(lambda v: v["table"]["status"] == "playing")
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.post(f"/api/tables/{table}/seats", json={"name": "Late"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "game_running"
    assert (await again.refused("take_back"))["code"] == "no_standin"
    assert (await host.refused("add_bot", seat=1))["code"] == "game_running"
    assert (await guest.refused("chat", text="hi"))["code"] == "bad_name"  # a spectator now
    for c in (host, guest, again):
        await c.close()
