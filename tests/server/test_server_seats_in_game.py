"""Who plays a seat during a game, over real websockets: the host hands an absent or idle
player's seat to a bot (never a present, playing one's) and the player takes it back; a player leaves a running game (a
bot plays on, the seat is free at the next start); spectators chat, marked as watching,
unless the host turns it off."""

from __future__ import annotations

from typing import Any

from coup.server.table import GameRun, Seat, Table
from tools.load.client import SeatClient, create_table, join_table


async def _two_players(
    base: str, settings: dict[str, Any] | None = None
) -> tuple[str, SeatClient, SeatClient]:
    made = await create_table(base, "Mahshid", {"seats": 3, "draft": False, **(settings or {})})
    host = await SeatClient(base, made["table"], made["token"]).connect()
    guest_seat = await join_table(base, made["table"], "Sepideh", 1)
    guest = await SeatClient(base, made["table"], guest_seat["token"]).connect()
    await host.wait(lambda v: v["table"]["seats"][1] is not None)
    await host.send("add_bot", seat=2)
    await host.wait(lambda v: v["table"]["seats"][2] is not None)
    return made["table"], host, guest


def _moves_by(view: dict[str, Any], seat: int) -> int:
    return sum(1 for e in view["game"]["history"] if e["seat"] == seat)


async def test_host_hands_an_absent_players_seat_to_a_bot_and_they_take_it_back(
    base: str,
) -> None:
    _, host, guest = await _two_players(base)
    assert (await host.refused("hand_to_bot", seat=1))["code"] == "no_game_running"
    await host.send("start")
    await guest.wait(lambda v: v["table"]["status"] == "playing")
    assert (await guest.refused("hand_to_bot", seat=0))["code"] == "not_host"
    assert (await host.refused("hand_to_bot", seat=0))["code"] == "host_stays"
    assert (await host.refused("hand_to_bot", seat=2))["code"] == "bad_seat"
    assert (await host.refused("hand_to_bot", seat=7))["code"] == "bad_seat"
    assert (await guest.refused("take_back"))["code"] == "no_standin"
    # Sepideh is here and has not let the clock play for her: her seat stays hers.
    refused = await host.refused("hand_to_bot", seat=1)
    assert refused["code"] == "player_present"
    assert refused["message"] == (
        "Sepideh is here and playing; only an absent, idle or stalled player's seat can go to a bot"
    )
    assert host.view["table"]["seats"][1]["standin"] is None  # type: ignore[index]
    assert host.view["table"]["seats"][1]["idle"] is False  # type: ignore[index]

    # She goes away (her page closes): now the host may let a bot play for her.
    table, token = guest.table, guest.token
    await guest.close()
    await host.wait(lambda v: v["table"]["seats"][1]["connected"] is False)
    await host.send("hand_to_bot", seat=1)
    await host.wait(lambda v: v["table"]["seats"][1]["standin"] == "host")
    guest = await SeatClient(base, table, token).connect()
    view = await guest.wait(lambda v: v["table"]["seats"][1]["standin"] == "host")
    assert view["you"]["seat"] == 1  # still their seat: they see their cards
    assert view["game"]["players"][1]["cards"]
    assert view["table"]["handoffs"][-1]["seat"] == 1
    assert view["table"]["handoffs"][-1]["reason"] == "host"
    before = _moves_by(view, 1)
    # The bot plays for seat 1 whenever it is asked; the host plays income meanwhile.
    for _ in range(200):
        v = host.view
        assert v is not None
        if _moves_by(v, 1) > before or v["game"]["over"]:
            break
        if host.legal():
            await host.move("income" if "income" in host.legal() else host.legal()[0])
        await host.wait(lambda w, n=v["version"]: w["version"] > n, timeout=10)
    assert _moves_by(host.view, 1) > before or host.view["game"]["over"]  # type: ignore[index]
    if guest.legal():
        refused = await guest.refused("move", move=guest.legal()[0], version=guest.view["version"])  # type: ignore[index]
        assert refused["code"] == "bot_playing"

    await guest.send("take_back")
    view = await guest.wait(lambda v: v["table"]["seats"][1]["standin"] is None)
    assert view["table"]["handoffs"][-1]["reason"] == "back"
    for c in (host, guest):
        await c.close()


async def test_the_host_hands_over_an_idle_players_seat_once_the_clock_played_for_them(
    base: str,
) -> None:
    # Sepideh stays connected but never moves: the short clocks play for her.
    _, host, guest = await _two_players(base, {"turn_timer": 5, "reaction_timer": 3})
    await host.send("start")
    await guest.wait(lambda v: v["table"]["status"] == "playing")
    assert (await host.refused("hand_to_bot", seat=1))["code"] == "player_present"
    for _ in range(200):
        v = host.view
        assert v is not None
        if any(t["seat"] == 1 for t in v["table"]["timeouts"]) or v["game"]["over"]:
            break
        if host.legal():  # the host answers quickly (income, or pass when asked)
            legal = host.legal()
            await host.move(next((m for m in ("income", "pass") if m in legal), legal[0]))
        await host.wait(lambda w, n=v["version"]: w["version"] > n, timeout=20)
    view = host.view
    assert view is not None and not view["game"]["over"], "the game ended before a timeout"
    assert view["table"]["seats"][1]["connected"] is True
    assert view["table"]["seats"][1]["idle"] is True
    await host.send("hand_to_bot", seat=1)
    view = await guest.wait(lambda v: v["table"]["seats"][1]["standin"] == "host")
    assert view["table"]["handoffs"][-1]["reason"] == "host"
    await guest.send("take_back")  # back at the table: no longer idle
    view = await guest.wait(lambda v: v["table"]["seats"][1]["standin"] is None)
    for c in (host, guest):
        await c.close()


