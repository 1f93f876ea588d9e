"""The database side of several processes, on a real PostgreSQL: deadline claims with
FOR UPDATE SKIP LOCKED and leases, version-checked writes, the schema version row."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import event, insert, select, text

from coup.store import Conflict, SqlStore, migrate, open_store, postgres_move
from coup.store import processes as db
from coup.store import schema as s

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
async def stores(quiet_database: str) -> AsyncIterator[list[SqlStore]]:
    """Two stores (two engines, as two processes have) on a database of their own."""
    made = [await open_store(quiet_database), await open_store(quiet_database)]
    for store in made:
        store.check_versions = True
    yield made
    for store in made:
        await store.close()


async def _table_with_deadlines(store: SqlStore, seats: int, due_at: int) -> str:
    table_id = secrets.token_urlsafe(16)
    row = {"id": table_id, "created_at": 1, "status": "playing", "version": 1, "games": 1,
           "last_winner": None}  # fmt: skip
    await store.create_table(row, {"seats": seats}, [])
    rows = [{"table_id": table_id, "seat": k, "kind": "bot", "due_at": due_at, "seconds": 0,
             "game": 1, "seq": 0} for k in range(seats)]  # fmt: skip
    await store._run(lambda conn: conn.execute(insert(s.deadlines), rows))
    return table_id


def _ours(claimed: list[dict], table_id: str) -> set[int]:
    return {r["seat"] for r in claimed if r["table_id"] == table_id}


async def test_a_claim_is_held_for_its_lease_then_taken_over(stores: list[SqlStore]) -> None:
    a, b = stores
    table_id = await _table_with_deadlines(a, 3, due_at=1_000)
    first = await db.claim(a, now=2_000, lease_ms=5_000, limit=10_000)
    assert _ours(first, table_id) == {0, 1, 2}
    assert _ours(await db.claim(b, now=3_000, lease_ms=5_000, limit=10_000), table_id) == set()
    # the first claimer died: once the lease is over, the other process takes over
    later = await db.claim(b, now=7_001, lease_ms=5_000, limit=10_000)
    assert _ours(later, table_id) == {0, 1, 2}
    # not yet due: nobody claims it
    future = await _table_with_deadlines(a, 1, due_at=10**15)
    assert _ours(await db.claim(a, now=8_000, lease_ms=5_000, limit=10_000), future) == set()


async def test_claims_skip_rows_another_claimer_holds(stores: list[SqlStore]) -> None:
    """While one transaction holds a due row locked, a claim skips it (no waiting)."""
    a, b = stores
    table_id = await _table_with_deadlines(a, 2, due_at=1_000)
    assert a.engine is not None
    async with a.engine.connect() as conn:
        trans = await conn.begin()
        await conn.execute(
            text("SELECT seat FROM coup_deadlines WHERE table_id = :t AND seat = 0 FOR UPDATE"),
            {"t": table_id},
        )
        claimed = await asyncio.wait_for(
            db.claim(b, now=2_000, lease_ms=5_000, limit=10_000), timeout=20
        )
        await trans.rollback()
    assert _ours(claimed, table_id) == {1}


async def test_writes_check_the_version_before(stores: list[SqlStore]) -> None:
    """Two processes write the same table from the same version: one wins, one conflicts."""
    a, b = stores
    table_id = await _table_with_deadlines(a, 1, due_at=10**15)
    await a.set_version(table_id, 2)
    with pytest.raises(Conflict):
        await b.set_version(table_id, 2)  # b still thinks the table is at version 1
    event = {"game": 1, "seq": 0, "seat": 0, "move": "income", "draw": None, "timeout": False,
             "step": None, "at": 1}  # fmt: skip
    await a.append_events(table_id, [event], version=3, deadlines=[])
    with pytest.raises(Conflict):  # the same seq again, even with a fresh version
        await b.append_events(table_id, [event], version=4, deadlines=[])
    with pytest.raises(Conflict):  # a new seq but from a version that is gone
        await b.append_events(table_id, [{**event, "seq": 1}], version=3, deadlines=[])
    data = await a.load_table(table_id)
    assert data is not None and data.row["version"] == 3


async def test_a_move_is_one_statement_that_replaces_the_deadlines(
    stores: list[SqlStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On PostgreSQL a move (its events, the version, the deadlines) is written by one
    statement in one round trip, sent to asyncpg itself (nothing through SQLAlchemy's
    execute); the deadlines end up exactly the new ones, unclaimed, and a stale or
    repeated write changes nothing."""
    a, b = stores
    table_id = await _table_with_deadlines(a, 3, due_at=10**15)  # seats 0, 1, 2 at seq 0
    claimed = await db.claim(a, now=10**15 + 1, lease_ms=60_000, limit=10)
    assert _ours(claimed, table_id) == {0, 1, 2}
    statements: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    sent: list[str] = []
    plain_run = postgres_move.run

    async def run(driver: Any, params: dict[str, Any]) -> int:
        fetchval = driver.fetchval

        async def counted(query: str, *args: Any) -> Any:
            sent.append(query)
            return await fetchval(query, *args)

        class Counting:
            def __getattr__(self, name: str) -> Any:
                return counted if name == "fetchval" else getattr(driver, name)

        return await plain_run(Counting(), params)

    monkeypatch.setattr(postgres_move, "run", run)

    assert a.engine is not None
    event.listen(a.engine.sync_engine, "before_cursor_execute", seen)
    move = {"game": 1, "seq": 0, "seat": 0, "move": "pass", "draw": None, "timeout": False,
            "step": None, "at": 5}  # fmt: skip
    new = [
        {"seat": k, "kind": "reaction", "due_at": 2 * 10**15, "seconds": 15, "game": 1, "seq": 1}
        for k in (1, 3)
    ]  # seat 1 kept, 3 new; 0 and 2 gone
    try:
        await a.append_events(table_id, [move], version=2, deadlines=new)
    finally:
        event.remove(a.engine.sync_engine, "before_cursor_execute", seen)
    assert statements == [] and sent == [postgres_move.POSITIONAL], (statements, sent)
    rows = await _deadline_rows(a, table_id)
    assert rows == {
        1: ("reaction", 2 * 10**15, 15, 1, 1, None),
        3: ("reaction", 2 * 10**15, 15, 1, 1, None),
    }
    with pytest.raises(Conflict):  # b writes from version 1, which is gone
        await b.append_events(table_id, [{**move, "seq": 1}], version=2, deadlines=[])
    with pytest.raises(Conflict):  # the same seq again from the right version
        await b.append_events(table_id, [move], version=3, deadlines=[])
    assert await _deadline_rows(a, table_id) == rows
    events = await a._run(
        lambda conn: conn.execute(
            select(s.events.c.seq, s.events.c.move).where(s.events.c.table_id == table_id)
        ).all()
    )
    assert [tuple(e) for e in events] == [(0, "pass")]
    table = await a.load_table(table_id)
    assert table is not None and table.row["version"] == 2


