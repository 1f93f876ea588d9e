"""Bot tables in the load: one person and bots of a level at each (`coup loadtest
--bot-tables N --bot-level hard --bots 5`), `/healthz` timed all along, and the workers'
counters read from `/healthz` before and after (decisions per second, budget cuts,
decisions the server answered itself)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import websockets

#: The workers' gauges (every server sees the same workers on Redis; not added up).
GAUGES = ("workers", "busy", "queued", "coach_queued")
#: Seconds between two `/healthz` requests of the probe.
PROBE = 0.1


async def prepare_bot_table(
    http: httpx.AsyncClient, ws_url: str, level: str, bots: int
) -> tuple[str, str]:
    """A table of one person (seat 0, the host) and `bots` bots of `level`: (table, token)."""
    r = await http.post("/api/tables", json={"name": "P0", "settings": {"seats": bots + 1}})
    r.raise_for_status()
    made = r.json()
    async with websockets.connect(f"{ws_url}/ws/{made['table']}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": made["token"]}))
        await ws.recv()
        for seat in range(1, bots + 1):
            await ws.send(json.dumps({"type": "add_bot", "seat": seat, "level": level}))
        while True:  # until every seat is taken
            view = json.loads(await ws.recv())
            if view.get("type") == "view" and all(view["table"]["seats"]):
                break
    return made["table"], made["token"]


class HealthProbe:
    """`GET /healthz` every `PROBE` seconds: each answer's time, in ms."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.times: list[float] = []
        self.failed = 0

    async def run(self, until: float) -> None:
        async with httpx.AsyncClient(base_url=self.url, timeout=10) as http:
            while time.monotonic() < until:
                at = time.perf_counter()
                try:
                    (await http.get("/healthz")).raise_for_status()
                    self.times.append(1000 * (time.perf_counter() - at))
                except httpx.HTTPError:
                    self.failed += 1
                await asyncio.sleep(PROBE)


async def counters(urls: list[str]) -> dict[str, float]:
    """The workers' counters of every server (`/healthz`), added up."""
    total: dict[str, float] = {}
    async with httpx.AsyncClient(timeout=10) as http:
        for url in urls:
            try:
                seen = (await http.get(url + "/healthz")).json().get("workers") or {}
            except (httpx.HTTPError, ValueError):
                continue
            for key, value in seen.items():
                if not isinstance(value, int | float):
                    continue
                if key in GAUGES:  # the same workers seen from every server
                    total[key] = max(total.get(key, 0), value)
                else:
                    total[key] = total.get(key, 0) + value
    return total


def worked(before: dict[str, float], after: dict[str, float], seconds: float) -> dict[str, Any]:
    """What the workers did between two `counters()`."""

    def delta(key: str) -> float:
        return after.get(key, 0) - before.get(key, 0)

    return {
        "decisions": int(delta("decisions")),
        "decisions_per_s": round(delta("decisions") / max(seconds, 1e-9), 2),
        "reduced": int(delta("reduced")),
        # the work done, in hard-bot decisions at the full budget (25,000 playout steps)
        "full_budgets_per_s": round(delta("steps") / 25_000 / max(seconds, 1e-9), 2),
        "answered_by_server": int(delta("answered_here")),
        "late": int(delta("late")),
        "workers": after.get("workers"),
    }
