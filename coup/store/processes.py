"""What several server processes share through the database, beyond the event log.

- `coup_processes`: every process writes its heartbeat; one not seen for a while is dead.
- `coup_presence`: one row per (table, member, process) while that process holds at
  least one connection of that member; a seat is connected when a live process says so.
- deadline claims: any process takes due deadlines with `SELECT ... FOR UPDATE SKIP
  LOCKED` and marks them `claimed_until` a short lease; if it dies before playing the
  move, the lease runs out and another process takes the deadline over.
- `changes()`: what a table gained since a process last looked (new events, chat, seats,
  deadlines, presence), so a process catches up without replaying the whole game.

Each function is one transaction on the store (`SqlStore._run`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Connection,
    delete,
    func,
    insert,
    or_,
    select,
    text,
    tuple_,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from coup.store import schema as s
from coup.store import sql

if TYPE_CHECKING:
    from coup.store.sql import SqlStore

Row = dict[str, Any]
DEAD_AFTER = 10_000  # ms without a heartbeat: the process is dead


@dataclass
class Changes:
    row: Row
    settings: str
    seats: list[Row]
    events: list[Row]  # of game `row["games"]` from the seq asked for (if the same game)
    chat: list[Row]
    deadlines: list[Row]
    connected: dict[str, int] = field(default_factory=dict)  # member -> live processes
    watching: dict[str, int] = field(default_factory=dict)  # process -> its spectators
    handoffs: list[Row] = field(default_factory=list)  # of game `row["games"]`, in order


def _no_flush_wait(conn: Connection) -> None:
    """This transaction's commit does not wait for the WAL flush (PostgreSQL): for rows
    whose loss in a database crash is harmless (claims, connections, heartbeats)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SET LOCAL synchronous_commit TO OFF"))


def _alive(now: int, dead_after: int) -> Any:
    return select(s.processes.c.id).where(s.processes.c.seen_at >= now - dead_after)


def _connected(conn: Connection, table_id: str, now: int, dead_after: int) -> dict[str, int]:
    rows = conn.execute(
        select(s.presence.c.member, func.count())
        .where(s.presence.c.table_id == table_id, s.presence.c.process.in_(_alive(now, dead_after)))
        .group_by(s.presence.c.member)
    )
    return {str(m): int(n) for m, n in rows}


async def changes(
    store: SqlStore,
    table_id: str,
    *,
    known_version: int,
    game: int,
    seq: int,
    chat_after: int,
    now: int,
    dead_after: int,
) -> Changes | None:
    """The table's state beyond what the caller has; None if the table's version is still
    `known_version` (nothing changed) or the table does not exist."""

    def fn(conn: Connection) -> Changes | None:
        found = conn.execute(select(s.tables).where(s.tables.c.id == table_id)).first()
        if found is None or int(found.version) == known_version:
            return None
        row = dict(found._mapping)
        settings = row.pop("settings")
        seats = sql.seat_rows(conn, table_id)
        events: list[Row] = []
        if int(row["games"]) == game and game > 0:
            e = s.events.c
            query = select(s.events).where(e.table_id == table_id, e.game == game, e.seq >= seq)
            events = sql.rows(conn, query.order_by(e.seq))
        chat = sql.chat_rows(conn, table_id, after=chat_after, limit=50)
        deadlines = sql.deadline_rows(conn, table_id)
        connected = _connected(conn, table_id, now, dead_after)
        watching = _watching(conn, table_id, now, dead_after)
        games = int(row["games"])
        handoffs = sql.handoff_rows(conn, table_id, games) if games > 0 else []
        return Changes(row, settings, seats, events, chat, deadlines, connected, watching, handoffs)

    return await store._run(fn)


async def connected(store: SqlStore, table_id: str, *, now: int, dead_after: int) -> dict[str, int]:
    return await store._run(lambda conn: _connected(conn, table_id, now, dead_after))


async def set_presence(
    store: SqlStore,
    table_id: str,
    member: str,
    process: str,
    *,
    present: bool,
    now: int,
    version: int,
    deadlines: list[Row],
) -> None:
    """This process now holds (or no longer holds) connections of `member`; the table's
    version goes up and its deadlines are replaced, all or nothing (Conflict)."""

    def fn(conn: Connection) -> None:
        _no_flush_wait(conn)  # connections are not durable state: a crash forgets them anyway
        store._bump(conn, table_id, version)
        p = s.presence.c
        conn.execute(
            delete(s.presence).where(
                p.table_id == table_id, p.member == member, p.process == process
            )
        )
        if present:
            conn.execute(
                insert(s.presence).values(
                    table_id=table_id, member=member, process=process, since=now
                )
            )
        sql.replace_rows(conn, s.deadlines, table_id, deadlines)

    await store._run(fn)


