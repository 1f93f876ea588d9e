"""No message to a seat or a spectator ever holds anything it may not see.

Many random games over real websockets; every frame every connection received is kept
and checked against the engine: the `game` part must be exactly the engine's view for
that seat at that point of the game (replayed independently from the downloaded record),
no other seat's face-down cards, no seat token, no seed before the end.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx

import coup
from tools.load.client import SeatClient, create_table, join_table, play_randomly

VIEW_KEYS = {"type", "version", "now", "you", "table", "game", "chat"}
TABLE_KEYS = {
    "id", "status", "settings", "seats", "spectators", "game", "first", "commitment",
    "seed", "winner", "deadline", "timeouts", "handoffs", "watching", "former",
}  # fmt: skip
SEAT_KEYS = {
    "seat", "name", "kind", "level", "personality", "host", "connected", "idle", "standin",
    "stalled",
}  # fmt: skip


async def play_one(base: str, rng: random.Random) -> None:
    players = rng.randint(2, 6)
    humans = rng.randint(1, min(3, players))
    settings = {
        "seats": players,
        "characters": rng.choice(["ambassador", "inquisitor"]),
        "draft": rng.random() < 0.5,
        "reaction_timer": 0,
    }
    made = await create_table(base, "Host", settings)
    table = made["table"]
    tokens = [made["token"]]
    clients = {0: await SeatClient(base, table, made["token"], keep=True).connect()}
    for seat in range(1, humans):
        joined = await join_table(base, table, f"P{seat}", seat)
        tokens.append(joined["token"])
        clients[seat] = await SeatClient(base, table, joined["token"], keep=True).connect()
    watcher = await SeatClient(base, table, keep=True).connect()
    host = clients[0]
    for seat in range(humans, players):
        await host.send("add_bot", seat=seat)
    await host.wait(lambda v: all(v["table"]["seats"]))
    await host.send("start")
    await asyncio.gather(*(play_randomly(c, rng) for c in clients.values()))
    final = await watcher.wait(lambda v: v["table"]["status"] == "over")
    async with httpx.AsyncClient(base_url=base) as http:
        record = (await http.get(f"/api/tables/{table}/games/1/record")).json()
    for c in [*clients.values(), watcher]:
        await c.close()
    seats: dict[int | None, SeatClient] = {**clients, None: watcher}
    check(record, seats, tokens, final["table"]["seed"])


def states_by_history(record: dict[str, Any]) -> dict[int, Any]:
    out: dict[int, Any] = {}
    moves = record["moves"]
    for k in range(len(moves) + 1):
        state = coup.replay({**record, "moves": moves[:k]})
        out[len(state.view(None)["history"])] = state
    return out


def check(
    record: dict[str, Any], seats: dict[int | None, SeatClient], tokens: list[str], seed: str
) -> None:
    states = states_by_history(record)
    for seat, client in seats.items():
        assert client.messages, "every connection got views"
        for raw, msg in zip(client.raw, client.messages, strict=True):
            for token in tokens:
                assert token not in raw, "a seat token leaked"
            assert "token_hash" not in raw and "member" not in raw
            if msg["type"] != "view":
                assert msg["type"] in ("error", "pong")
                continue
            assert set(msg) == VIEW_KEYS
            info = msg["table"]
            assert set(info) == TABLE_KEYS
            for s in info["seats"]:
                assert s is None or set(s) == SEAT_KEYS
            game = msg["game"]
            if game is None:
                assert seed not in raw
                continue
            if not game["over"]:
                assert seed not in raw and info["seed"] is None
                for p in game["players"]:
                    if p["seat"] != seat:
                        assert p["cards"] is None, "another seat's cards leaked"
            state = states[len(game["history"])]
            assert game == json.loads(json.dumps(state.view(seat))), "view differs from engine"


async def test_no_leaks_over_many_random_games(base: str) -> None:
    rng = random.Random(20261130)
    for _ in range(4):
        seeds = [rng.randrange(2**32) for _ in range(4)]
        await asyncio.gather(*(play_one(base, random.Random(s)) for s in seeds))