def test_a_seat_is_idle_from_a_clock_move_until_its_own_next_move() -> None:
    run = GameRun(1, None, {}, ["a", "b"], [], [], 1)
    assert not run.idle(1)
    run.moves = [{"seat": 0, "move": "income"}, {"seat": 1, "move": "income"}]
    run.timeouts = [{"index": 1, "seat": 1, "seq": 1}]
    assert run.idle(1) and not run.idle(0)
    run.moves.append({"seat": 0, "move": "tax"})
    run.moves.append({"seat": 1, "move": "pass"})  # Sepideh answers herself again
    assert not run.idle(1)
    assert run.public_timeouts() == [{"index": 1, "seat": 1}]


async def test_a_player_leaves_a_running_game(base: str) -> None:
    table, host, guest = await _two_players(base)
    await host.send("start")
    await guest.wait(lambda v: v["table"]["status"] == "playing")
    assert (await host.refused("leave"))["code"] == "host_stays"
    await guest.send("leave")
    view = await guest.wait(lambda v: v["you"]["seat"] is None)
    assert view["table"]["seats"][1]["standin"] == "left"
    assert view["game"]["players"][1]["cards"] is None  # a spectator's view now
    assert not view["game"]["legal"]
    assert view["table"]["handoffs"][-1] == {
        "index": view["table"]["handoffs"][-1]["index"],
        "seat": 1,
        "reason": "left",
    }
    # The token no longer holds a seat: it opens the table to watch, told she left.
    again = await SeatClient(base, table, guest.token).connect()
    told = await again.wait(lambda v: v["you"]["gone"] == "left")
    assert told["you"]["seat"] is None and again.closed is None
    await again.close()
    assert (await guest.refused("take_back"))["code"] == "not_seated"
    for c in (host, guest):
        await c.close()


def test_a_left_seat_is_free_at_the_next_start() -> None:
    table = Table("t", {"seats": 4, "bot_level": "easy"}, [None] * 4)
    table.seats[0] = Seat("a", "Mahshid", "human", None, "h0", True)
    table.seats[1] = Seat("b", "Sepideh", "human", "easy", None)  # left the last game
    table.seats[2] = Seat("c", "Bahareh", "human", "easy", "h2")  # a bot stands in
    table.seats[3] = Seat("d", "Bot 1", "bot", "easy")
    assert [s.standin if s else None for s in table.seats] == [None, "left", "host", None]
    assert table.holders() == {"a", "c", "d"} and table.seat_held("b") is None
    taken = table.close_up()
    assert [s.member for s in taken] == ["a", "c", "d"]


async def test_spectators_chat_when_the_host_turns_it_on(base: str) -> None:
    table, host, guest = await _two_players(base)
    watcher = await SeatClient(base, table).connect()
    view = await watcher.wait(lambda v: True)
    assert view["table"]["settings"]["spectator_chat"] is False  # off by default
    assert (await watcher.refused("chat", text="hi", name="Dara"))["code"] == "chat_off"
    await host.send("settings", settings={"spectator_chat": True})
    await watcher.wait(lambda v: v["table"]["settings"]["spectator_chat"] is True)
    assert (await watcher.refused("chat", text="hi"))["code"] == "bad_name"
    for taken in ("Mahshid", "ＭＡＨＳＨＩＤ", "Sepideh", "Bot 1", "Bot l"):  # seated names, alike
        assert (await watcher.refused("chat", text="hi", name=taken))["code"] == "name_taken"
    for hidden in ("Da\u200bra", "\u3164", "Dara\U000e0041", "\u2800"):
        assert (await watcher.refused("chat", text="hi", name=hidden))["code"] == "bad_name"
    assert (await watcher.refused("chat", text="hi", name="  "))["code"] == "bad_name"
    await watcher.send("chat", text="salam!", name="Dara")
    view = await host.wait(lambda v: any(c["text"] == "salam!" for c in v["chat"]))
    line = next(c for c in view["chat"] if c["text"] == "salam!")
    assert line["seat"] is None and line["watching"] is True and line["name"] == "Dara"
    await host.send("chat", text="hello")
    view = await watcher.wait(lambda v: any(c["text"] == "hello" for c in v["chat"]))
    assert "watching" not in next(c for c in view["chat"] if c["text"] == "hello")

    await host.send("start")
    await host.wait(lambda v: v["table"]["status"] == "playing")
    assert (await guest.refused("settings", settings={"spectator_chat": False}))[
        "code"
    ] == "not_host"
    assert (await host.refused("settings", settings={"seats": 5}))["code"] == "game_running"
    await host.send("settings", settings={"spectator_chat": False})
    await watcher.wait(lambda v: v["table"]["settings"]["spectator_chat"] is False)
    assert (await watcher.refused("chat", text="again", name="Dara"))["code"] == "chat_off"
    for c in (host, guest, watcher):
        await c.close()
