"""A table that lives all evening, over real websockets: a late friend sits down between
games; a removed player (or one who left) is told so, may sit again unless the host
blocks them, and the host may lock the table; the host fills the empty seats with bots and
sees who is watching; a connected player who stops answering gets a grace, then a clock
the others see, then the host may hand the seat to a bot and the player takes it back; a
stand-in carries into the rematch and the new game's handoffs say so; a player who left
and still watches is only a spectator."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import ServerProcess
from tools.load.client import SeatClient, create_table, join_table, play_randomly


async def _join(base: str, table: str, body: dict[str, Any]) -> httpx.Response:
    async with httpx.AsyncClient(base_url=base) as http:
        return await http.post(f"/api/tables/{table}/seats", json=body)


def _seat(view: dict[str, Any] | None, i: int) -> dict[str, Any]:
    assert view is not None
    seat: dict[str, Any] = view["table"]["seats"][i]
    return seat


async def _start_three(base: str) -> tuple[str, str, SeatClient, SeatClient]:
    """A table of the host (Mahshid), Sepideh and a bot, no timers, its game started:
    the table's id, Sepideh's token, and the host's and Sepideh's connections."""
    made = await create_table(
        base, "Mahshid", {"seats": 3, "draft": False, "reaction_timer": 0, "turn_timer": 0}
    )
    table = made["table"]
    host = await SeatClient(base, table, made["token"]).connect()
    guest_seat = await join_table(base, table, "Sepideh", 1)
    guest = await SeatClient(base, table, guest_seat["token"]).connect()
    await host.send("add_bot", seat=2)
    await host.wait(
        lambda v: v["table"]["seats"][2] is not None and v["table"]["seats"][1]["connected"]
    )
    await host.send("start")
    return table, guest_seat["token"], host, guest


async def _finish(host: SeatClient) -> dict[str, Any]:
    """The host plays at random until the game is over (the others are bots)."""
    return await play_randomly(host, random.Random(7), timeout=60)


async def test_a_late_friend_watches_a_running_game_and_sits_down_between_games(
    base: str,
) -> None:
    made = await create_table(base, "Mahshid", {"seats": 3, "draft": False})
    table = made["table"]
    host = await SeatClient(base, table, made["token"]).connect()
    await host.send("add_bot", seat=1)
    await host.wait(lambda v: v["table"]["seats"][1] is not None)
    await host.send("start")
    await host.wait(lambda v: v["table"]["status"] == "playing")
    friend = await SeatClient(base, table, name="Dara").connect()
    view = await friend.wait(lambda v: v["game"] is not None)
    assert view["you"] == {
        "seat": None,
        "host": False,
        "name": None,
        "gone": None,
        "blocked": False,
    }
    refused = await _join(base, table, {"name": "Dara"})
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "game_running")

    await _finish(host)
    await host.wait(lambda v: v["table"]["status"] == "over")
    # Between games anyone with the link sits in a free seat, without the host's lobby.
    seated = await _join(base, table, {"name": "Dara", "device": "dara-phone"})
    assert seated.status_code == 201 and seated.json()["seat"] == 2
    view = await host.wait(lambda v: v["table"]["seats"][2] is not None)
    assert _seat(view, 2)["name"] == "Dara"
    await host.send("rematch")
    dara = await SeatClient(base, table, seated.json()["token"]).connect()
    view = await dara.wait(lambda v: v["table"]["status"] == "playing" and v["table"]["game"] == 2)
    assert view["you"]["seat"] is not None and len(view["game"]["players"]) == 3
    for c in (host, friend, dara):
        await c.close()


async def test_the_host_sees_who_is_watching_and_fills_the_empty_seats_with_bots(
    base: str,
) -> None:
    made = await create_table(base, "Mahshid", {"seats": 5, "bot_level": "medium"})
    table = made["table"]
    host = await SeatClient(base, table, made["token"]).connect()
    dara = await SeatClient(base, table, name="Dara").connect()
    quiet = await SeatClient(base, table).connect()
    view = await host.wait(
        lambda v: v["table"]["watching"] == ["Dara"] and v["table"]["spectators"] == 2
    )
    assert view["table"]["watching"] == ["Dara"]  # and one who gave no name, counted
    await quiet.close()
    await host.wait(lambda v: v["table"]["spectators"] == 1)
    assert (await dara.refused("fill_bots"))["code"] == "not_seated"
    await host.send("fill_bots", personality="skeptic")
    view = await host.wait(lambda v: all(v["table"]["seats"]))
    bots = view["table"]["seats"][1:]
    assert [(s["kind"], s["level"], s["personality"]) for s in bots] == [
        ("bot", "medium", "skeptic")
    ] * 4
    assert len({s["name"] for s in bots}) == 4
    assert (await host.refused("fill_bots"))["code"] == "table_full"
    assert (await host.refused("fill_bots", level="godlike"))["code"] == "table_full"
    await host.send("remove", seat=2)
    await host.wait(lambda v: v["table"]["seats"][2] is None)
    assert (await host.refused("fill_bots", level="godlike"))["code"] == "bad_level"
    assert (await host.refused("fill_bots", personality="rude"))["code"] == "bad_personality"
    # Bots are not former players: nobody to block.
    assert host.view is not None and host.view["table"]["former"] == []
    await host.close()
    await dara.close()


async def test_a_removed_player_is_told_may_sit_again_and_the_host_may_block_them(
    base: str,
) -> None:
    made = await create_table(base, "Mahshid", {"seats": 3})
    table = made["table"]
    host = await SeatClient(base, table, made["token"]).connect()
    first = await join_table(base, table, "Sepideh", 1, device="sepideh-laptop")
    sepideh = await SeatClient(base, table, first["token"]).connect()
    await host.wait(lambda v: v["table"]["seats"][1] is not None)

    await host.send("remove", seat=1)
    view = await sepideh.wait(lambda v: v["you"]["gone"] == "removed")
    assert view["you"]["seat"] is None and view["you"]["blocked"] is False
    assert view["table"]["former"] == [{"name": "Sepideh", "gone": "removed", "blocked": False}]
    await sepideh.close()
    # Her old token still opens the table: she watches and is told (no close 4401).
    sepideh = await SeatClient(base, table, first["token"]).connect()
    view = await sepideh.wait(lambda v: v["you"]["gone"] == "removed")
    assert sepideh.closed is None and view["you"]["seat"] is None

    # Not blocked: she sits again, and is no longer a former player.
    again = await join_table(base, table, "Sepideh", 1, device="sepideh-laptop")
    view = await host.wait(lambda v: v["table"]["seats"][1] is not None)
    assert view["table"]["former"] == []
    await sepideh.close()
    sepideh = await SeatClient(base, table, again["token"]).connect()
    await sepideh.wait(lambda v: v["you"]["seat"] == 1)

    # Removed and blocked: the same browser cannot sit again; she is told.
    await host.send("remove", seat=1, block=True)
    view = await sepideh.wait(lambda v: v["you"]["gone"] == "removed")
    assert view["you"]["blocked"] is True
    refused = await _join(base, table, {"name": "Sepideh", "device": "sepideh-laptop"})
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "blocked")
    assert (await host.refused("block", index=3, blocked=False))["code"] == "bad_seat"
    assert (await sepideh.refused("block", index=0, blocked=False))["code"] == "not_seated"
    await host.send("block", index=0, blocked=False)
    view = await sepideh.wait(lambda v: v["you"]["blocked"] is False)
    assert view["table"]["former"][0]["blocked"] is False
    assert (
        await _join(base, table, {"name": "Sepideh", "device": "sepideh-laptop"})
    ).status_code == 201
    for c in (host, sepideh):
        await c.close()


async def test_the_host_locks_the_table_even_during_a_game(base: str) -> None:
    made = await create_table(base, "Mahshid", {"seats": 4})
    table = made["table"]
    host = await SeatClient(base, table, made["token"]).connect()
    await host.send("settings", settings={"locked": True})
    await host.wait(lambda v: v["table"]["settings"]["locked"] is True)
    refused = await _join(base, table, {"name": "Dara"})
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "table_locked")
    await host.send("add_bot", seat=1)  # the host still fills seats
    await host.wait(lambda v: v["table"]["seats"][1] is not None)
    await host.send("start")
    await host.wait(lambda v: v["table"]["status"] == "playing")
    await host.send("settings", settings={"locked": False, "spectator_chat": True})
    view = await host.wait(lambda v: v["table"]["settings"]["locked"] is False)
    assert view["table"]["settings"]["spectator_chat"] is True
    assert (await host.refused("settings", settings={"locked": True, "seats": 3}))[
        "code"
    ] == "game_running"
    await host.close()


async def test_a_player_who_left_and_watches_is_a_spectator_only(base: str) -> None:
    table, guest_token, host, guest = await _start_three(base)
    await guest.wait(lambda v: v["table"]["status"] == "playing")
    await guest.send("leave")
    view = await host.wait(lambda v: _seat(v, 1)["standin"] == "left")
    # Her page is still open (she watches): the seat is not hers, and not connected.
    assert _seat(view, 1)["connected"] is False
    mine = await guest.wait(lambda v: v["you"]["gone"] == "left")
    assert mine["you"]["seat"] is None and _seat(mine, 1)["connected"] is False
    assert view["table"]["spectators"] == 1
    await guest.close()
    view = await host.wait(lambda v: v["table"]["spectators"] == 0)
    assert _seat(view, 1)["connected"] is False
    # Her old token opens the table as a watcher, told she left; the seat stays unconnected.
    guest = await SeatClient(base, table, guest_token).connect()
    mine = await guest.wait(lambda v: v["you"]["gone"] == "left")
    assert _seat(mine, 1)["connected"] is False
    for c in (host, guest):
        await c.close()


@pytest.fixture(scope="module")
def quick_grace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose grace is 4 s, then a clock of 2 s."""
    db = tmp_path_factory.mktemp("grace") / "coup.db"
    proc = ServerProcess(f"sqlite:///{db}", "--grace", "4,2", log=db.parent / "server.log").start()
    yield proc
    proc.stop()


