"""After the game: the coach's stored analyses (its queue) and the table's scoreboard.

`coup_reviews` holds one row per (table, game, seat) to analyse: its status (`queued`,
`running`, `done`, `failed`), progress (`done` of `total` decisions), and once done the
`coup-coach/1` JSON, so each analysis runs once. The rows are the coach's queue, shared by
every process: a game's end queues its people's seats in the same transaction as its last
move (`queued_rows`), and asking for any seat queues that one (`ask_review`), marked
`asked`. A worker takes the next row with a conditional update (`take_review`: of
several processes exactly one gets it): an asked-for one before any other, else the
oldest. The automatic ones wait in a bounded backlog: beyond the newest `BACKLOG` of them
the oldest are `skipped` (`skip_backlog`; asking for one queues it again, first); a row running but untouched for `STALE_MS` (its process
went away) is taken over the same way. Every write of the worker is fenced by the
`updated_at` it last wrote (`progress_review`), so a process that lost its row to a
takeover stops instead of writing over the new owner. A queued row waits in the store,
so a restart loses nothing.

The scoreboard is read from `coup_games`: every finished game of the table, its members
(seat holders, by member id) and its winner.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, and_, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from coup.store import schema as s
from coup.store.schema import reviews

if TYPE_CHECKING:
    from coup.store.sql import SqlStore

#: A running review whose row was not touched for this long is taken over (its process
#: went away); a failed one is queued again by the next ask after this long.
STALE_MS = 120_000
#: How many of the oldest candidates one `take_review` tries (others may take some first).
TRIES = 8
#: Automatic analyses kept queued at most; older ones are skipped until someone asks.
BACKLOG = 500


def _parsed(r: Any) -> dict[str, Any]:
    row = dict(r._mapping)
    if row["result"] is not None:
        row["result"] = json.loads(row["result"])
    return row


def _row(conn: Connection, table_id: str, game: int, seat: int) -> dict[str, Any] | None:
    """The review's row, its ``result`` parsed (None if it was never queued)."""
    r = conn.execute(select(reviews).where(_key(table_id, game, seat))).first()
    return None if r is None else _parsed(r)


def _key(table_id: str, game: int, seat: int) -> Any:
    return (reviews.c.table_id == table_id) & (reviews.c.game == game) & (reviews.c.seat == seat)


def _fresh(
    table_id: str, game: int, seat: int, seed: int, now: int, asked: int | None = None
) -> dict[str, Any]:
    return {
        "table_id": table_id, "game": game, "seat": seat, "seed": seed, "asked": asked,
        "status": "queued", "done": 0, "total": None, "result": None, "updated_at": now,
    }  # fmt: skip


def queued_rows(table_id: str, game: int, seats: Sequence[int], seed: int, now: int) -> list[Any]:
    """The rows that queue the analyses of ``seats`` (written with the game's last move)."""
    return [_fresh(table_id, game, seat, seed, now) for seat in seats]


def queue(conn: Connection, rows: list[Any]) -> None:
    """Insert `queued_rows` in the caller's transaction (a game that just ended has none)."""
    if rows:
        conn.execute(insert(reviews), rows)


async def get_review(store: SqlStore, table_id: str, game: int, seat: int) -> dict[str, Any] | None:
    """The review's row (``result`` parsed), or None if it was never queued."""
    return await store._run(lambda conn: _row(conn, table_id, game, seat))


async def game_reviews(store: SqlStore, table_id: str, game: int) -> list[dict[str, Any]]:
    """Every review of the game, by seat, without their results."""
    cols = [reviews.c.seat, reviews.c.status, reviews.c.done, reviews.c.total]

    def fn(conn: Connection) -> list[dict[str, Any]]:
        rows = conn.execute(
            select(*cols)
            .where(reviews.c.table_id == table_id, reviews.c.game == game)
            .order_by(reviews.c.seat)
        )
        return [dict(r._mapping) for r in rows]

    return await store._run(fn)


async def ask_review(
    store: SqlStore, table_id: str, game: int, seat: int, seed: int, now: int
) -> dict[str, Any]:
    """The review's row as it stands, marked asked for (it goes first); queues it if it
    never was, was skipped, or failed more than `STALE_MS` ago."""

    def fn(conn: Connection) -> dict[str, Any]:
        row = _row(conn, table_id, game, seat)
        if row is None:
            fresh = _fresh(table_id, game, seat, seed, now, asked=1)
            conn.execute(insert(reviews).values(**fresh))
            return fresh
        if row["status"] in ("queued", "skipped") and not row["asked"]:
            first = conn.execute(
                update(reviews)
                .where(_key(table_id, game, seat), reviews.c.status == row["status"])
                .values(status="queued", asked=1)
            )
            if first.rowcount == 1:
                row.update(status="queued", asked=1)
        if row["status"] == "failed" and now - int(row["updated_at"]) > STALE_MS:
            again = conn.execute(
                update(reviews)
                .where(_key(table_id, game, seat), reviews.c.status == "failed")
                .values(status="queued", done=0, total=None, updated_at=now, asked=1)
            )
            if again.rowcount == 1:
                row.update(status="queued", done=0, total=None, updated_at=now)
        return row

    try:
        return await store._run(fn)
    except IntegrityError:  # another process queued it at the same moment
        row = await get_review(store, table_id, game, seat)
        assert row is not None
        return row


