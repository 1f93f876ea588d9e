"""Killing the server (kill -9) loses nothing: tables, seats, games, chat and running
timers come back exactly, and the game can be finished."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import coup
from tools.load.client import SeatClient, create_table, join_table, play_randomly
from tools.load.fleet import drop_database, make_database


@pytest.fixture
def restartable(tmp_path: Path, server_process: Any) -> Iterator[Any]:
    proc = server_process(
        f"sqlite:///{tmp_path / 'coup.db'}", "--away", "4", log=tmp_path / "server.log"
    )
    proc.start()
    yield proc
    proc.stop()
    text = proc.log.read_text(errors="replace")
    assert "Traceback" not in text, text[-4000:]


async def test_kill_mid_game_and_finish(restartable: Any) -> None:
    base = restartable.base
    rng = random.Random(3)
    made = await create_table(base, "Mahshid", {"seats": 4, "reaction_timer": 0})
    table, token = made["table"], made["token"]
    guest_seat = await join_table(base, table, "Sepideh")
    host = await SeatClient(base, table, token).connect()
    guest = await SeatClient(base, table, guest_seat["token"]).connect()
    await host.send("add_bot", seat=2)
    await host.send("add_bot", seat=3)
    await host.wait(lambda v: all(v["table"]["seats"]))
    await host.send("chat", text="before the crash")
    await host.send("start")
    await host.wait(lambda v: v["table"]["status"] == "playing")

    # Play until a few moves are down and it is one of the people's turn to decide.
    async def some_moves(client: SeatClient) -> None:
        while True:
            v = await client.wait(lambda v: True)
            if len(v["game"]["history"]) >= 6 or v["game"]["over"]:
                return
            legal = client.legal()
            if legal:
                await client.move(rng.choice(legal))
            await client.wait(lambda w, v=v: w["version"] > v["version"])

    movers = [asyncio.create_task(some_moves(host)), asyncio.create_task(some_moves(guest))]
    await asyncio.wait(movers, timeout=30, return_when=asyncio.FIRST_COMPLETED)
    for task in movers:
        task.cancel()
    await asyncio.gather(*movers, return_exceptions=True)
    await asyncio.sleep(0.3)
    seen = max((c.view for c in (host, guest) if c.view is not None), key=lambda v: v["version"])
    restartable.kill()
    await host.close()
    await guest.close()

    restartable.start()
    back = await SeatClient(base, table, token).connect()
    now = await back.wait(lambda v: True)
    assert now["version"] >= seen["version"]
    assert now["table"]["commitment"] == seen["table"]["commitment"]
    assert now["game"]["history"][: len(seen["game"]["history"])] == seen["game"]["history"]
    assert now["game"]["players"][0]["cards"] == seen["game"]["players"][0]["cards"] or (
        len(now["game"]["history"]) > len(seen["game"]["history"])
    )
    assert [c["text"] for c in now["chat"]] == ["before the crash"]
    assert now["you"] == {
        "seat": 0,
        "host": True,
        "name": "Mahshid",
        "gone": None,
        "blocked": False,
    }
    guest2 = await SeatClient(base, table, guest_seat["token"]).connect()
    if not now["game"]["over"]:
        await asyncio.gather(play_randomly(back, rng), play_randomly(guest2, rng))
    final = await back.wait(lambda v: v["table"]["status"] == "over")
    async with httpx.AsyncClient(base_url=base) as http:
        record = (await http.get(f"/api/tables/{table}/games/1/record")).json()
    state = coup.replay(record)
    assert state.over and state.winner == final["game"]["winner"]
    assert coup.commitment(record["seed"]) == record["commitment"]
    for c in (back, guest2):
        await c.close()


async def test_running_timer_survives_a_kill(restartable: Any) -> None:
    base = restartable.base
    settings = {"seats": 2, "draft": False, "turn_timer": 12, "reaction_timer": 3}
    made = await create_table(base, "Mahshid", settings)
    table, token = made["table"], made["token"]
    host = await SeatClient(base, table, token).connect()
    await host.send("add_bot", seat=1)
    await host.wait(lambda v: all(v["table"]["seats"]))
    await host.send("start")
    mine = await host.wait(
        lambda v: v["game"] is not None and "income" in v["game"]["legal"], timeout=20
    )
    deadline = mine["table"]["deadline"]
    assert deadline["kind"] == "turn" and deadline["seats"] == [0] and deadline["seconds"] == 12
    restartable.kill()
    await host.close()

    restartable.start()
    back = await SeatClient(base, table, token).connect()
    now = await back.wait(lambda v: v["table"]["seats"][0]["connected"])
    assert now["table"]["deadline"]["at"] == deadline["at"]  # the same clock, not a new one
    # Nobody moves: the timer plays the default move (income) and says so.
    start = len(mine["game"]["history"])
    done = await back.wait(
        lambda v: any(t["index"] >= start for t in v["table"]["timeouts"]), timeout=30
    )
    timeout = next(t for t in done["table"]["timeouts"] if t["index"] >= start)
    assert timeout["seat"] == 0
    played = done["game"]["history"][timeout["index"]]
    assert played["seat"] == 0 and played["move"] in ("income", "coup 1")
    await back.close()


async def test_a_player_who_left_is_played_by_the_timer(restartable: Any) -> None:
    base = restartable.base
    made = await create_table(base, "Mahshid", {"seats": 2, "draft": True, "turn_timer": 0})
    table, token = made["table"], made["token"]
    host = await SeatClient(base, table, token).connect()
    await host.send("add_bot", seat=1)
    await host.wait(lambda v: all(v["table"]["seats"]))
    await host.send("start")
    await host.wait(lambda v: v["game"] is not None and bool(v["game"]["legal"]))
    await host.close()  # the host leaves; timers are off, but the game must not hang
    watcher = await SeatClient(base, table).connect()
    view = await watcher.wait(lambda v: len(v["table"]["timeouts"]) >= 2, timeout=30)
    assert {t["seat"] for t in view["table"]["timeouts"]} == {0}
    assert view["table"]["seats"][0]["connected"] is False
    await watcher.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def restartable_on(
    request: pytest.FixtureRequest, tmp_path: Path, server_process: Any
) -> Iterator[Any]:
    """A server that a test may kill -9 and start again, on SQLite or on a PostgreSQL
    database of its own (dropped after the test)."""
    made = None
    postgres = os.environ.get("COUP_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'coup.db'}"
    else:
        try:
            made, url = make_database(postgres, "coup_restart_test")
        except OSError as exc:  # pragma: no cover - PostgreSQL not running
            pytest.skip(f"PostgreSQL is not reachable: {exc}")
    proc = server_process(url, log=tmp_path / "server.log").start()
    yield proc
    proc.stop()
    if made is not None:
        drop_database(postgres, made)
    text = proc.log.read_text(errors="replace")
    assert "Traceback" not in text, text[-4000:]


async def test_the_log_still_tells_who_played_a_seat_after_a_kill(restartable_on: Any) -> None:
    base = restartable_on.base
    made = await create_table(base, "Mahshid", {"seats": 3, "draft": False})
    table, token = made["table"], made["token"]
    joined = await join_table(base, table, "Sepideh", 1)
    host = await SeatClient(base, table, token).connect()
    guest = await SeatClient(base, table, joined["token"]).connect()
    await host.send("add_bot", seat=2)
    await host.wait(lambda v: all(v["table"]["seats"]))
    await host.send("start")
    await host.wait(lambda v: v["table"]["status"] == "playing")
    # Sepideh's page closes; the host lets a bot play for her; she comes back and plays.
    await guest.close()
    await host.wait(lambda v: v["table"]["seats"][1]["connected"] is False)
    await host.send("hand_to_bot", seat=1)
    await host.wait(lambda v: v["table"]["seats"][1]["standin"] == "host")
    guest = await SeatClient(base, table, joined["token"]).connect()
    await guest.send("take_back")
    seen = await host.wait(lambda v: len(v["table"]["handoffs"]) == 2)
    assert [h["reason"] for h in seen["table"]["handoffs"]] == ["host", "back"]
    await asyncio.sleep(0.3)

    restartable_on.kill()
    for c in (host, guest):
        await c.close()
    restartable_on.start()
    host = await SeatClient(base, table, token).connect()
    now = await host.wait(lambda v: True)
    assert now["table"]["handoffs"] == seen["table"]["handoffs"]
    # After the restart the log goes on: she leaves the game, and that is kept too.
    guest = await SeatClient(base, table, joined["token"]).connect()
    await guest.send("leave")
    left = await host.wait(lambda v: len(v["table"]["handoffs"]) == 3)
    assert left["table"]["handoffs"][:2] == seen["table"]["handoffs"]
    assert left["table"]["handoffs"][2]["reason"] == "left"
    await asyncio.sleep(0.3)

    restartable_on.kill()
    for c in (host, guest):
        await c.close()
    restartable_on.start()
    watcher = await SeatClient(base, table).connect()
    again = await watcher.wait(lambda v: True)
    assert again["table"]["handoffs"] == left["table"]["handoffs"]
    assert again["table"]["seats"][1]["standin"] == "left"
    await watcher.close()