async def _silent_guest(base: str) -> tuple[SeatClient, SeatClient]:
    """A game of the host, Sepideh (who will not answer) and a bot, no timers; it is
    Sepideh's turn."""
    _, _, host, guest = await _start_three(base)
    for _ in range(60):  # the host and the bot play (income) until Sepideh must act
        view = await host.wait(lambda v: v["game"] is not None and not v["game"]["over"])
        if 1 in view["game"]["waiting"] and view["game"]["phase"] == "action":
            return host, guest
        if host.legal():
            move = (
                "income"
                if "income" in host.legal()
                else "pass"
                if "pass" in host.legal()
                else host.legal()[0]
            )
            await host.send("move", move=move, version=view["version"])
        if 1 in view["game"]["waiting"]:  # a reaction or a lost card of hers: answer it
            mine = await guest.wait(lambda v, n=view["version"]: v["version"] >= n)
            legal = mine["game"]["legal"]
            await guest.send("move", move="pass" if "pass" in legal else legal[0],
                             version=mine["version"])  # fmt: skip
        await host.wait(lambda v, n=view["version"]: v["version"] > n)
    raise AssertionError("Sepideh never had to act")


async def test_a_silent_player_gets_a_grace_then_a_clock_then_the_host_may_hand_the_seat_over(
    quick_grace: ServerProcess,
) -> None:
    base = quick_grace.base
    host, guest = await _silent_guest(base)
    first = host.view
    assert first is not None and first["table"]["deadline"] is None  # the grace is not shown
    assert _seat(first, 1)["stalled"] is False
    view = await host.wait(
        lambda v: (v["table"]["deadline"] or {}).get("kind") == "stall", timeout=30
    )
    assert view["table"]["deadline"]["seats"] == [1] and view["table"]["deadline"]["seconds"] == 2
    assert _seat(view, 1)["stalled"] is False and _seat(view, 1)["connected"] is True
    view = await host.wait(lambda v: _seat(v, 1)["stalled"] is True, timeout=30)
    assert view["table"]["deadline"] is None  # nothing more to count down
    mine = await guest.wait(lambda v: _seat(v, 1)["stalled"] is True)
    assert mine["game"]["legal"]  # still her decision until the host acts

    await host.send("hand_to_bot", seat=1)
    view = await host.wait(lambda v: _seat(v, 1)["standin"] == "host")
    assert view["table"]["handoffs"][-1]["seat"] == 1 and _seat(view, 1)["stalled"] is False
    await guest.wait(lambda v: len(v["game"]["history"]) > len(mine["game"]["history"]))
    await guest.send("take_back")
    view = await guest.wait(lambda v: _seat(v, 1)["standin"] is None)
    assert [h["reason"] for h in view["table"]["handoffs"]] == ["host", "back"]
    for c in (host, guest):
        await c.close()


