"""The guided first game (`tutorial` setting): the scripts are legal, the deal is fixed,
the settings are checked, and a whole tutorial is played over a websocket."""

from __future__ import annotations

import random
from dataclasses import replace

import httpx
import pytest

import coup
from coup.server import settings as table_settings
from coup.server import tutorial
from coup.server.protocol import ProtocolError
from tools.load.client import SeatClient, create_table, play_randomly

NAMES = ["Sara", "Bot 1", "Bot 2"]


@pytest.mark.parametrize("name", sorted(tutorial.SCRIPTS))
def test_each_script_plays_to_its_end_whoever_passes_first(name: str) -> None:
    script = tutorial.SCRIPTS[name]
    assert tutorial.playable(script, person_first=True)
    assert tutorial.playable(script, person_first=False)


def test_a_script_with_a_wrong_seed_or_move_is_caught() -> None:
    # the seed decides what replaces the proven Duke: most give no Ambassador to block with
    wrong = [s for s in range(1, 6) if not tutorial.playable(replace(tutorial.BASE, seed=s),
                                                              person_first=True)]  # fmt: skip
    assert wrong
    moves = list(tutorial.BASE.moves)
    moves[4] = (2, "reveal duke")  # Bot 2 holds no Duke
    assert not tutorial.playable(replace(tutorial.BASE, moves=tuple(moves)), person_first=True)


def test_off_the_script_the_bots_decide_for_themselves() -> None:
    state = tutorial.new_game(tutorial.BASE, NAMES)
    state.play(0, "foreign_aid")  # the script's first move is income
    assert tutorial.position(tutorial.BASE, state) is None
    assert tutorial.bot_move(tutorial.BASE, state, 1) is None  # the easy bot decides
    state = tutorial.new_game(tutorial.BASE, NAMES)
    state.play(0, "income")
    assert tutorial.bot_move(tutorial.BASE, state, 1) == "foreign_aid"
    assert tutorial.bot_move(tutorial.BASE, state, 2) is None  # not waiting: nothing legal


@pytest.mark.parametrize("name", sorted(tutorial.SCRIPTS))
def test_the_deal_is_fixed(name: str) -> None:
    script = tutorial.SCRIPTS[name]
    a, b = tutorial.new_game(script, NAMES), tutorial.new_game(script, NAMES)
    assert a.record() == b.record()
    assert a.record()["deal"] == script.deal
    assert a.turn == tutorial.PERSON


def test_each_step_waits_for_the_move_the_script_plays_there() -> None:
    for script in tutorial.SCRIPTS.values():
        ats = [s.at for s in script.steps]
        assert ats == sorted(ats) and ats[-1] == len(script.moves)
        for step in script.steps:
            if step.move is None or step.move == "pass":
                continue
            assert script.moves[step.at] == (tutorial.PERSON, step.move), step


def test_the_base_script_teaches_what_it_says() -> None:
    moves = [m for _, m in tutorial.BASE.moves]
    for want in ("income", "foreign_aid", "tax", "steal 0", "block ambassador",
                 "assassinate 0", "block contessa", "exchange", "coup 1"):  # fmt: skip
        assert want in moves
    person = [m for s, m in tutorial.BASE.moves if s == tutorial.PERSON]
    assert any(m.startswith("lose ") for m in person)  # the person loses influence
    assert 26 <= len(tutorial.BASE.moves) + 8 <= 40 and 15 <= len(tutorial.BASE.steps) <= 24
    for epilogue in (tutorial.INQUISITOR, tutorial.REFORMATION):
        assert 5 <= len(epilogue.steps) <= 8


