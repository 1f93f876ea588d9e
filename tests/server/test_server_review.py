"""After the game over HTTP: the replay and story of a finished game, the coach's notes
(queued, with progress, stored once), the table's scoreboard, replaying an uploaded record,
and nothing of it while the game runs."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from coup.review.coach import review
from coup.review.frames import replay_frames
from coup.server.after_game import MAX_RECORD
from tools.load.client import SeatClient, create_table, play_randomly

GOLDEN = Path(__file__).parent.parent / "golden"


def golden(name: str = "story-bluffs") -> Any:
    return json.loads((GOLDEN / f"{name}.json").read_text())


async def coach_when_done(http: httpx.AsyncClient, url: str) -> tuple[dict[str, Any], list[Any]]:
    seen = []
    for _ in range(600):
        r = await http.get(url)
        body = r.json()
        seen.append((r.status_code, body["status"], body["done"], body["total"]))
        if r.status_code == 200:
            return body, seen
        assert r.status_code == 202 and body["status"] in ("queued", "running"), body
        await asyncio.sleep(0.1)
    raise AssertionError(f"the coach never finished: {seen[-3:]}")


async def test_nothing_before_the_end_then_replay_coach_and_scoreboard(base: str) -> None:
    made = await create_table(base, "Mahshid", {"seats": 3, "reaction_timer": 0})
    table = made["table"]
    host = await SeatClient(base, table, made["token"]).connect()
    for seat in (1, 2):
        await host.send("add_bot", seat=seat)
    await host.wait(lambda v: all(v["table"]["seats"]))
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.get(f"/api/tables/{table}/scoreboard")
        assert r.json() == {"scoreboard": {"games": 0, "players": []}}
        await host.send("start")
        await host.wait(lambda v: v["table"]["status"] == "playing")
        # Mid-game: the replay, the coach and the record are refused; nothing is queued.
        asked = []
        for path in ("replay", "coach/0", "coach/1", "record"):
            r = await http.get(f"/api/tables/{table}/games/1/{path}")
            assert r.status_code == 409 and r.json()["error"]["code"] == "game_running", path
            asked.append(r.text)
        page = await http.get(f"/t/{table}/games/1/replay")
        assert page.status_code == 200  # the page itself holds no game; its data is refused
        final = await play_randomly(host, random.Random(3))
        seed = final["table"]["seed"]
        record = (await http.get(f"/api/tables/{table}/games/1/record")).json()
        hands = json.dumps(record["deal"]["hands"])[1:-1]
        for text in asked:  # the refusals held no seed and no hand
            assert seed not in text and hands not in text and "frames" not in text

        r = await http.get(f"/api/tables/{table}/games/1/replay")
        assert r.status_code == 200
        reply = r.json()
        expected = replay_frames(record)
        assert reply["table"] == table and reply["game"] == 1
        assert {k: v for k, v in reply.items() if k not in ("table", "game")} == expected
        assert len(reply["frames"]) == len(record["moves"]) + 1
        assert reply["frames"][0]["players"][0]["cards"] == sorted(record["deal"]["hands"][0])

        body, seen = await coach_when_done(http, f"/api/tables/{table}/games/1/coach/0")
        assert body["status"] == "done" and body["done"] == body["total"]
        assert body["coach"] == review(record, 0)  # deterministic: the same as `coup review`
        assert seen[0][0] == 202 and seen[-1][0] == 200
        again = await http.get(f"/api/tables/{table}/games/1/coach/0")
        assert again.status_code == 200 and again.json() == body  # stored, not redone
        for bad in ("coach/3", "coach/x"):
            r = await http.get(f"/api/tables/{table}/games/1/{bad}")
            assert r.status_code == 404 and r.json()["error"]["code"] == "bad_seat"
        for bad in ("2/replay", "0/replay", "x/coach/0"):
            r = await http.get(f"/api/tables/{table}/games/{bad}")
            assert r.status_code == 404 and r.json()["error"]["code"] == "no_game"

        r = await http.get(f"/api/tables/{table}/scoreboard")
        board = r.json()["scoreboard"]
        assert board["games"] == 1 and len(board["players"]) == 3
        winner = record["players"][record["winner"]]
        assert board["players"][0] == {"name": winner, "games": 1, "wins": 1}
        assert sum(p["wins"] for p in board["players"]) == 1
        assert (await http.get("/api/tables/nope/scoreboard")).status_code == 404
    await host.close()


def replay_reason(record: Any) -> str:
    out = subprocess.run([sys.executable, "-m", "coup", "replay", "-"],
        input=json.dumps(record), capture_output=True, text=True, check=False)  # fmt: skip
    assert out.returncode == 2
    return out.stderr.strip().removeprefix("coup replay: ")


async def test_an_uploaded_record_is_replayed_or_refused_with_the_replay_reason(
    base: str,
) -> None:
    async with httpx.AsyncClient(base_url=base) as http:
        r = await http.post("/api/replay", json=golden())
        assert r.status_code == 200
        reply = r.json()
        assert reply["verified"] is None and reply["story"]["eliminated"] == [1, 2]
        assert reply == {**replay_frames(golden()), "verified": None}

        bad = {**golden(), "moves": golden()["moves"][:5] + [{"seat": 0, "move": "steal 7"}]}
        r = await http.post("/api/replay", json=bad)
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_record"
        assert r.json()["error"]["message"] == replay_reason(bad)

        wrong = {**golden(), "commitment": "0" * 64}
        r = await http.post("/api/replay", json=wrong)
        assert r.status_code == 422
        assert r.json()["error"]["message"] == replay_reason(wrong)

        r = await http.post(
            "/api/replay", content=b"[1, 2]", headers={"content-type": "application/json"}
        )
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
        r = await http.post(
            "/api/replay", content=b"{not json", headers={"content-type": "application/json"}
        )
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"
        big = {**golden(), "padding": "x" * MAX_RECORD}
        r = await http.post("/api/replay", json=big)
        assert r.status_code == 413 and r.json()["error"]["code"] == "too_large"