async def test_a_stand_in_carries_into_the_rematch_and_its_handoffs_say_so(
    quick_grace: ServerProcess,
) -> None:
    base = quick_grace.base
    table, guest_token, host, guest = await _start_three(base)
    await host.wait(lambda v: v["table"]["status"] == "playing")
    await guest.close()
    await host.wait(lambda v: _seat(v, 1)["connected"] is False)
    await host.send("hand_to_bot", seat=1)
    await host.wait(lambda v: _seat(v, 1)["standin"] == "host")
    await _finish(host)
    await host.wait(lambda v: v["table"]["status"] == "over")

    await host.send("rematch")
    view = await host.wait(lambda v: v["table"]["game"] == 2)
    seat = next(i for i, s in enumerate(view["table"]["seats"]) if s and s["name"] == "Sepideh")
    assert _seat(view, seat)["standin"] == "host"
    assert view["table"]["handoffs"] == [{"index": 0, "seat": seat, "reason": "host"}]
    guest = await SeatClient(base, table, guest_token).connect()
    await guest.send("take_back")
    view = await guest.wait(lambda v: _seat(v, seat)["standin"] is None)
    handoffs = view["table"]["handoffs"]
    assert [(h["seat"], h["reason"]) for h in handoffs] == [(seat, "host"), (seat, "back")]
    assert handoffs[0]["index"] == 0
    for c in (host, guest):
        await c.close()
    # Stored with the game: the same after a kill -9 and a restart.
    quick_grace.kill()
    quick_grace.start()
    async with httpx.AsyncClient(base_url=base) as http:
        info = (await http.get(f"/api/tables/{table}")).json()["table"]
    assert info["handoffs"] == handoffs and info["game"] == 2