def test_the_settings_are_checked_with_clear_errors() -> None:
    base = dict(table_settings.DEFAULTS)
    assert base["tutorial"] is None and base["hints"] is True
    made = table_settings.merge(base, {"tutorial": "base"})
    assert made["seats"] == 3 and made["reaction_timer"] == 0 and made["turn_timer"] == 0
    ref = table_settings.merge(base, {"tutorial": "reformation"})
    assert ref["reformation"] is True
    assert table_settings.merge(base, {"tutorial": "inquisitor"})["characters"] == "inquisitor"
    cases = [
        ({"tutorial": "chess"}, "tutorial must be null or one of base, inquisitor, reformation"),
        ({"tutorial": "base", "seats": 4}, "a base tutorial plays with seats 3"),
        ({"hints": "yes"}, "hints must be true or false"),
    ]
    for patch, message in cases:
        with pytest.raises(ProtocolError) as err:
            table_settings.merge(base, patch)
        assert err.value.code == "bad_settings" and message in str(err.value.message)
    with pytest.raises(ProtocolError) as err:
        table_settings.merge(made, {"reformation": True})
    assert "turn tutorial off first" in err.value.message
    off = table_settings.merge(made, {"tutorial": None, "seats": 5})
    assert off["tutorial"] is None and off["seats"] == 5
    assert table_settings.merge(base, {"hints": False})["hints"] is False


async def test_config_lists_the_scripts(base: str) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        cfg = (await http.get("/api/config")).json()
    assert cfg["defaults"]["tutorial"] is None and cfg["defaults"]["hints"] is True
    assert set(cfg["tutorials"]) == {"base", "inquisitor", "reformation"}
    steps = cfg["tutorials"]["base"]["steps"]
    assert steps[0] == {"key": "welcome", "at": 0, "target": "me", "move": None}
    assert cfg["tutorials"]["base"]["moves"][0] == {"seat": 0, "move": "income"}


async def test_a_tutorial_needs_one_person_and_two_bots(base: str) -> None:
    made = await create_table(base, "Sara", {"tutorial": "base"})
    host = await SeatClient(base, made["table"], made["token"]).connect()
    await host.wait(lambda v: len(v["table"]["seats"]) == 3)
    await host.send("add_bot", seat=2)
    await host.wait(lambda v: v["table"]["seats"][2] is not None)
    error = await host.refused("start")
    assert error["code"] == "tutorial_seats"
    await host.close()


@pytest.mark.parametrize("name", sorted(tutorial.SCRIPTS))
async def test_a_whole_tutorial_over_the_socket(base: str, name: str) -> None:
    script = tutorial.SCRIPTS[name]
    made = await create_table(base, "Sara", {"tutorial": name})
    table = made["table"]
    host = await SeatClient(base, table, made["token"]).connect()
    await host.wait(lambda v: len(v["table"]["seats"]) == 3)
    for seat in (1, 2):
        await host.send("add_bot", seat=seat, level="easy")
    await host.wait(lambda v: all(v["table"]["seats"]))
    await host.send("start")
    view = await host.wait(lambda v: v["game"] is not None)
    assert view["game"]["players"][0]["cards"] == sorted(script.deal["hands"][0])
    mirror = tutorial.new_game(script, [p["name"] for p in view["game"]["players"]])
    done = len(mirror.history)
    while True:
        # follow the game's moves on a mirror (same deal and seed: the same draws)
        view = await host.wait(
            lambda v, n=done: len(v["game"]["history"]) > n or v["game"]["legal"]
        )
        history = view["game"]["history"]
        for entry in history[done:]:
            if not entry.get("forced"):
                move = entry["move"]
                if move == "keep":  # redacted: not ours
                    raise AssertionError("a bot exchanged in the script")
                mirror.play(entry["seat"], move)
        done = len(history)
        at = tutorial.position(script, mirror)
        assert at is not None, str([(e["seat"], e["move"]) for e in history])
        if at == len(script.moves):
            break
        legal = view["game"]["legal"]
        if legal and len(mirror.history) == len(history):
            move = tutorial.person_move(script, mirror)
            assert move is not None and move in legal, (move, legal)
            await host.move(move)
            await host.wait(lambda v, n=done: len(v["game"]["history"]) > n)
    final = await play_randomly(host, random.Random(5), timeout=30)
    assert final["game"]["over"]
    async with httpx.AsyncClient(base_url=base) as http:
        record = (await http.get(f"/api/tables/{table}/games/1/record")).json()
    assert record["deal"] == script.deal and coup.replay(record).over
    await host.close()
