"""The database tables of the online table: the durable event log and what surrounds it.

Every JSON value is stored as text so that SQLite and PostgreSQL hold exactly the same
bytes. Times are integer milliseconds since the Unix epoch.
"""

from __future__ import annotations

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

# One row per table (a private link). `version` is the last version any client saw.
tables = Table(
    "coup_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", BigInteger, nullable=False),
    Column("settings", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("version", BigInteger, nullable=False),
    Column("games", Integer, nullable=False),
    Column("last_winner", String(64), nullable=True),  # member id of the last winner
)

# Who sits where. Tokens are kept only as their SHA-256.
seats = Table(
    "coup_seats",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("member", String(64), nullable=False),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("level", String(16), nullable=True),
    Column("token_hash", String(64), nullable=True),
    Column("host", Boolean, nullable=False),
)

# One row per game: the record's header (everything but the moves; includes the seed).
games = Table(
    "coup_games",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("game", Integer, primary_key=True),
    Column("header", Text, nullable=False),
    Column("commitment", String(64), nullable=False),
    Column("members", Text, nullable=False),
    Column("status", String(16), nullable=False),
    Column("winner", Integer, nullable=True),
    Column("started_at", BigInteger, nullable=False),
    Column("ended_at", BigInteger, nullable=True),
)

# The event log: a move is accepted by inserting the next seq.
events = Table(
    "coup_events",
    metadata,
    Column("table_id", String(32), nullable=False),
    Column("game", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("move", String(64), nullable=False),
    Column("draw", Text, nullable=True),
    Column("timeout", Boolean, nullable=False),
    Column("step", Integer, nullable=True),  # index in the view's history, for timeouts
    Column("at", BigInteger, nullable=False),
    UniqueConstraint("table_id", "game", "seq", name="coup_events_game_seq"),
)

chat = Table(
    "coup_chat",
    metadata,
    Column(
        "id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True
    ),
    Column("table_id", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", BigInteger, nullable=False),
    Index("coup_chat_table", "table_id", "id"),
)

# When a timer or a bot must move next, so that a restarted server resumes on time.
deadlines = Table(
    "coup_deadlines",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("due_at", BigInteger, nullable=False),
    Column("seconds", Integer, nullable=False),
    Column("game", Integer, nullable=False),
    Column("seq", Integer, nullable=False),
    # Several processes (PostgreSQL): the one that claimed this deadline (FOR UPDATE SKIP
    # LOCKED) until when; after that another process may take it over (coup/store/processes.py).
    Column("claimed_until", BigInteger, nullable=True),
)