async def heartbeat(store: SqlStore, process: str, now: int) -> None:
    def fn(conn: Connection) -> None:
        _no_flush_wait(conn)
        done = conn.execute(
            update(s.processes).where(s.processes.c.id == process).values(seen_at=now)
        )
        if done.rowcount == 0:
            conn.execute(insert(s.processes).values(id=process, started_at=now, seen_at=now))

    await store._run(fn)


def _watching(conn: Connection, table_id: str, now: int, dead_after: int) -> dict[str, int]:
    w = s.watchers.c
    rows = conn.execute(
        select(w.process, w.count).where(
            w.table_id == table_id, w.process.in_(_alive(now, dead_after))
        )
    )
    return {str(p): int(n) for p, n in rows}


async def set_watchers(
    store: SqlStore, table_id: str, process: str, count: int, *, now: int, dead_after: int
) -> dict[str, int]:
    """This process holds `count` spectators of the table; the spectators of every live
    process (this one's included)."""

    def fn(conn: Connection) -> dict[str, int]:
        _no_flush_wait(conn)  # connections are not durable state
        upsert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
        row = upsert(s.watchers).values(table_id=table_id, process=process, count=count)
        keys = ["table_id", "process"]
        conn.execute(row.on_conflict_do_update(index_elements=keys, set_={"count": count}))
        return _watching(conn, table_id, now, dead_after)

    return await store._run(fn)


def _forget(conn: Connection, which: Any) -> Any:
    """Delete the connection rows of the processes `which` (a condition on a process
    column); the presence rows' table ids."""
    conn.execute(delete(s.watchers).where(which(s.watchers.c.process)))
    return conn.execute(
        delete(s.presence).where(which(s.presence.c.process)).returning(s.presence.c.table_id)
    )


async def reap(store: SqlStore, now: int, dead_after: int) -> list[str]:
    """Forget the connections of dead processes; the tables whose seats that touched."""

    def fn(conn: Connection) -> list[str]:
        gone = _forget(conn, lambda c: c.not_in(_alive(now, dead_after)))
        tables = sorted({str(r[0]) for r in gone})
        # its row goes with its connections: ~10 s after its last heartbeat (docs/deploy.md)
        conn.execute(delete(s.processes).where(s.processes.c.seen_at < now - dead_after))
        return tables

    return await store._run(fn)


async def leave(store: SqlStore, process: str) -> list[str]:
    """A process stopping: drop its presence rows and its heartbeat; the tables touched."""

    def fn(conn: Connection) -> list[str]:
        gone = _forget(conn, lambda c: c == process)
        conn.execute(delete(s.processes).where(s.processes.c.id == process))
        return sorted({str(r[0]) for r in gone})

    return await store._run(fn)


async def forget_others(store: SqlStore, process: str) -> None:
    """The only process on this store starts: every other process's rows are from an
    earlier run (a crash or a kill leaves them behind)."""

    def fn(conn: Connection) -> None:
        _forget(conn, lambda c: c != process)
        conn.execute(delete(s.processes).where(s.processes.c.id != process))

    await store._run(fn)


async def claim(store: SqlStore, *, now: int, lease_ms: int, limit: int = 64) -> list[Row]:
    """Take up to `limit` due deadlines nobody holds (rows locked by another claimer are
    skipped, not waited for); each is ours for `lease_ms`."""

    def fn(conn: Connection) -> list[Row]:
        # A claim lost in a database crash only means its lease is lost: claimed again.
        _no_flush_wait(conn)
        d = s.deadlines
        due = conn.execute(
            select(d.c.table_id, d.c.seat, d.c.game, d.c.seq, d.c.due_at)
            .where(d.c.due_at <= now, or_(d.c.claimed_until.is_(None), d.c.claimed_until < now))
            .order_by(d.c.due_at)
            .limit(limit)
            .with_for_update(skip_locked=True)
        ).all()
        if not due:
            return []
        keys = [(r.table_id, r.seat) for r in due]
        conn.execute(
            update(d)
            .where(tuple_(d.c.table_id, d.c.seat).in_(keys))
            .values(claimed_until=now + lease_ms)
        )
        return [dict(r._mapping) for r in due]

    return await store._run(fn)


async def versions(store: SqlStore, table_ids: list[str]) -> dict[str, int]:
    if not table_ids:
        return {}

    def fn(conn: Connection) -> dict[str, int]:
        rows = conn.execute(
            select(s.tables.c.id, s.tables.c.version).where(s.tables.c.id.in_(table_ids))
        )
        return {str(i): int(v) for i, v in rows}

    return await store._run(fn)


async def count_rows(store: SqlStore) -> dict[str, Any]:
    """Row counts for monitoring (`coup loadtest` reports them)."""

    def fn(conn: Connection) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, table in (
            ("events", s.events),
            ("deadlines", s.deadlines),
            ("presence", s.presence),
        ):
            out[name] = conn.execute(select(func.count()).select_from(table)).scalar()
        return out

    return await store._run(fn)
