"""docs/protocol.md point by point, where an independent client found the document and
the server apart: each answer here is the one the document gives."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from tools.load.client import SeatClient, create_table, join_table


async def _raw(url: str, frames: list[str], until_close: bool = True) -> tuple[list[Any], Any]:
    """Send `frames` at once on a fresh socket; every message received, and the close code."""
    got: list[Any] = []
    async with websockets.connect(url, max_size=None) as ws:
        try:
            for frame in frames:
                await ws.send(frame)
            while True:
                got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
                if not until_close and got[-1]["type"] != "view":
                    return got, None
        except websockets.ConnectionClosed as exc:
            return got, exc.rcvd.code if exc.rcvd is not None else None
        except TimeoutError:
            return got, None


def _ws(base: str, table: str) -> str:
    return base.replace("http://", "ws://") + f"/ws/{table}"


# ---- names: one rule --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("a\nb", "a b"),
        ("a\tb", "a b"),
        ("a\rb", "a b"),
        ("a\r\n\r\nb", "a b"),
        ("a\u0085b", "a b"),
        ("a\u2028b", "a b"),
        ("  Mah\u3000shid  ", "Mah shid"),
        ("مه\u200cشید", "مه\u200cشید"),  # ZWNJ (Persian) stays
        ("\U0001f600" * 24, "\U0001f600" * 24),  # 24 code points (48 UTF-16 units)
    ],
)
async def test_a_name_s_spaces_and_line_breaks_become_one_space(
    base: str, sent: str, kept: str
) -> None:
    made = await create_table(base, sent)
    async with httpx.AsyncClient(base_url=base) as http:
        info = (await http.get(f"/api/tables/{made['table']}")).json()["table"]
    assert info["seats"][0]["name"] == kept


@pytest.mark.parametrize(
    "sent",
    ["a\x07b", "a\x1cb", "a\x7fb", "evil\u202eman", "a\u2066b", "\U0001f600" * 25, "x" * 25,
     " \n\t ", "a\ud800b", "a\ue000b"],
)  # fmt: skip
async def test_other_control_characters_and_long_names_are_refused(base: str, sent: str) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.post(
            "/api/tables",
            content=json.dumps({"name": sent}),
            headers={"content-type": "application/json"},
        )  # as \uXXXX
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_name"


# ---- rate limits ------------------------------------------------------------------------
async def test_rate_limited_errors_echo_the_id_and_replies_before_a_flood_close_arrive(
    base: str,
) -> None:
    made = await create_table(base, "Flooder")
    frames = [json.dumps({"type": "hello", "token": made["token"]})]
    frames += [json.dumps({"type": "ping", "id": i}) for i in range(60)]
    got, code = await _raw(_ws(base, made["table"]), frames)
    assert code == 4429
    pongs = [m["id"] for m in got if m["type"] == "pong"]
    limited = [m for m in got if m["type"] == "error"]
    assert pongs == list(range(len(pongs))) and len(pongs) >= 20  # none dropped by the close
    assert all(m["code"] == "rate_limited" for m in limited)
    assert [m["id"] for m in limited] == list(range(len(pongs), len(pongs) + len(limited)))
    assert len(pongs) + len(limited) == 40  # the 20th refusal in a row closes


# ---- moves ------------------------------------------------------------------------------
async def test_a_move_with_a_version_ahead_of_the_table_is_refused(base: str) -> None:
    made = await create_table(base, "Mahshid", {"seats": 2, "draft": False})
    host = await SeatClient(base, made["table"], made["token"]).connect()
    await host.send("add_bot", seat=1)
    await host.wait(lambda v: all(v["table"]["seats"]))
    await host.send("start")
    view = await host.wait(lambda v: v["table"]["status"] == "playing")
    error = await host.refused("move", move="income", version=view["version"] + 1000)
    assert error["code"] == "bad_version"
    await host.close()


# ---- lobby ------------------------------------------------------------------------------
async def test_fewer_seats_close_up_the_taken_ones_in_order(base: str) -> None:
    made = await create_table(base, "Host", {"seats": 6})
    table = made["table"]
    await join_table(base, table, "Far", 5)
    await join_table(base, table, "Mid", 3)
    host = await SeatClient(base, table, made["token"]).connect()
    await host.send("settings", settings={"seats": 3})
    view = await host.wait(lambda v: v["table"]["settings"]["seats"] == 3)
    assert [s and s["name"] for s in view["table"]["seats"]] == ["Host", "Mid", "Far"]
    refused = await host.refused("settings", settings={"seats": 2})
    assert refused["code"] == "bad_settings"
    await host.close()


# ---- HTTP answers -----------------------------------------------------------------------
async def test_http_answers_as_documented(base: str) -> None:
    made = await create_table(base, "Host")
    seats = f"/api/tables/{made['table']}/seats"
    async with httpx.AsyncClient(base_url=base) as http:
        cases: list[tuple[str, Any, int, str]] = [
            ("/api/tables", {"name": "x" * 9000}, 413, "too_large"),
            ("/api/tables", b"{nope", 400, "bad_json"),
            ("/api/tables", [1, 2], 400, "bad_json"),
            ("/api/tables", {"name": "A", "colour": "red"}, 400, "bad_message"),
            ("/api/tables", {"name": 5}, 400, "bad_message"),
            ("/api/tables", {}, 400, "bad_message"),
            ("/api/tables", {"name": "A", "settings": "big"}, 400, "bad_message"),
            ("/api/tables", {"name": "A", "settings": {"seats": 1}}, 400, "bad_settings"),
            (seats, {"name": "B", "seat": "1"}, 400, "bad_message"),  # as on the websocket
            (seats, {"name": "B", "seat": True}, 400, "bad_message"),
            (seats, {"name": "B", "seat": 1, "colour": 2}, 400, "bad_message"),
            (seats, {"name": "B", "seat": 99}, 400, "bad_seat"),
            (seats, {"name": "B", "seat": 0}, 409, "seat_taken"),
        ]
        for path, body, status, code in cases:
            if isinstance(body, bytes):
                r = await http.post(
                    path, content=body, headers={"content-type": "application/json"}
                )
            else:
                r = await http.post(path, json=body)
            assert (r.status_code, r.json()["error"]["code"]) == (status, code), (path, body)
        r = await http.post("/api/tables", json={"name": "A", "settings": None})
        assert r.status_code == 201  # null settings: the defaults
        config = (await http.get("/api/config")).json()
        info = (await http.get(f"/api/tables/{r.json()['table']}")).json()["table"]
        assert info["settings"] == config["defaults"]
        r = await http.post(seats, json={"name": "B", "seat": None})
        assert r.status_code == 201 and r.json()["seat"] == 1


# ---- the websocket's other answers ------------------------------------------------------
async def test_websocket_answers_as_documented(base: str) -> None:
    made = await create_table(base, "Host")
    url = _ws(base, made["table"])
    hello = json.dumps({"type": "hello", "token": made["token"]})
    # A second hello: bad_message with its id; the connection stays (the ping is answered).
    got, _ = await _raw(
        url, [hello, json.dumps({"type": "hello", "id": 7}), json.dumps({"type": "ping", "id": 8})],
        until_close=False,
    )  # fmt: skip
    assert [m["type"] for m in got][-1] == "error" and got[-1]["code"] == "bad_message"
    assert got[-1]["id"] == 7
    # A hello with an unknown field: bad_message, then close 4400.
    got, code = await _raw(url, [json.dumps({"type": "hello", "token": None, "x": 1, "id": 3})])
    assert [(m["code"], m.get("id")) for m in got] == [("bad_message", 3)] and code == 4400
    # An id over 64 characters: bad_message, without an id.
    host = await SeatClient(base, made["table"], made["token"]).connect()
    error = await host.refused("ping", id="x" * 65)
    assert error["code"] == "bad_message" and "id" not in error
    # Chat: line breaks kept as "\n", other control characters and bidi controls dropped.
    await host.send("chat", text="  a\r\nb\u2028c\x07d\u202ee\tf \n")
    view = await host.wait(lambda v: bool(v["chat"]))
    assert view["chat"][-1]["text"] == "a\nb\ncde\tf"
    await host.close()


async def test_one_connection_s_messages_are_answered_in_order(base: str) -> None:
    made = await create_table(base, "Host")
    frames = [json.dumps({"type": "hello", "token": made["token"]})]
    kinds = [{"type": "ping"}, {"type": "dance"}, {"type": "remove", "seat": 0},
             {"type": "chat", "text": " "}, {"type": "start"}]  # fmt: skip
    frames += [json.dumps({**k, "id": i}) for i in range(3) for k in kinds]
    async with websockets.connect(_ws(base, made["table"])) as ws:
        for frame in frames:
            await ws.send(frame)
        answers: list[Any] = []
        while len(answers) < len(frames) - 1:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if msg["type"] != "view":
                answers.append((msg.get("code", msg["type"]), msg["id"]))
    want = ["pong", "unknown_type", "host_stays", "chat_empty", "not_enough_players"]
    assert answers == [(w, i) for i in range(3) for w in want]


async def test_an_unknown_table_may_close_before_the_hello(base: str) -> None:
    got, code = await _raw(_ws(base, "no-such-table"), [])
    assert got == [] and code == 4404


# ---- spectators -------------------------------------------------------------------------
@pytest.fixture
def capped(tmp_path: Path, server_process: Any) -> Iterator[str]:
    proc = server_process(
        f"sqlite:///{tmp_path / 'capped.db'}", "--spectators", "2", log=tmp_path / "capped.log"
    ).start()
    yield proc.base
    proc.stop()


async def test_a_table_takes_as_many_spectators_as_the_server_allows(capped: str) -> None:
    made = await create_table(capped, "Host")
    watchers = [await SeatClient(capped, made["table"]).connect() for _ in range(2)]
    await watchers[0].wait(lambda v: v["table"]["spectators"] >= 1)
    third = await SeatClient(capped, made["table"]).connect()
    assert await third.wait_closed() == 4403
    assert third.errors[0]["code"] == "spectators_full"
    host = await SeatClient(capped, made["table"], made["token"]).connect()  # seats: always
    await host.send("chat", text="hi")
    view = await host.wait(lambda v: bool(v["chat"]))
    assert view["table"]["spectators"] == 2
    await watchers[0].close()
    await asyncio.sleep(0.3)
    again = await SeatClient(capped, made["table"]).connect()  # a place was freed
    await again.wait(lambda v: True)
    assert again.closed is None
    for c in (*watchers, host, again):
        await c.close()