async def take_review(store: SqlStore, now: int) -> dict[str, Any] | None:
    """Claim the next review to run for this process: an asked-for one first, else the
    oldest queued, or one running untouched for `STALE_MS`. Its row becomes `running` with ``updated_at`` = ``now`` (the
    fence of every later write); None when there is nothing to do."""

    def fn(conn: Connection) -> dict[str, Any] | None:
        waiting = or_(
            reviews.c.status == "queued",
            and_(reviews.c.status == "running", reviews.c.updated_at < now - STALE_MS),
        )
        found = conn.execute(
            select(reviews.c.table_id, reviews.c.game, reviews.c.seat, reviews.c.status,
                   reviews.c.updated_at, reviews.c.seed, reviews.c.asked)
            .where(waiting)
            .order_by(func.coalesce(reviews.c.asked, 0).desc(), reviews.c.updated_at)
            .limit(TRIES)
        ).all()  # fmt: skip
        for r in found:
            taken = conn.execute(
                update(reviews)
                .where(
                    _key(r.table_id, r.game, r.seat),
                    reviews.c.status == r.status,
                    reviews.c.updated_at == r.updated_at,
                )
                .values(status="running", done=0, total=None, updated_at=now)
            )
            if taken.rowcount == 1:
                return {"table_id": r.table_id, "game": r.game, "seat": r.seat,
                        "seed": r.seed, "updated_at": now, "asked": bool(r.asked)}  # fmt: skip
        return None

    return await store._run(fn)


async def progress_review(
    store: SqlStore,
    table_id: str,
    game: int,
    seat: int,
    *,
    since: int,
    status: str,
    done: int,
    total: int | None,
    now: int,
    result: dict[str, Any] | None = None,
) -> bool:
    """Write a running review's progress (or its end: `done` with the result, `failed`),
    only if its row still shows ``since``, the ``updated_at`` this process last wrote;
    False if another process took it over meanwhile (nothing is written)."""
    values: dict[str, Any] = {"status": status, "done": done, "total": total, "updated_at": now}
    if result is not None:
        values["result"] = json.dumps(result, separators=(",", ":"))
    fence = _key(table_id, game, seat) & (reviews.c.status == "running")
    fence &= reviews.c.updated_at == since

    def fn(conn: Connection) -> bool:
        return bool(conn.execute(update(reviews).where(fence).values(**values)).rowcount == 1)

    return await store._run(fn)


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


async def requeue_running(store: SqlStore, now: int) -> int:
    """Queue again every running review (at start, when this process is the store's only
    writer: they were left by an earlier run of it); how many."""

    def fn(conn: Connection) -> int:
        again = conn.execute(
            update(reviews)
            .where(reviews.c.status == "running")
            .values(status="queued", done=0, total=None, updated_at=now)
        )
        return int(again.rowcount)

    return await store._run(fn)


async def skip_backlog(store: SqlStore, keep: int = BACKLOG) -> int:
    """Skip the oldest queued analyses nobody asked for beyond the newest `keep`; how many
    (a viewer sees `skipped`, and asking for one queues it again, first)."""
    unasked = (reviews.c.status == "queued") & (reviews.c.asked.is_(None))

    def fn(conn: Connection) -> int:
        count = int(conn.execute(select(func.count()).where(unasked)).scalar() or 0)
        if count <= keep:
            return 0
        oldest = conn.execute(
            select(reviews.c.table_id, reviews.c.game, reviews.c.seat)
            .where(unasked)
            .order_by(reviews.c.updated_at)
            .limit(count - keep)
        ).all()
        skipped = 0
        for r in oldest:
            done = conn.execute(
                update(reviews).where(_key(r.table_id, r.game, r.seat) & unasked)
                .values(status="skipped")
            )  # fmt: skip
            skipped += int(done.rowcount)
        return skipped

    return await store._run(fn)


async def queue_depth(store: SqlStore) -> dict[str, int]:
    """The coach's queue: analyses queued (of them asked for), running, skipped."""

    def fn(conn: Connection) -> dict[str, int]:
        asked = func.coalesce(reviews.c.asked, 0)
        rows = conn.execute(
            select(reviews.c.status, asked, func.count())
            .where(reviews.c.status.in_(("queued", "running", "skipped")))
            .group_by(reviews.c.status, asked)
        ).all()
        out = {"queued": 0, "asked": 0, "running": 0, "skipped": 0}
        for status, was_asked, n in rows:
            out[status] += int(n)
            if status == "queued" and was_asked:
                out["asked"] += int(n)
        return out

    return await store._run(fn)
