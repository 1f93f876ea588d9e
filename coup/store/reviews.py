"""After the game: the coach's stored analyses and the table's scoreboard.

`coup_reviews` holds one row per (table, game, seat) the coach was asked about: its
status (`queued`, `running`, `done`, `failed`), progress (`done` of `total` decisions),
and once done the `coup-coach/1` JSON, so each analysis runs once. A process that finds
a row not done and untouched for `STALE_MS` takes it over (its process went away).

The scoreboard is read from `coup_games`: every finished game of the table, its members
(seat holders, by member id) and its winner.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, insert, select, update

from coup.store import schema as s
from coup.store.schema import reviews

if TYPE_CHECKING:
    from coup.store.sql import SqlStore

#: A review not done whose row was not touched for this long is taken over.
STALE_MS = 120_000


def _row(conn: Connection, table_id: str, game: int, seat: int) -> dict[str, Any] | None:
    """The review's row, its ``result`` parsed (None if nobody asked for it yet)."""
    r = conn.execute(
        select(reviews).where(
            reviews.c.table_id == table_id, reviews.c.game == game, reviews.c.seat == seat
        )
    ).first()
    if r is None:
        return None
    row = dict(r._mapping)
    if row["result"] is not None:
        row["result"] = json.loads(row["result"])
    return row


def _key(table_id: str, game: int, seat: int) -> Any:
    return (reviews.c.table_id == table_id) & (reviews.c.game == game) & (reviews.c.seat == seat)


async def get_review(store: SqlStore, table_id: str, game: int, seat: int) -> dict[str, Any] | None:
    """The review's row (``result`` parsed), or None if nobody asked for it yet."""
    return await store._run(lambda conn: _row(conn, table_id, game, seat))


async def claim_review(
    store: SqlStore, table_id: str, game: int, seat: int, seed: int, now: int
) -> tuple[bool, dict[str, Any]]:
    """Ask for a review: (True, row) if this process must run it (new, or stale), else
    (False, row) as it stands."""

    def fn(conn: Connection) -> tuple[bool, dict[str, Any]]:
        row = _row(conn, table_id, game, seat)
        if row is None:
            fresh = {
                "table_id": table_id, "game": game, "seat": seat, "seed": seed,
                "status": "queued", "done": 0, "total": None, "result": None, "updated_at": now,
            }  # fmt: skip
            conn.execute(insert(reviews).values(**fresh))
            return True, fresh
        stale = row["status"] != "done" and now - int(row["updated_at"]) > STALE_MS
        if not stale:
            return False, row
        taken = conn.execute(
            update(reviews)
            .where(_key(table_id, game, seat), reviews.c.updated_at == row["updated_at"])
            .values(status="queued", done=0, total=None, updated_at=now)
        )
        row.update(status="queued", done=0, total=None, updated_at=now)
        return taken.rowcount == 1, row

    return await store._run(fn)


async def progress_review(
    store: SqlStore,
    table_id: str,
    game: int,
    seat: int,
    *,
    status: str,
    done: int,
    total: int | None,
    now: int,
    result: dict[str, Any] | None = None,
) -> None:
    values: dict[str, Any] = {"status": status, "done": done, "total": total, "updated_at": now}
    if result is not None:
        values["result"] = json.dumps(result, separators=(",", ":"))
    await store._run(
        lambda conn: conn.execute(
            update(reviews).where(_key(table_id, game, seat)).values(**values)
        )
    )


async def scoreboard(store: SqlStore, table_id: str) -> dict[str, Any]:
    """Games and wins by player over the table's finished games (most wins first)."""

    def fn(conn: Connection) -> list[dict[str, Any]]:
        rows = conn.execute(
            select(s.games.c.game, s.games.c.header, s.games.c.members, s.games.c.winner)
            .where(s.games.c.table_id == table_id, s.games.c.status == "over")
            .order_by(s.games.c.game)
        )
        return [dict(r._mapping) for r in rows]

    rows = await store._run(fn)
    board: dict[str, dict[str, Any]] = {}
    for r in rows:
        names = json.loads(r["header"]).get("players", [])
        for seat, member in enumerate(json.loads(r["members"])):
            entry = board.setdefault(member, {"name": "", "games": 0, "wins": 0})
            entry["name"] = names[seat] if seat < len(names) else entry["name"]
            entry["games"] += 1
            entry["wins"] += int(r["winner"] == seat)
    players = sorted(board.values(), key=lambda e: (-e["wins"], e["games"], e["name"]))
    return {"games": len(rows), "players": players}
