"""What the store forgets: chat lines past the last ones a view shows, and tables nobody
came back to (docs/deploy.md, *Security*).

- Chat: each new line deletes the table's lines older than its last `keep` (a view
  shows the last 50; nothing else reads them).
- A table is expired, with every row of it (seats, games and their moves, chat, the
  coach's analyses), when no game runs at it, nobody is connected to it, and its last
  sign of life (its creation, its last game's end, its last chat line) is older than its
  time: a lobby that never played a game after `lobby_ms`, a table that played after
  `finished_ms`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import Connection, and_, case, delete, exists, func, or_, select

from coup.store import schema as s

if TYPE_CHECKING:
    from coup.store.sql import SqlStore

#: Chat lines kept per table: as many as a view shows (`coup.server.protocol.CHAT_KEEP`).
CHAT_STORED = 50

#: Tables forgotten in one transaction at most.
BATCH = 500

#: The rows that belong to a table, deleted with it (the table's own row last).
ROWS_OF_A_TABLE = (
    s.seats,
    s.games,
    s.events,
    s.chat,
    s.handoffs,
    s.deadlines,
    s.watchers,
    s.presence,
)


def trim_chat(conn: Connection, table_id: str, keep: int) -> None:
    """Delete the table's chat lines older than its last `keep`."""
    c = s.chat.c
    oldest_kept = (
        select(c.id)
        .where(c.table_id == table_id)
        .order_by(c.id.desc())
        .offset(keep - 1)
        .limit(1)
        .scalar_subquery()
    )
    conn.execute(delete(s.chat).where(c.table_id == table_id, c.id < oldest_kept))


def expired(conn: Connection, now: int, lobby_ms: int, finished_ms: int, most: int) -> list[str]:
    """Up to `most` tables whose time is up (oldest first)."""
    t, g, c = s.tables.c, s.games.c, s.chat.c
    last_game = select(func.max(g.ended_at)).where(g.table_id == t.id).scalar_subquery()
    last_chat = select(func.max(c.at)).where(c.table_id == t.id).scalar_subquery()
    cutoff = case((t.games == 0, now - lobby_ms), else_=now - finished_ms)
    connected = or_(
        exists().where(s.presence.c.table_id == t.id),
        exists().where(and_(s.watchers.c.table_id == t.id, s.watchers.c.count > 0)),
    )
    query = (
        select(t.id)
        .where(
            t.status != "playing",
            t.created_at < now - min(lobby_ms, finished_ms),
            t.created_at < cutoff,
            func.coalesce(last_game, 0) < cutoff,
            func.coalesce(last_chat, 0) < cutoff,
            ~connected,
        )
        .order_by(t.created_at)
        .limit(most)
    )
    return [str(row[0]) for row in conn.execute(query)]


def forget(conn: Connection, table_ids: list[str]) -> None:
    """Delete the tables and every row of them."""
    if not table_ids:
        return
    for rows in ROWS_OF_A_TABLE:
        conn.execute(delete(rows).where(rows.c.table_id.in_(table_ids)))
    conn.execute(delete(s.reviews).where(s.reviews.c.table_id.in_(table_ids)))
    conn.execute(delete(s.tables).where(s.tables.c.id.in_(table_ids)))


async def expire(
    store: SqlStore, now: int, lobby_ms: int, finished_ms: int, most: int = BATCH
) -> list[str]:
    """Find and forget up to `most` expired tables, in one transaction; their ids."""

    def fn(conn: Connection) -> list[str]:
        gone = expired(conn, now, lobby_ms, finished_ms, most)
        forget(conn, gone)
        return gone

    return await store._run(fn)
