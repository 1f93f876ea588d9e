"""Creating and upgrading the database schema on start: `create_all` plus a version row.

Why not Alembic: the schema is a handful of tables that only ever grow (new tables, new
nullable columns), so each upgrade is one or two idempotent statements written here
next to the version number. `create_all` makes whatever is missing; the single row of
`coup_schema` says which upgrades already ran. A database written by a newer Coup is
refused at start instead of being half-understood. When a change ever needs data
migrations or downgrades, that is the time to bring in Alembic.

Several processes may start at once against one PostgreSQL: the upgrade runs in one
transaction under a transaction-scoped advisory lock, so exactly one of them creates
and upgrades, and the others find everything done (the lock is only for this DDL).
"""

from __future__ import annotations

from sqlalchemy import Column, Connection, Integer, Table, inspect, select, text

from coup.store import schema as s

SCHEMA_VERSION = 7
"""1: the single-process schema; 2: coup_deadlines.claimed_until, presence, processes;
3: watchers (spectators per process; a new table, made by `create_all`); 4: handoffs
(where a bot took over a seat of a game or gave it back; a new table, made by
`create_all`); 5: the index `coup_reviews_queue` the coach's queue is taken by; 6:
coup_reviews.asked (an asked-for analysis goes before the automatic ones); 7:
coup_seats.device, .gone, .blocked (a table's former players, who may be blocked)."""

_MIGRATION_LOCK = 0x0C0_5C4E  # any constant shared by every Coup process

versions = Table(
    "coup_schema",
    s.metadata,
    Column("version", Integer, nullable=False),
)


class SchemaError(RuntimeError):
    """The database was written by a newer Coup (or is otherwise not ours)."""


def upgrade(conn: Connection) -> int:
    """Create or upgrade the schema in this transaction; returns the version found before."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
    existed = inspect(conn).has_table("coup_tables")
    s.metadata.create_all(conn)
    found = conn.execute(select(versions.c.version)).scalar()
    if found is None:
        found = 1 if existed else SCHEMA_VERSION
        conn.execute(versions.insert().values(version=found))
    if found > SCHEMA_VERSION:
        raise SchemaError(
            f"the database has schema version {found}, newer than this Coup's "
            f"{SCHEMA_VERSION}: upgrade Coup (or use another database)"
        )
    if found < 2:
        columns = {c["name"] for c in inspect(conn).get_columns("coup_deadlines")}
        if "claimed_until" not in columns:
            conn.execute(text("ALTER TABLE coup_deadlines ADD COLUMN claimed_until BIGINT"))
    if found < 5:  # `create_all` makes a missing table's indexes, not an existing one's
        conn.execute(
            text(
                "CREATE INDEX IF NOT EXISTS coup_reviews_queue ON coup_reviews (status, updated_at)"
            )
        )
    if found < 6:
        columns = {c["name"] for c in inspect(conn).get_columns("coup_reviews")}
        if "asked" not in columns:
            conn.execute(text("ALTER TABLE coup_reviews ADD COLUMN asked INTEGER"))
    if found < 7:
        _former_players(conn)
    if found < SCHEMA_VERSION:
        conn.execute(versions.update().values(version=SCHEMA_VERSION))
    return int(found)


def _former_players(conn: Connection) -> None:
    """Version 7: the device a person sat down from, and former players (removed, or
    left; blocked or not) kept with the seats."""
    columns = {c["name"] for c in inspect(conn).get_columns("coup_seats")}
    for name, kind in (("device", "VARCHAR(64)"), ("gone", "VARCHAR(8)"), ("blocked", "BOOLEAN")):
        if name not in columns:
            conn.execute(text(f"ALTER TABLE coup_seats ADD COLUMN {name} {kind}"))