def test_former_players_are_bounded_the_oldest_unblocked_forgotten_first(tmp_path: Path) -> None:
    from coup.server.settings import DEFAULTS
    from coup.server.table import FORMER_KEEP, Table

    table = Table("t", dict(DEFAULTS), [None] * 4)
    table.sit("Host", 0, host=True)
    for k in range(FORMER_KEEP + 5):
        seat, _ = table.sit(f"P{k}", 1, device=f"d{k}")
        table.remove(seat, block=k == 0)
    assert len(table.former) == FORMER_KEEP
    names = [f.name for f in table.former]
    assert names[0] == "P0" and table.former[0].blocked  # the blocked one is kept
    assert names[1] == "P6" and names[-1] == f"P{FORMER_KEEP + 4}"


async def test_the_health_check_reports_the_coachs_queue(base: str) -> None:
    """The coach under load: its queue's depth (queued, of them asked for, running,
    skipped) is on /healthz; asked-for seats going first and the bounded backlog are
    tests/work/test_work_coach.py's."""
    async with httpx.AsyncClient(base_url=base) as http:
        health = (await http.get("/healthz")).json()
    assert set(health["coach"]) == {"queued", "asked", "running", "skipped"}
    assert all(isinstance(n, int) and n >= 0 for n in health["coach"].values())


def test_the_grace_then_its_clock_then_the_stall_as_the_clocks_plan_them() -> None:
    from coup.server.table import Deadline
    from coup.server.timers import FOREVER, _grace

    grace = (60.0, 30.0)
    fresh = _grace(None, 1_000, 1_000, grace)
    assert (fresh.kind, fresh.due_at, fresh.seconds) == ("grace", 61_000, 60)
    assert _grace(fresh, 1_000, 30_000, grace) is fresh  # a pass in the window: it runs on
    shown = _grace(fresh, 1_000, 61_000, grace)
    assert (shown.kind, shown.due_at, shown.seconds) == ("stall", 91_000, 30)
    assert _grace(shown, 1_000, 90_999, grace) is shown
    stalled = _grace(shown, 1_000, 91_000, grace)
    assert (stalled.kind, stalled.due_at) == ("stalled", FOREVER)
    assert _grace(stalled, 1_000, 10**9, grace) is stalled
    # Back from away (or read again after a restart): from when the decision began.
    away = Deadline("away", 40_000, 30, 1_000)
    assert _grace(away, 1_000, 50_000, grace).kind == "grace"
    assert _grace(away, 1_000, 70_000, grace).kind == "stall"
    assert _grace(away, 1_000, 95_000, grace).kind == "stalled"
