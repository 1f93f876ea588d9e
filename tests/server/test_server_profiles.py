"""Profiles (docs/protocol.md, *Profiles*): a passkey's ceremonies against a real `coup
serve` with a software authenticator (challenges once, counters forward, the origin and
RP id checked), the session cookie, the one-time link, names unique as at the table,
127.0.0.1 refused, export and delete, and a game of two profiles and two bots rated once.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from coup.server import ratings
from tests.server.conftest import ServerProcess, fresh_postgres
from tests.server.passkey_device import Device
from tools.load.client import SeatClient, play_randomly


def local(base: str) -> str:
    return base.replace("127.0.0.1", "localhost")


async def make_profile(http: httpx.AsyncClient, name: str) -> Device:
    device = Device(str(http.base_url).rstrip("/"))
    r = await http.post("/api/profiles/options", json={"name": name})
    assert r.status_code == 200, r.text
    ceremony = r.json()
    answer = device.create(ceremony["options"]["publicKey"] if "publicKey" in ceremony["options"]
                           else ceremony["options"])  # fmt: skip
    r = await http.post(
        "/api/profiles", json={"ceremony": ceremony["ceremony"], "credential": answer}
    )
    assert r.status_code == 201, r.text
    return device


async def sign_in(http: httpx.AsyncClient, device: Device, **kw: Any) -> httpx.Response:
    r = await http.post("/api/session/options", json={})
    assert r.status_code == 200, r.text
    ceremony = r.json()
    answer = device.get(ceremony["options"], **kw)
    return await http.post(
        "/api/session", json={"ceremony": ceremony["ceremony"], "credential": answer}
    )


async def me(http: httpx.AsyncClient) -> Any:
    return (await http.get("/api/profiles/me")).json()["profile"]


def test_the_rating_math() -> None:
    assert ratings.shown(ratings.MU, ratings.SIGMA) == 1000.0
    # Seat 2 went out first, then 0, then 3; 1 won.
    history = [(2, None, False, None, True, None), (0, None, False, None, True, None),
               (3, None, False, None, True, None)]  # fmt: skip
    assert ratings.finishing_places(history, 1, 4) == [3, 1, 4, 2]
    entrants = [ratings.Entrant(i, f"p{i}", place, True) for i, place in enumerate([3, 1, 4, 2])]
    new = ratings.rate(entrants, {})
    shown = {k: ratings.shown(*v) for k, v in new.items()}
    assert shown["p1"] > shown["p3"] > shown["p0"] > shown["p2"]
    assert all(v[1] < ratings.SIGMA for v in new.values())  # every game makes σ smaller
    assert ratings.counted(10, 5) and not ratings.counted(10, 6) and not ratings.counted(0, 0)
    assert ratings.bot_id("hard", None) == "bot:hard"
    assert ratings.bot_id("hard", "bluffer") == "bot:hard:bluffer"


async def test_make_sign_out_sign_in_and_a_second_device(base: str) -> None:
    async with httpx.AsyncClient(base_url=local(base)) as http:
        assert await me(http) is None
        device = await make_profile(http, "Passkey Parisa")
        cookie = http.cookies.jar
        set_cookie = [c for c in cookie if c.name == "coup_profile"]
        assert set_cookie and set_cookie[0].has_nonstandard_attr("HttpOnly")
        assert (await me(http))["name"] == "Passkey Parisa"
        # Signing out ends the session on the server: the old cookie is worth nothing.
        old = http.cookies.get("coup_profile")
        assert (await http.post("/api/session/end", json={})).status_code == 200
        assert await me(http) is None
        async with httpx.AsyncClient(base_url=local(base), cookies={"coup_profile": old}) as h2:
            assert await me(h2) is None
        # Signing in with the passkey.
        r = await sign_in(http, device)
        assert r.status_code == 200, r.text
        assert (await me(http))["name"] == "Passkey Parisa"
        # A counter that did not move forward is refused (a cloned key).
        r = await sign_in(http, device, counter=device.counter)
        assert r.json()["error"]["code"] == "passkey_refused"
        # A ceremony is answered once.
        r = await http.post("/api/session/options", json={})
        ceremony = r.json()
        answer = device.get(ceremony["options"])
        body = {"ceremony": ceremony["ceremony"], "credential": answer}
        assert (await http.post("/api/session", json=body)).status_code == 200
        again = await http.post("/api/session", json=body)
        assert again.json()["error"]["code"] == "no_ceremony"
        # Another origin's answer is refused.
        r = await sign_in(http, device, origin="https://evil.example")
        assert r.json()["error"]["code"] == "passkey_refused"
        # A one-time link adds a passkey on another device, once.
        link = (await http.post("/api/profiles/me/link", json={})).json()
        assert link["qr"].startswith("data:image/svg+xml;base64,") and link["seconds"] == 600
        code = link["link"].split("#code=", 1)[1]
        async with httpx.AsyncClient(base_url=local(base)) as phone_http:
            phone = Device(local(base))
            r = await phone_http.post("/api/links/options", json={"code": code})
            assert r.status_code == 200, r.text
            ceremony = r.json()
            assert ceremony["options"]["excludeCredentials"]  # the first passkey
            answer = phone.create(ceremony["options"])
            r = await phone_http.post(
                "/api/links", json={"ceremony": ceremony["ceremony"], "credential": answer}
            )
            assert r.status_code == 201, r.text
            assert (await me(phone_http))["name"] == "Passkey Parisa"
            assert (await sign_in(phone_http, phone)).status_code == 200
            spent = await phone_http.post("/api/links/options", json={"code": code})
            assert spent.json()["error"]["code"] == "no_ceremony"


async def test_names_are_unique_as_at_the_table(base: str) -> None:
    async with httpx.AsyncClient(base_url=local(base)) as http:
        await make_profile(http, "Dariush")
    async with httpx.AsyncClient(base_url=local(base)) as http:
        for taken in ("dariush", "DARIUSH", "Ｄａｒｉｕｓｈ"):
            r = await http.post("/api/profiles/options", json={"name": taken})
            assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken", taken
        r = await http.post("/api/profiles/options", json={"name": "x" * 25})
        assert r.json()["error"]["code"] == "bad_name"


async def test_an_ip_address_says_where_profiles_are_and_the_table_works(base: str) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        mine = (await http.get("/api/profiles/me")).json()
        assert mine["here"] is False and "localhost" in mine["message"]
        assert mine["use"] == local(base)
        r = await http.post("/api/profiles/options", json={"name": "Someone"})
        assert r.status_code == 400 and r.json()["error"]["code"] == "no_profiles_here"
        assert "localhost" in r.json()["error"]["message"]
        made = await http.post("/api/tables", json={"name": "Guest"})
        assert made.status_code == 201


async def test_export_and_delete(base: str) -> None:
    async with httpx.AsyncClient(base_url=local(base)) as http:
        await make_profile(http, "Leaving Leyla")
        r = await http.get("/api/profiles/me/export")
        data = r.json()
        assert data["name"] == "Leaving Leyla" and len(data["passkeys"]) == 1
        assert "attachment" in r.headers["content-disposition"]
        assert "token" not in r.text and "public_key" not in r.text  # no credential in it
        assert (await http.get("/api/profiles/Leaving%20Leyla")).status_code == 200
        assert (await http.post("/api/profiles/me/delete", json={})).json()["deleted"] is True
        assert await me(http) is None
        assert (await http.get("/api/profiles/Leaving%20Leyla")).status_code == 404
        # The name stays taken for 30 days.
        r = await http.post("/api/profiles/options", json={"name": "leaving leyla"})
        assert r.json()["error"]["code"] == "name_taken"
        assert (await http.get("/api/profiles/me/export")).status_code == 401


async def _seat(http: httpx.AsyncClient, table: str | None, name: str) -> dict[str, Any]:
    if table is None:
        r = await http.post("/api/tables", json={"name": name, "settings": {
            "seats": 4, "reaction_timer": 0, "bot_level": "easy"}})  # fmt: skip
    else:
        r = await http.post(f"/api/tables/{table}/seats", json={"name": name})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


async def test_a_game_of_two_profiles_and_two_bots_is_rated_once(base: str) -> None:
    async with (
        httpx.AsyncClient(base_url=local(base)) as a,
        httpx.AsyncClient(base_url=local(base)) as b,
    ):
        await make_profile(a, "Rated Roya")
        await make_profile(b, "Rated Reza")
        host = await _seat(a, None, "Roya")
        table = host["table"]
        guest = await _seat(b, table, "Reza")
        seat_a = await SeatClient(local(base), table, host["token"]).connect()
        seat_b = await SeatClient(local(base), table, guest["token"]).connect()
        for seat in (2, 3):
            await seat_a.send("add_bot", seat=seat)
        view = await seat_a.wait(lambda v: all(v["table"]["seats"]))
        assert [s["profile"] for s in view["table"]["seats"]] == [
            "Rated Roya", "Rated Reza", None, None]  # fmt: skip
        await seat_a.send("start")
        rng = random.Random(11)
        await asyncio.gather(*(play_randomly(c, random.Random(rng.random()))
                               for c in (seat_a, seat_b)))  # fmt: skip
        await seat_a.close()
        await seat_b.close()
        rows = (await a.get(f"/api/tables/{table}/games/1/ratings")).json()["ratings"]
        assert sorted(r["profile_id"] for r in rows if r["kind"] == "bot") == ["bot:easy"]
        people = {r["name"]: r for r in rows if r["kind"] == "person"}
        assert set(people) == {"Rated Roya", "Rated Reza"}
        assert all(r["rated"] and r["before"] == 1000.0 for r in people.values())
        page = (await a.get("/api/profiles/rated%20roya")).json()["profile"]
        assert page["games"] == 1 and len(page["history"]) == 1
        assert page["stats"]["by_size"] == {"4": [1, int(page["wins"])]}
        assert {r["other_id"] for r in page["rivals"]} >= {"bot:easy"}
        assert page["margin"] > 0
        board = (await a.get("/api/leaderboard")).json()
        assert any(r["id"] == "bot:easy" for r in board["rows"])  # bots always listed
        assert all(r["name"] != "Rated Roya" for r in board["rows"])  # under 5 games
        mine = (await a.get("/api/leaderboard?mine=1")).json()["rows"]
        assert {r["id"] for r in mine} >= {"bot:easy"}


@pytest.mark.parametrize("limits", [True])
async def test_profile_ceremonies_are_rate_limited_per_address(limits: bool, tmp_path: Any) -> None:
    proc = ServerProcess(f"sqlite:///{tmp_path / 'rate.db'}", limits=limits).start()
    try:
        async with httpx.AsyncClient(base_url=local(proc.base)) as http:
            codes = [
                (await http.post("/api/session/options", json={})).status_code for _ in range(25)
            ]
        assert codes[:20] == [200] * 20 and codes[-1] == 429
    finally:
        proc.stop()


async def test_behind_https_the_cookie_is_secure_and_a_hidden_profile_is_not_listed(
    tmp_path: Any,
) -> None:
    proc = ServerProcess(
        f"sqlite:///{tmp_path / 'https.db'}", "--public-url", "https://coup.test",
        "--leaderboard-games", "0",
    ).start()  # fmt: skip
    try:
        async with httpx.AsyncClient(base_url=proc.base) as http:
            device = Device("https://coup.test")
            r = await http.post("/api/profiles/options", json={"name": "Secure Sima"})
            ceremony = r.json()
            assert ceremony["options"]["rp"]["id"] == "coup.test"
            answer = device.create(ceremony["options"])
            r = await http.post(
                "/api/profiles", json={"ceremony": ceremony["ceremony"], "credential": answer}
            )
            assert r.status_code == 201, r.text
            cookie = r.headers["set-cookie"].lower()
            assert "secure" in cookie and "httponly" in cookie and "samesite=lax" in cookie
            assert "Secure Sima" in [
                x["name"] for x in (await http.get("/api/leaderboard")).json()["rows"]
            ]
            token = r.cookies.get("coup_profile")  # Secure: the jar keeps it off plain http
            async with httpx.AsyncClient(
                base_url=proc.base, cookies={"coup_profile": token}
            ) as mine:
                hide = await mine.post("/api/profiles/me/settings", json={"hidden": True})
            assert hide.status_code == 200, hide.text
            rows = (await http.get("/api/leaderboard")).json()["rows"]
            assert "Secure Sima" not in [x["name"] for x in rows]
    finally:
        proc.stop()


@pytest.fixture
def postgres() -> Iterator[str]:
    """A fresh PostgreSQL database of the test's own."""
    with fresh_postgres("coup_profiles_test") as url:
        yield url


async def test_on_postgresql_too(postgres: str, tmp_path: Any) -> None:
    proc = ServerProcess(postgres, log=tmp_path / "server.log").start()
    try:
        await test_make_sign_out_sign_in_and_a_second_device(proc.base)
        await test_a_game_of_two_profiles_and_two_bots_is_rated_once(proc.base)
        await test_export_and_delete(proc.base)
        assert not proc.problems(), proc.log.read_text()[-2000:]
    finally:
        proc.stop()
