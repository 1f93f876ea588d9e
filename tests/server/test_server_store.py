"""The durable event log on both databases: SQLite (file) and PostgreSQL (a database of
its own, made for the test and dropped after it: the shared one may hold another version's
schema)."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, inspect, select

from coup.store import Conflict, SqlStore, migrate, open_store
from coup.store import processes as db
from coup.store import schema as s
from tools.load.fleet import drop_database, make_database


@pytest.fixture(params=["sqlite", "aiosqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'store.db'}"
    elif request.param == "aiosqlite":
        url = f"sqlite+aiosqlite:///{tmp_path / 'store.db'}"
    else:
        base = os.environ.get("COUP_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
        try:
            made, url = await asyncio.to_thread(make_database, base, "coup_store_test")
        except OSError as exc:  # pragma: no cover - PostgreSQL not running
            pytest.skip(f"PostgreSQL is not reachable: {exc}")
    s = await open_store(url)
    yield s
    await s.close()
    if request.param == "postgresql":
        await asyncio.to_thread(drop_database, base, made)


def _seat(seat: int, name: str) -> dict[str, object]:
    return {
        "seat": seat,
        "member": secrets.token_hex(8),
        "name": name,
        "kind": "human",
        "level": None,
        "token_hash": secrets.token_hex(32),
        "host": seat == 0,
    }


async def test_table_game_events_chat_deadlines(store: SqlStore) -> None:
    table_id = secrets.token_urlsafe(16)
    row = {
        "id": table_id,
        "created_at": 1,
        "status": "lobby",
        "version": 1,
        "games": 0,
        "last_winner": None,
    }
    settings = {"seats": 3, "characters": "ambassador"}
    await store.create_table(row, settings, [_seat(0, "Mahshid")])
    seats = [_seat(0, "Mahshid"), _seat(2, "سپیده")]
    await store.save_lobby(table_id, version=2, settings=settings, status="lobby", seats=seats)
    header = {"format": "coup-record/1", "players": ["Mahshid", "سپیده"], "seed": 2**127 + 5}
    deadline = {"seat": 0, "kind": "turn", "due_at": 99, "seconds": 30, "game": 1, "seq": 0}
    await store.start_game(
        table_id,
        version=3,
        games=1,
        seats=seats,
        game={
            "game": 1,
            "commitment": "c" * 64,
            "status": "playing",
            "winner": None,
            "started_at": 2,
            "ended_at": None,
        },
        header=header,
        members=[s["member"] for s in seats],
        events=[],
        deadlines=[deadline],
    )
    event = {
        "game": 1, "seq": 0, "seat": 0, "move": "tax", "draw": None,
        "timeout": False, "step": None, "at": 5,
    }  # fmt: skip
    await store.append_events(table_id, [event], version=4, deadlines=[])
    with pytest.raises(Conflict):  # the same seq twice: someone else moved first
        await store.append_events(table_id, [event], version=5, deadlines=[])
    second = {**event, "seq": 1, "seat": 1, "move": "pass", "draw": '["duke"]', "timeout": True}
    second["step"] = 1
    await store.append_events(
        table_id,
        [second],
        version=5,
        deadlines=[],
        finish={"status": "over", "winner": 0, "ended_at": 9},
        last_winner=seats[0]["member"],  # type: ignore[arg-type]
    )
    chat_id = await store.add_chat(
        table_id, {"seat": 0, "name": "Mahshid", "text": "salam", "at": 6}, version=6
    )
    assert chat_id > 0

    data = await store.load_table(table_id)
    assert data is not None
    assert data.row["version"] == 6 and data.row["status"] == "over"
    assert data.settings == settings
    assert [s["name"] for s in data.seats] == ["Mahshid", "سپیده"]
    assert data.game is not None and data.game.header == header  # big seed survives
    assert [e["move"] for e in data.game.events] == ["tax", "pass"]
    assert data.game.row["winner"] == 0
    assert [c["text"] for c in data.chat] == ["salam"]
    assert data.deadlines == []
    assert table_id not in await store.open_tables()
    assert await store.load_table("nope") is None
    assert await store.load_game(table_id, 2) is None


async def test_the_coachs_queue_each_review_taken_once_fenced_and_taken_over_when_stale(
    store: SqlStore,
) -> None:
    from coup.store.analyses import (
        STALE_MS,
        ask_review,
        get_review,
        progress_review,
        queued_rows,
        take_review,
    )

    table = secrets.token_hex(8)
    assert await get_review(store, table, 1, 0) is None
    row = await ask_review(store, table, 1, 0, 0, now=1_000)
    assert row["status"] == "queued" and row["total"] is None
    assert (await ask_review(store, table, 1, 0, 0, now=1_500))["status"] == "queued"
    # Two workers (two processes) look at once: one takes it, the other finds nothing.
    got = [await take_review(store, 2_000), await take_review(store, 2_000)]
    mine = [j for j in got if j is not None and j["table_id"] == table]
    assert len(mine) == 1 and mine[0]["updated_at"] == 2_000 and mine[0]["seed"] == 0
    assert await progress_review(
        store, table, 1, 0, since=2_000, status="running", done=1, total=3, now=3_000
    )
    assert (await get_review(store, table, 1, 0) or {})["done"] == 1
    # A write fenced by an old `updated_at` (its process lost the row) writes nothing.
    assert not await progress_review(
        store, table, 1, 0, since=2_000, status="running", done=2, total=3, now=3_500
    )
    notes = {"format": "coup-coach/1", "decisions": []}
    assert await progress_review(
        store, table, 1, 0, since=3_000, status="done", done=3, total=3, now=4_000, result=notes
    )
    row = await ask_review(store, table, 1, 0, 0, now=10**12)
    assert row["status"] == "done" and row["result"] == notes  # never redone
    # A review left running (its process went away) is taken over once stale, and the
    # old owner's next write is refused.
    await ask_review(store, table, 2, 1, 0, now=5_000)
    job = await take_review(store, 5_000)
    assert job is not None and (job["table_id"], job["game"], job["seat"]) == (table, 2, 1)
    assert await take_review(store, 5_000 + STALE_MS) is None
    late = await take_review(store, 5_001 + STALE_MS)
    assert late is not None and (late["table_id"], late["game"]) == (table, 2)
    assert not await progress_review(
        store, table, 2, 1, since=5_000, status="running", done=1, total=4, now=5_002 + STALE_MS
    )
    # A failed review is queued again by an ask once stale.
    assert await progress_review(
        store, table, 2, 1, since=late["updated_at"], status="failed", done=0, total=None,
        now=6_000 + STALE_MS,
    )  # fmt: skip
    assert (await ask_review(store, table, 2, 1, 0, now=6_000 + 2 * STALE_MS))["status"] == "failed"
    again = await ask_review(store, table, 2, 1, 0, now=6_001 + 2 * STALE_MS)
    assert again["status"] == "queued"
    # A game's last move queues its rows in the same transaction.
    row = {"id": table, "created_at": 1, "status": "playing", "version": 1, "games": 1,
           "last_winner": None}  # fmt: skip
    await store.create_table(row, {"seats": 2}, [])
    await store.start_game(
        table, version=2, games=1, seats=[],
        game={"game": 1, "commitment": "c", "status": "playing", "winner": None,
              "started_at": 1, "ended_at": None},
        header={"players": ["a", "b"]}, members=["m0", "m1"], events=[], deadlines=[],
    )  # fmt: skip
    move = {"game": 1, "seq": 0, "seat": 0, "move": "coup 1", "draw": None, "timeout": False,
            "step": None, "at": 7}  # fmt: skip
    await store.append_events(
        table, [move], version=3, deadlines=[], finish={"status": "over", "winner": 0,
        "ended_at": 7}, last_winner="m0", coach=queued_rows(table, 1, [1], 0, 7),
    )  # fmt: skip
    queued = await get_review(store, table, 1, 1)
    assert queued is not None and queued["status"] == "queued" and queued["updated_at"] == 7


async def test_a_move_is_written_alike_by_the_fast_and_the_general_path(store: SqlStore) -> None:
    """The fast write (one statement on PostgreSQL, the driver's cursor on SQLite) stores
    the same rows as the general transaction, replaces the deadlines, and refuses a stale
    version (Conflict) writing nothing."""
    store.check_versions = True
    stored = {}
    for fast in (True, False):
        store.one_statement = fast
        table_id = secrets.token_urlsafe(16)
        row = {"id": table_id, "created_at": 1, "status": "playing", "version": 1,
               "games": 1, "last_winner": None}  # fmt: skip
        await store.create_table(row, {"seats": 2}, [])
        first = {"seat": 0, "kind": "turn", "due_at": 9, "seconds": 30, "game": 1, "seq": 0}
        await store.save_deadlines(table_id, version=2, deadlines=[first])
        move = {"game": 1, "seq": 0, "seat": 0, "move": "exchange", "draw": '["duke", "captain"]',
                "timeout": True, "step": 3, "at": 5}  # fmt: skip
        after = {"seat": 1, "kind": "reaction", "due_at": 19, "seconds": 15, "game": 1, "seq": 1}
        with pytest.raises(Conflict):  # another process wrote version 3 first
            await store.append_events(table_id, [move], version=4, deadlines=[after])
        await store.append_events(table_id, [move], version=3, deadlines=[after])
        with pytest.raises(Conflict):  # the same seq again
            await store.append_events(table_id, [move], version=4, deadlines=[])
        data = await store.load_table(table_id)
        assert data is not None and data.game is None
        game = await store.load_game(table_id, 1)
        assert game is None  # no games row was written: only events
        events = await store._run(
            lambda conn, t=table_id: [
                {k: v for k, v in r._mapping.items() if k != "table_id"}
                for r in conn.execute(select(s.events).where(s.events.c.table_id == t))
            ]
        )
        stored[fast] = (data.row["version"], events, [
            {k: v for k, v in d.items() if k not in ("table_id", "claimed_until")}
            for d in data.deadlines
        ])  # fmt: skip
    assert stored[True] == stored[False]
    version, events, deadlines = stored[True]
    assert version == 3 and deadlines == [after]
    assert events == [{**move, "timeout": True}]


async def test_handoffs_are_kept_with_their_game_and_read_by_other_processes(
    store: SqlStore,
) -> None:
    table_id = secrets.token_urlsafe(16)
    row = {"id": table_id, "created_at": 1, "status": "lobby", "version": 1, "games": 0,
           "last_winner": None}  # fmt: skip
    seats = [_seat(0, "Mahshid"), _seat(1, "Sepideh")]
    await store.create_table(row, {"seats": 2}, seats)
    game = {"game": 1, "commitment": "c" * 64, "status": "playing", "winner": None,
            "started_at": 2, "ended_at": None}  # fmt: skip
    await store.start_game(
        table_id, version=2, games=1, seats=seats, game=game, header={"seed": 1},
        members=[s["member"] for s in seats], events=[], deadlines=[],
    )  # fmt: skip
    host = {"game": 1, "n": 0, "step": 3, "seat": 1, "reason": "host"}
    await store.save_seats(table_id, version=3, seats=seats, deadlines=[], handoffs=[host])
    back = {"game": 1, "n": 1, "step": 5, "seat": 1, "reason": "back"}
    await store.save_seats(table_id, version=4, seats=seats, deadlines=[], handoffs=[back])
    await store.save_seats(table_id, version=5, seats=seats, deadlines=[])  # none this time

    data = await store.load_table(table_id)
    assert data is not None and data.game is not None
    want = [{k: h[k] for k in ("n", "step", "seat", "reason")} for h in (host, back)]
    assert data.game.handoffs == want
    changed = await db.changes(
        store, table_id, known_version=4, game=1, seq=0, chat_after=0, now=10, dead_after=10
    )
    assert changed is not None and changed.handoffs == want


async def test_a_schema_3_database_gets_the_handoffs_table(store: SqlStore) -> None:
    def to_version_3(conn: Connection) -> None:
        s.handoffs.drop(conn)
        conn.execute(migrate.versions.update().values(version=3))

    await store._run(to_version_3)
    assert await store._run(migrate.upgrade) == 3
    assert await store._run(lambda conn: inspect(conn).has_table("coup_handoffs"))
    found = await store._run(lambda conn: conn.execute(select(migrate.versions.c.version)).scalar())
    assert found == migrate.SCHEMA_VERSION


async def test_a_schema_4_database_gets_the_index_of_the_coachs_queue(store: SqlStore) -> None:
    from sqlalchemy import text

    def indexes(conn: Any) -> set[str]:
        return {i["name"] for i in inspect(conn).get_indexes("coup_reviews")}

    assert "coup_reviews_queue" in await store._run(indexes)
    await store._run(lambda conn: conn.execute(text("DROP INDEX coup_reviews_queue")))
    await store._run(lambda conn: conn.execute(migrate.versions.update().values(version=4)))
    await store.create()
    assert "coup_reviews_queue" in await store._run(indexes)
    found = await store._run(lambda conn: conn.execute(select(migrate.versions.c.version)).scalar())
    assert found == migrate.SCHEMA_VERSION


async def test_a_schema_5_database_gets_the_asked_column_of_the_coachs_queue(
    store: SqlStore,
) -> None:
    from sqlalchemy import text

    def columns(conn: Any) -> set[str]:
        return {c["name"] for c in inspect(conn).get_columns("coup_reviews")}

    await store._run(lambda conn: conn.execute(text("ALTER TABLE coup_reviews DROP COLUMN asked")))
    await store._run(lambda conn: conn.execute(migrate.versions.update().values(version=5)))
    assert "asked" not in await store._run(columns)
    await store.create()
    assert "asked" in await store._run(columns)


async def test_a_schema_6_database_gets_the_seats_device_and_former_players(
    store: SqlStore,
) -> None:
    from sqlalchemy import text

    def columns(conn: Any) -> set[str]:
        return {c["name"] for c in inspect(conn).get_columns("coup_seats")}

    def drop(conn: Any) -> None:
        for name in ("device", "gone", "blocked"):
            conn.execute(text(f"ALTER TABLE coup_seats DROP COLUMN {name}"))

    await store._run(drop)
    await store._run(lambda conn: conn.execute(migrate.versions.update().values(version=6)))
    assert not {"device", "gone", "blocked"} & await store._run(columns)
    await store.create()
    assert {"device", "gone", "blocked"} <= await store._run(columns)