async def _deadline_rows(store: SqlStore, table_id: str) -> dict[int, tuple]:
    d = s.deadlines.c
    found = await store._run(
        lambda conn: conn.execute(
            select(d.seat, d.kind, d.due_at, d.seconds, d.game, d.seq, d.claimed_until).where(
                d.table_id == table_id
            )
        ).all()
    )
    return {r[0]: tuple(r[1:]) for r in found}


async def test_schema_version_row(stores: list[SqlStore]) -> None:
    a, _ = stores
    found = await a._run(
        lambda conn: conn.execute(select(migrate.versions.c.version)).scalars().all()
    )
    assert found == [migrate.SCHEMA_VERSION]
    newest = migrate.versions.update().values(version=99, oldest=99)
    await a._run(lambda conn: conn.execute(newest))
    try:
        with pytest.raises(migrate.SchemaError, match="newer"):
            await a.create()
        # a newer Coup that only expanded the schema says this one may still run on it
        expanded = migrate.versions.update().values(version=99, oldest=migrate.SCHEMA_VERSION)
        await a._run(lambda conn: conn.execute(expanded))
        await a.create()
    finally:
        await a._run(
            lambda conn: conn.execute(
                migrate.versions.update().values(
                    version=migrate.SCHEMA_VERSION, oldest=migrate.OLDEST
                )
            )
        )


async def test_a_last_move_racing_a_one_statement_move_conflicts_without_a_deadlock(
    stores: list[SqlStore],
) -> None:
    """Every write takes the table's row first. A game's last move (the transaction path)
    that inserted its event before taking the row could wait for another process's move
    holding the row, while that move waited for the same seq: PostgreSQL then aborted one
    of them as a deadlock (a traceback in the server's log; seen under fuzz). Now the last
    move waits for the row, finds the version moved on, and is a plain Conflict."""
    a, b = stores
    table_id = await _table_with_deadlines(a, 2, due_at=10**15)
    move = {"game": 1, "seq": 0, "seat": 0, "move": "income", "draw": None,
            "timeout": False, "step": None, "at": 5}  # fmt: skip
    assert b.engine is not None
    async with b.engine.connect() as other:  # another process's move, half done
        await other.execute(
            text("UPDATE coup_tables SET version = 2 WHERE id = :t"), {"t": table_id}
        )
        last = asyncio.create_task(
            a.append_events(
                table_id,
                [move],
                version=2,
                deadlines=[],
                finish={"status": "over", "winner": 0, "ended_at": 6},
                last_winner="m",
            )
        )
        waiting = text(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        for _ in range(200):  # until the last move waits for a lock
            if (await other.execute(waiting)).scalar_one() or last.done():
                break
            await asyncio.sleep(0.05)
        await other.execute(insert(s.events).values(**move, table_id=table_id))
        await other.commit()
    with pytest.raises(Conflict):
        await last
    table = await a.load_table(table_id)
    assert table is not None and table.row["version"] == 2 and table.row["status"] == "playing"


async def test_moves_share_a_few_connections_kept_for_them(stores: list[SqlStore]) -> None:
    """Moves at twelve tables at once go over at most four connections kept out of the
    pool for moves; those found closed are dropped, and the next move opens another."""
    a, _b = stores
    tables = [await _table_with_deadlines(a, 1, due_at=10**15) for _ in range(12)]
    move = {"game": 1, "seq": 0, "seat": 0, "move": "income", "draw": None,
            "timeout": False, "step": None, "at": 5}  # fmt: skip
    await asyncio.gather(*(a.append_events(t, [move], version=2, deadlines=[]) for t in tables))
    moves = a._moves
    assert moves is not None and moves._open == 4 and len(moves._idle) == 4
    for _aconn, driver in moves._idle:
        driver.terminate()  # PostgreSQL went away under them
    await a.append_events(tables[0], [{**move, "seq": 1}], version=3, deadlines=[])
    assert moves._open == 1 and len(moves._idle) == 1
    data = await a.load_table(tables[0])
    assert data is not None and data.row["version"] == 3
