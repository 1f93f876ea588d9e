"""Bad input gets a clear error and changes nothing."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from coup.server.protocol import HELLO_TIMEOUT
from tools.load.client import SeatClient, create_table


async def _game(base: str) -> tuple[SeatClient, SeatClient, str]:
    made = await create_table(
        base, "Mahshid", {"seats": 3, "reaction_timer": 0, "spectator_chat": True}
    )
    host = await SeatClient(base, made["table"], made["token"]).connect()
    watcher = await SeatClient(base, made["table"]).connect()
    await host.send("add_bot", seat=1)
    await host.send("add_bot", seat=2)
    await host.wait(lambda v: all(v["table"]["seats"]))
    return host, watcher, made["table"]


async def test_bad_messages_are_refused_and_change_nothing(base: str) -> None:
    host, watcher, _ = await _game(base)
    before = (await host.wait(lambda v: True))["version"]
    cases: list[tuple[str | bytes, str]] = [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        ("[" * 4000, "bad_json"),
        (json.dumps({"type": "chat", "text": "x" * 5000}), "too_large"),
        (json.dumps({"kind": "move"}), "bad_message"),
        (json.dumps({"type": "dance"}), "unknown_type"),
        (json.dumps({"type": "move", "move": "income"}), "bad_message"),
        (json.dumps({"type": "move", "move": "income", "version": "7"}), "bad_message"),
        (json.dumps({"type": "add_bot", "seat": True}), "bad_message"),
        (json.dumps({"type": "chat", "text": "hi", "color": "red"}), "bad_message"),
        (json.dumps({"type": "chat", "text": "hi", "id": {"a": 1}}), "bad_message"),
        (json.dumps({"type": "hello", "token": None}), "bad_message"),
        (json.dumps({"type": "move", "move": "income", "version": before}), "no_game_running"),
        (json.dumps({"type": "chat", "text": "   "}), "chat_empty"),
        (json.dumps({"type": "chat", "text": "y" * 301}), "chat_too_long"),
        (json.dumps({"type": "add_bot", "seat": 1}), "seat_taken"),
        (json.dumps({"type": "add_bot", "seat": 7}), "bad_seat"),
        (json.dumps({"type": "add_bot", "seat": 1, "level": "godlike"}), "bad_level"),
        (json.dumps({"type": "remove", "seat": 0}), "host_stays"),
        (json.dumps({"type": "leave"}), "host_stays"),
        (json.dumps({"type": "settings", "settings": {"turn_timer": 2}}), "bad_settings"),
        (json.dumps({"type": "settings", "settings": {"colour": 2}}), "bad_settings"),
        (json.dumps({"type": "settings", "settings": {"seats": 2}}), "bad_settings"),
        (json.dumps({"type": "rematch"}), "no_game_running"),
    ]
    for frame, code in cases:
        await asyncio.sleep(0.15)  # stay under the rate limit
        mark = len(host.errors)
        await host.send_raw(frame)
        err = await host.wait_error(mark + 1)
        assert err["code"] == code, (frame, err)
        assert err["message"]
    for frame, code in [
        (json.dumps({"type": "chat", "text": "hi"}), "bad_name"),  # a spectator needs a name
        (json.dumps({"type": "take_back"}), "not_seated"),
        (json.dumps({"type": "start"}), "not_seated"),
    ]:
        mark = len(watcher.errors)
        await watcher.send_raw(frame)
        assert (await watcher.wait_error(mark + 1))["code"] == code
    assert host.view is not None and host.view["version"] == before  # nothing changed

    # In a game: invalid notation, an illegal move, a stale version.
    await host.send("start")
    view = await host.wait(lambda v: v["table"]["status"] == "playing")
    assert (await host.refused("move", move="fly away", version=view["version"]))[
        "code"
    ] == "invalid_move"
    version = view["version"]
    illegal = await host.refused("move", move="coup 1", version=version)
    assert illegal["code"] in ("illegal_move", "stale")
    assert (await host.refused("move", move="income", version=version - 1000))["code"] == "stale"
    # Chat is stored as text, as sent (the page shows it with textContent).
    await host.send("chat", text="<b>salam</b> سلام")
    chat = await watcher.wait(lambda v: any("salam" in c["text"] for c in v["chat"]))
    assert chat["chat"][-1]["text"] == "<b>salam</b> سلام"
    for c in (host, watcher):
        await c.close()


async def test_rate_limit_and_flooding(base: str) -> None:
    host, watcher, _ = await _game(base)
    for i in range(8):
        await host.send("chat", text=f"spam {i}")
    error = await host.wait_error()
    assert error["code"] == "rate_limited" and "chat" in error["message"]
    for _ in range(80):
        await host.send("ping")
    assert await host.wait_closed() == 4429
    assert any(e["code"] == "rate_limited" for e in host.errors)
    await watcher.close()


async def test_close_codes(base: str) -> None:
    _, _, table = await _game(base)
    ws_base = base.replace("http://", "ws://")
    cases = [
        (f"/ws/{table}", {"type": "chat", "text": "hi"}, 4400),
        (f"/ws/{table}", {"type": "hello", "token": "x" * 43}, 4401),
        ("/ws/no-such-table", {"type": "hello"}, 4404),
    ]
    for path, first, code in cases:
        assert await _close_code(ws_base + path, [json.dumps(first)]) == code
    big = ['{"type": "hello"}', "x" * 70000]
    assert await _close_code(ws_base + f"/ws/{table}", big) == 1009


async def test_a_socket_that_never_says_hello_is_closed(base: str) -> None:
    """A socket that opens and sends nothing is closed after HELLO_TIMEOUT (10 s) with
    4408, and the server keeps no trace of it."""
    _, _, table = await _game(base)  # a host and a spectator at the table
    url = base.replace("http://", "ws://") + f"/ws/{table}"
    async with httpx.AsyncClient(base_url=base) as http:
        before = (await http.get(f"/api/tables/{table}")).json()["table"]
    started = asyncio.get_running_loop().time()
    code = await asyncio.wait_for(_close_code(url, []), HELLO_TIMEOUT + 10)
    waited = asyncio.get_running_loop().time() - started
    assert code == 4408
    assert waited >= HELLO_TIMEOUT - 0.5  # not before its time (an upper bound is noise)
    async with httpx.AsyncClient(base_url=base) as http:
        after = (await http.get(f"/api/tables/{table}")).json()["table"]
    assert after["spectators"] == before["spectators"] == 1
    assert after["seats"] == before["seats"]


async def _close_code(url: str, frames: list[str]) -> int | None:
    async with websockets.connect(url, max_size=None) as ws:
        try:
            for frame in frames:
                await ws.send(frame)
            while True:
                await ws.recv()
        except websockets.ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd is not None else None
    return None


async def test_http_bad_input(base: str) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.post(
            "/api/tables", content=b"{not json", headers={"content-type": "application/json"}
        )
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
        r = await http.post("/api/tables", json={"name": "x" * 10000})
        assert r.status_code == 413

        async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: streamed
            for _ in range(100):
                yield b" " * 1000

        r = await http.post(
            "/api/tables", content=chunks(), headers={"content-type": "application/json"}
        )
        assert r.status_code == 413
        r = await http.post("/api/tables", json={"name": "A", "extra": 1})
        assert r.json()["error"]["code"] == "bad_message"
        r = await http.post("/api/tables", json={"name": "A\u0007B"})
        assert r.json()["error"]["code"] == "bad_name"
        r = await http.post("/api/tables", json={"name": "evil\u202eman"})
        assert r.json()["error"]["code"] == "bad_name"
        r = await http.post("/api/tables", json={"name": "مه\u200cشید"})  # ZWNJ is fine
        assert r.status_code == 201
        r = await http.post(
            "/api/tables", content=b"[" * 8000, headers={"content-type": "application/json"}
        )
        assert r.json()["error"]["code"] == "bad_json"
        r = await http.post("/api/tables", json={"name": "A", "settings": {"seats": 1}})
        assert r.json()["error"]["code"] == "bad_settings"
        r = await http.post("/api/tables", json={"name": "A", "settings": "big"})
        assert r.json()["error"]["code"] == "bad_message"  # the wrong JSON type
        made = (await http.post("/api/tables", json={"name": "A"})).json()
        r = await http.get(f"/api/tables/{made['table']}/games/1/record")
        assert r.status_code == 404 and r.json()["error"]["code"] == "no_game"
        r = await http.get(f"/api/tables/{made['table']}/games/x/record")
        assert r.status_code == 404
        r = await http.post(f"/api/tables/{made['table']}/seats", json={"name": "B", "seat": "1"})
        assert r.json()["error"]["code"] == "bad_message"  # as on the websocket


async def test_http_rate_limit_per_address(tmp_path: Path, server_process: Any) -> None:
    """A burst of 60 table creations or joins from one address, then 429 `rate_limited`
    with an error body, and nothing made (docs/protocol.md, Errors over HTTP)."""
    proc = server_process(f"sqlite:///{tmp_path / 'coup.db'}", "--http-rate", "0.01", limits=True)
    proc.start()
    try:
        async with httpx.AsyncClient(base_url=proc.base) as http:
            made = [await http.post("/api/tables", json={"name": "A"}) for _ in range(60)]
            assert {r.status_code for r in made} == {201}
            r = await http.post("/api/tables", json={"name": "A"})
            assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
            table = made[0].json()["table"]
            r = await http.post(f"/api/tables/{table}/seats", json={"name": "B"})
            assert r.status_code == 429  # joins share the budget
            seats = (await http.get(f"/api/tables/{table}")).json()["table"]["seats"]
            assert [s for s in seats if s] == [seats[0]]  # the refused join took no seat
    finally:
        proc.stop()


async def test_numbers_in_paths_are_ascii_digits_or_no_game(base: str) -> None:
    """ "²" and "٣" are digits to `str.isdigit`, 5,000 digits are too many for `int`: each
    is an unknown game (or seat) with its error body, never a server error."""
    made = await create_table(base, "Mahshid", None)
    table = made["table"]
    async with httpx.AsyncClient(base_url=f"{base}/api/tables/{table}/games") as http:
        for bad in ("²", "٣", "1" * 5000, "-1", "1.0", "0", "+1", "١"):
            for path in (f"/{bad}/record", f"/{bad}/replay", f"/{bad}/coach", f"/{bad}/coach/0"):
                r = await http.get(path)
                assert r.status_code == 404 and r.json()["error"]["code"] == "no_game", path


async def test_invalid_utf8_in_a_text_frame_is_refused_quietly(base: str) -> None:
    made = await create_table(base, "Mahshid", None)
    url = base.replace("http", "ws") + f"/ws/{made['table']}"
    async with websockets.connect(url) as ws:
        await ws.send(b'{"type": "hello", "name": "\xff\xfe"}', text=True)
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
