"""Profiles at scale: `python -m tools.bench.profiles [--profiles 100000] [--games 1000000]`.

Seeds a fresh SQLite store (the server's schema) with `--profiles` profiles in circles of
ten friends and `--games` finished four-seat games among them (each game's rows as the
server writes them: the rated game, four game rows, the summed statistics and the
head-to-head rows), then starts `coup serve` on it and times, over HTTP one after the
other, `GET /api/leaderboard` and `GET /api/profiles/{name}` of the profile with the most
games (p50, p99). Beside it, in process on the same file: the page's statistics read as
the server keeps them (one row, summed at each game's end) against the same numbers
computed per request from the profile's game rows (by table size, head to head), the
way a page without the precomputed row would. Last, a rating update's CPU in process
(medians): openskill's update of four seats, the game's result built from a real
finished game (the story's statistics), and the whole `count_game` transaction.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import random
import shutil
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

import coup
from coup.server import game_result, names, ratings
from coup.server.sitters import Seat
from coup.server.table import GameRun, Table
from coup.store import open_store
from coup.store.ratings import GameResult, SeatResult, count_game, empty_stats
from tools.load.process import ServerProcess

CIRCLE = 10


def seed(path: Path, profiles: int, games: int, rng: random.Random) -> str:
    """Rows written straight to the SQLite file; returns the busiest profile's name."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    stats = json.dumps({**empty_stats(), "claims": 40, "by_size": {"4": [10, 3]}})
    db.executemany(
        "INSERT INTO coup_profiles VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
        ((f"p{i}", "person", f"Player {i}", "00", 0, None, False, 25.0, 8.0,
          round(rng.gauss(1000, 150), 1), 0, 0, stats) for i in range(profiles)),
    )  # fmt: skip
    db.executemany(
        "INSERT INTO coup_profile_names VALUES (?,?,?)",
        ((form, f"p{i}", None) for i in range(profiles) for form in names.forms(f"Player {i}")),
    )
    counts = [0] * profiles
    rivals: dict[tuple[int, int], list[int]] = {}
    batch: list[tuple[Any, ...]] = []
    rated: list[tuple[Any, ...]] = []
    busiest = 0
    for g in range(games):
        circle = rng.randrange(profiles // CIRCLE) * CIRCLE
        if g % 50 == 0:
            circle = 0  # the first circle plays more: the heaviest page
        seats = rng.sample(range(circle, circle + CIRCLE), 4)
        table = f"t{g // 20}"
        rated.append((table, g, g))
        for place, who in enumerate(seats, start=1):
            counts[who] += 1
            rating = 1000.0 + rng.gauss(0, 100)
            batch.append((f"p{who}", g, table, g, 4, place, rating, rating, True))
            for other_place, other in enumerate(seats, start=1):
                if other != who:
                    row = rivals.setdefault((who, other), [0, 0])
                    row[0] += 1
                    row[1] += int(place < other_place)
        if len(batch) >= 200_000:
            db.executemany("INSERT INTO coup_profile_games VALUES (?,?,?,?,?,?,?,?,?)", batch)
            db.executemany("INSERT INTO coup_rated_games VALUES (?,?,?)", rated)
            batch, rated = [], []
    db.executemany("INSERT INTO coup_profile_games VALUES (?,?,?,?,?,?,?,?,?)", batch)
    db.executemany("INSERT INTO coup_rated_games VALUES (?,?,?)", rated)
    db.executemany(
        "INSERT INTO coup_rivals VALUES (?,?,?,?)",
        ((f"p{a}", f"p{b}", n, ahead) for (a, b), (n, ahead) in rivals.items()),
    )
    db.executemany(
        "UPDATE coup_profiles SET games = ? WHERE id = ?",
        ((n, f"p{i}") for i, n in enumerate(counts) if n),
    )
    busiest = max(range(profiles), key=counts.__getitem__)
    db.commit()
    db.execute("ANALYZE")
    db.close()
    return f"Player {busiest}"


def stored_or_computed(path: Path, profile: str, n: int) -> dict[str, float]:
    """Medians (ms) of reading the page's statistics: the kept row, or computed from the
    profile's game rows per request."""
    db = sqlite3.connect(path)
    kept, computed = [], []
    for _ in range(n):
        start = time.perf_counter()
        db.execute(
            "SELECT stats, games, wins FROM coup_profiles WHERE id = ?", (profile,)
        ).fetchone()
        kept.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        db.execute(
            "SELECT size, count(*), sum(place = 1) FROM coup_profile_games WHERE profile_id = ? "
            "GROUP BY size", (profile,),
        ).fetchall()  # fmt: skip
        db.execute(
            "SELECT o.profile_id, count(*), sum(m.place < o.place) FROM coup_profile_games m "
            "JOIN coup_profile_games o ON o.table_id = m.table_id AND o.game = m.game "
            "AND o.profile_id != m.profile_id WHERE m.profile_id = ? GROUP BY o.profile_id "
            "ORDER BY count(*) DESC LIMIT 5", (profile,),
        ).fetchall()  # fmt: skip
        computed.append((time.perf_counter() - start) * 1000)
    db.close()
    return {
        "kept_row_ms": round(statistics.median(kept), 3),
        "computed_per_request_ms": round(statistics.median(computed), 3),
    }


def timed(client: httpx.Client, path: str, n: int) -> dict[str, float]:
    laps = []
    for _ in range(n):
        start = time.perf_counter()
        answer = client.get(path)
        laps.append((time.perf_counter() - start) * 1000)
        assert answer.status_code == 200, answer.text
    laps.sort()
    return {
        "p50_ms": round(laps[len(laps) // 2], 2),
        "p99_ms": round(laps[int(len(laps) * 0.99) - 1], 2),
    }


def finished_run(rng: random.Random) -> tuple[Table, GameRun]:
    """A finished four-seat game played at random, as a table holds it."""
    seats = [
        Seat(f"m{i}", f"P{i}", "human", profile=f"x{i}", profile_name=f"P{i}") for i in range(4)
    ]
    while True:
        state = coup.new_game(players=[s.name for s in seats], seed=rng.randrange(1 << 30))
        while not state.over:
            seat = state.waiting[0]
            state.play(seat, rng.choice(state.legal(seat)))
        header = {k: v for k, v in state.record().items() if k != "moves"}
        run = GameRun(
            1,
            state,
            header,
            [s.member for s in seats],
            [dict(m) for m in state.record()["moves"]],
            [],
            1,
        )
        return Table("bench", {}, list(seats)), run


async def cpu(rng: random.Random, n: int) -> dict[str, float]:
    entrants = [ratings.Entrant(i, f"x{i}", i + 1, True) for i in range(4)]
    rate = []
    for _ in range(n):
        start = time.process_time()
        ratings.rate(entrants, {})
        rate.append((time.process_time() - start) * 1000)
    table, run = finished_run(rng)
    build = []
    for _ in range(n):
        start = time.process_time()
        game_result.game_result(table, run, 0)
        build.append((time.process_time() - start) * 1000)
    folder = tempfile.mkdtemp(prefix="coup-profiles-cpu-")
    store = await open_store(f"sqlite:///{folder}/cpu.db")
    seats = [SeatResult(f"x{i}", i + 1, True, stats={"claims": 2}) for i in range(4)]
    transaction = []
    for g in range(n):
        result = GameResult("bench", g, g, seats, rate=game_result._rate, shown=ratings.shown)
        start = time.process_time()
        await store._run(functools.partial(count_game, result=result))
        transaction.append((time.process_time() - start) * 1000)
    await store.close()
    shutil.rmtree(folder, ignore_errors=True)
    return {
        "openskill_rate_ms": round(statistics.median(rate), 3),
        "game_result_ms": round(statistics.median(build), 3),
        "count_game_ms": round(statistics.median(transaction), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(28)
    folder = Path(tempfile.mkdtemp(prefix="coup-profiles-"))
    path = folder / "coup.db"

    async def schema() -> None:
        store = await open_store(f"sqlite:///{path}")
        await store.close()

    asyncio.run(schema())
    start = time.monotonic()
    busiest = seed(path, args.profiles, args.games, rng)
    seeded = time.monotonic() - start
    proc = ServerProcess(f"sqlite:///{path}", "--no-address-limits").start()
    try:
        with httpx.Client(base_url=proc.base, timeout=30) as client:
            name = busiest.replace(" ", "%20")
            games = client.get(f"/api/profiles/{name}").json()["profile"]["games"]
            out = {
                "profiles": args.profiles, "games": args.games, "seed_s": round(seeded, 1),
                "leaderboard": timed(client, "/api/leaderboard", args.requests),
                "profile_page": {"games": games, **timed(client, f"/api/profiles/{name}", args.requests)},
            }  # fmt: skip
    finally:
        proc.stop()
    busiest_id = "p" + busiest.split()[1]
    out["page_statistics"] = stored_or_computed(path, busiest_id, 21)
    out["rating_update_cpu"] = asyncio.run(cpu(rng, 200))
    shutil.rmtree(folder, ignore_errors=True)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
