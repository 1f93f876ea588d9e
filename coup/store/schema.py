"""The database tables of the online table: the durable event log and what surrounds it.

Every JSON value is stored as text so that SQLite and PostgreSQL hold exactly the same
bytes. Times are integer milliseconds since the Unix epoch.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()


def _of_tables(
    name: str, *columns: Column[Any] | Index | UniqueConstraint, key: bool = True
) -> Table:
    """A table of rows that belong to one online table: `table_id` first (the first part of
    the primary key when `key`)."""
    return Table(
        name, metadata, Column("table_id", String(32), primary_key=key, nullable=False), *columns
    )


def _int(name: str, *, nullable: bool = False, key: bool = False) -> Column[int]:
    return Column(name, Integer, nullable=nullable, primary_key=key)


def _ms(name: str, *, nullable: bool = False) -> Column[int]:
    """A time: integer milliseconds since the Unix epoch."""
    return Column(name, BigInteger, nullable=nullable)


# One row per table (a private link). `version` is the last version any client saw.
tables = Table(
    "coup_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    _ms("created_at"),
    Column("settings", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("version", BigInteger, nullable=False),
    _int("games"),
    Column("last_winner", String(64), nullable=True),  # member id of the last winner
)

# Who sits where. Tokens are kept only as their SHA-256. The table's former players
# (removed, or left) are rows at seats -1, -2, ... (the oldest at -1): `gone` says why,
# `blocked` whether the host blocked them; `device` the browser a person sat down from.
seats = _of_tables(
    "coup_seats",
    _int("seat", key=True),
    Column("member", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("level", String(16), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("host", Boolean, nullable=False),
    Column("device", String(64), nullable=True),
    Column("gone", String(8), nullable=True),
    Column("blocked", Boolean, nullable=True),
)

# One row per game: the record's header (everything but the moves; includes the seed).
games = _of_tables(
    "coup_games",
    _int("game", key=True),
    Column("header", Text, nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("members", Text, nullable=False),
    Column("status", String(16), nullable=False),
    _int("winner", nullable=True),
    _ms("started_at"),
    _ms("ended_at", nullable=True),
)

# The event log: a move is accepted by inserting the next seq.
events = _of_tables(
    "coup_events",
    _int("game"),
    _int("seq"),
    _int("seat"),
    Column("move", String(64), nullable=False),
    Column("draw", Text, nullable=True),
    Column("timeout", Boolean, nullable=False),
    _int("step", nullable=True),  # index in the view's history, for timeouts
    _ms("at"),
    UniqueConstraint("table_id", "game", "seq", name="coup_events_game_seq"),
    key=False,
)

chat = Table(
    "coup_chat",
    metadata,
    Column(
        "id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    ),
    Column("table_id", String(32), nullable=False),
    _int("seat"),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    _ms("at"),
    Index("coup_chat_table", "table_id", "id"),
)

# Where a bot took over a seat of a game or gave it back (the log says so), in order `n`:
# `step` is the length of the view's history then, `reason` "host" | "left" | "back".
handoffs = _of_tables(
    "coup_handoffs",
    _int("game", key=True),
    _int("n", key=True),
    _int("step"),
    _int("seat"),
    Column("reason", String(8), nullable=False),
)

# When a timer or a bot must move next, so that a restarted server resumes on time.
deadlines = _of_tables(
    "coup_deadlines",
    _int("seat", key=True),
    Column("kind", String(16), nullable=False),
    _ms("due_at"),
    _int("seconds"),
    _int("game"),
    _int("seq"),
    # Several processes (PostgreSQL): the one that claimed this deadline (FOR UPDATE SKIP
    # LOCKED) until when; after that another process may take it over (coup/store/processes.py).
    _ms("claimed_until", nullable=True),
)

# Several processes on one database (coup/store/processes.py): every process writes its
# heartbeat here; one not seen for a while is dead.
processes = Table(
    "coup_processes",
    metadata,
    Column("id", String(32), primary_key=True),
    _ms("started_at"),
    _ms("seen_at"),
)

# How many spectators each process holds at a table (a view counts every live process's).
watchers = _of_tables(
    "coup_watchers",
    Column("process", String(32), primary_key=True),
    _int("count"),
)

# One row per (table, member, process) while that process holds a connection of member.
presence = _of_tables(
    "coup_presence",
    Column("member", String(64), primary_key=True),
    Column("process", String(32), primary_key=True),
    _ms("since"),
)

# The coach's analyses of finished games and its queue, one per (table, game, seat): the
# people's seats queued when the game ends, any other when asked for
# (coup/store/analyses.py): status, progress, and the coup-coach/1 JSON once done.
reviews = Table(
    "coup_reviews",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=True),
    Column("result", Text, nullable=True),
    _ms("updated_at"),
    Column("asked", Integer, nullable=True),  # 1: someone asked for it (it goes first)
    Index("coup_reviews_queue", "status", "updated_at"),  # the next one to take
)
