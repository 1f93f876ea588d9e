"""The coach runs after every game on its own: the game's end queues an analysis for each
person's seat in the store (none for the bots', none at a table of bots), the worker runs
them one at a time without anyone asking, a restart loses none, and of several processes
on one PostgreSQL exactly one runs each."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from coup.review.coach import review
from coup.server.game_run import people
from coup.server.table import Seat, Table
from coup.store import SqlStore, open_store
from coup.store.analyses import ask_review, game_reviews, get_review, take_review
from tests.server.conftest import postgres_url
from tools.load.client import SeatClient, create_table, join_table, play_randomly
from tools.load.fleet import drop_database, fresh_channel, make_database
from tools.load.process import WorkerProcess

REDIS = os.environ.get("COUP_TEST_REDIS", "redis://127.0.0.1:6379/0")


@pytest.fixture
async def reader(database: str) -> AsyncIterator[SqlStore]:
    """The test's own look at the server's store (never through the server)."""
    store = await open_store(database)
    yield store
    await store.close()


async def finish_a_game(base: str, people: int, bots: int) -> tuple[str, dict[str, Any]]:
    """A table of `people` then `bots` seats plays one game to the end (the people at
    random); the table and its record."""
    made = await create_table(base, "Mahshid", {"seats": people + bots, "reaction_timer": 0})
    table = made["table"]
    host = await SeatClient(base, table, made["token"]).connect()
    clients = [host]
    for i in range(1, people):
        seat = await join_table(base, table, f"Guest {i}")
        clients.append(await SeatClient(base, table, seat["token"]).connect())
    for seat in range(people, people + bots):
        await host.send("add_bot", seat=seat)
    await host.wait(lambda v: all(v["table"]["seats"]))
    await host.send("start")
    rng = random.Random(7)
    await asyncio.gather(*(play_randomly(c, random.Random(rng.random())) for c in clients))
    for c in clients:
        await c.close()
    async with httpx.AsyncClient(base_url=base) as http:
        record = (await http.get(f"/api/tables/{table}/games/1/record")).json()
    return table, record


async def until_done(
    store: SqlStore, table: str, seats: list[int], budget: float = 300
) -> list[list[dict[str, Any]]]:
    """Watch the game's rows in the store until those seats' are done; every look."""
    looks = []
    for _ in range(int(budget / 0.1)):
        rows = await game_reviews(store, table, 1)
        looks.append(rows)
        if [r["seat"] for r in rows if r["status"] == "done"] == seats:
            return looks
        assert all(r["status"] != "failed" for r in rows), rows
        await asyncio.sleep(0.1)
    raise AssertionError(f"the coach never finished: {looks[-1]}")


async def test_the_end_of_a_game_queues_the_coach_for_its_people_and_it_runs_unasked(
    database: str, reader: SqlStore, server_process: Any, tmp_path: Path
) -> None:
    proc = server_process(database, log=tmp_path / "server.log").start()
    try:
        table, record = await finish_a_game(proc.base, people=2, bots=1)
        # Queued with the last move: the two people's seats, not the bot's.
        first = await game_reviews(reader, table, 1)
        assert [r["seat"] for r in first] == [0, 1]
        assert all(r["status"] in ("queued", "running", "done") for r in first)
        looks = await until_done(reader, table, [0, 1])
        # One analysis at a time in the process: never two running together.
        assert all(sum(r["status"] == "running" for r in rows) <= 1 for rows in looks)
        for seat in (0, 1):
            row = await get_review(reader, table, 1, seat)
            assert row is not None and row["result"] == review(record, seat)
        async with httpx.AsyncClient(base_url=proc.base) as http:
            listed = (await http.get(f"/api/tables/{table}/games/1/coach")).json()
            assert [(r["seat"], r["status"]) for r in listed["seats"]] == [(0, "done"), (1, "done")]
            r = await http.get(f"/api/tables/{table}/games/1/coach/0")  # stored: no new work
            assert r.status_code == 200 and r.json()["coach"] == review(record, 0)
            # The bot's seat is coached when asked for, as before.
            r = await http.get(f"/api/tables/{table}/games/1/coach/2")
            assert r.status_code in (200, 202) and r.json()["status"] in ("queued", "done")
        await until_done(reader, table, [0, 1, 2])
        assert (await get_review(reader, table, 1, 2) or {})["result"] == review(record, 2)

    finally:
        proc.stop()
    assert not proc.problems(), proc.log.read_text(errors="replace")[-4000:]


def test_a_game_of_bots_only_queues_nothing_and_a_person_who_left_is_still_coached() -> None:
    seats: list[Seat | None] = [Seat("m0", "Bot 1", "bot", "hard"), Seat("m1", "Bot 2", "bot")]
    run = SimpleNamespace(members=["m0", "m1"])
    assert people(Table("t", {}, seats), run) == []  # type: ignore[arg-type]
    seats[1] = Seat("m1", "Sepideh", "human", level="hard")  # left: a bot plays for her
    assert people(Table("t", {}, seats), run) == [1]  # type: ignore[arg-type]


async def test_the_coachs_queue_survives_a_restart(server_process: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'coup.db'}"
    proc = server_process(db, log=tmp_path / "server.log").start()
    try:
        table, record = await finish_a_game(proc.base, people=1, bots=2)
        proc.kill()  # at once: the analysis is queued, or half done
        store = await open_store(db)
        try:
            left = await get_review(store, table, 1, 0)
            assert left is not None and left["status"] in ("queued", "running", "done")
            # Another job waits in the store while the server is down (as one queued by
            # another process would): it is taken at start.
            assert (await ask_review(store, table, 1, 1, 0, now=1))["status"] == "queued"
            proc.start()
            await until_done(store, table, [0, 1])  # nobody asks
            for seat in (0, 1):
                row = await get_review(store, table, 1, seat)
                assert row is not None and row["result"] == review(record, seat)
        finally:
            await store.close()
    finally:
        proc.stop()
    assert "Traceback" not in proc.log.read_text(errors="replace")


async def test_several_processes_on_postgresql_run_each_analysis_once(
    server_process: Any, tmp_path: Path
) -> None:
    try:
        made, url = await asyncio.to_thread(make_database, postgres_url(), "coup_coach_test")
    except OSError as exc:  # pragma: no cover - PostgreSQL not running
        pytest.skip(f"PostgreSQL is not reachable: {exc}")
    bus = fresh_channel(REDIS, "coup-coach-test")
    procs = [
        server_process(url, "--bus", bus, log=tmp_path / f"server{i}.log").start() for i in range(2)
    ]
    worker = WorkerProcess(bus, log=tmp_path / "worker.log").start()  # the coach's steps
    store = await open_store(url)
    try:
        table, record = await finish_a_game(procs[0].base, people=2, bots=1)
        # The other process is asked at once too: it finds the row, queues nothing more.
        async with httpx.AsyncClient(base_url=procs[1].base) as http:
            r = await http.get(f"/api/tables/{table}/games/1/coach/1")
            assert r.status_code in (200, 202)
        looks = await until_done(store, table, [0, 1])
        for rows in looks:  # progress only goes forward: nobody started one over
            assert all(r["status"] in ("queued", "running", "done") for r in rows)
        done_seen: dict[int, int] = {}
        for rows in looks:
            for r in rows:
                assert r["done"] >= done_seen.get(r["seat"], 0), looks
                done_seen[r["seat"]] = r["done"]
        for seat in (0, 1):
            row = await get_review(store, table, 1, seat)
            assert row is not None and row["result"] == review(record, seat)
    finally:
        await store.close()
        for p in procs:
            p.stop()
        worker.stop()
        await asyncio.to_thread(drop_database, postgres_url(), made)
    for p in procs:
        text = p.log.read_text(errors="replace")
        assert "Traceback" not in text and "taken over" not in text, text[-4000:]


async def test_two_workers_racing_for_the_queue_take_each_review_once(database: str) -> None:
    """Two stores on one database (two processes' workers) take from the queue at once:
    every queued review is taken by exactly one of them."""
    stores = [await open_store(database), await open_store(database)]
    try:
        queued = {("t", 1, seat) for seat in range(12)}
        for _, game, seat in queued:
            await ask_review(stores[0], "t", game, seat, 0, now=seat)

        async def worker(store: SqlStore) -> list[tuple[str, int, int]]:
            taken = []
            while (job := await take_review(store, 1_000)) is not None:
                taken.append((job["table_id"], job["game"], job["seat"]))
            return taken

        a, b = await asyncio.gather(worker(stores[0]), worker(stores[1]))
        assert sorted(a + b) == sorted(queued)  # none twice, none left
    finally:
        for store in stores:
            await store.close()
