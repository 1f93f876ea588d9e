"""The SQL store (SQLAlchemy 2 Core): SQLite by default, PostgreSQL by URL.

Every operation is one transaction written as a plain function of a SQLAlchemy
`Connection`; how it runs depends on the database:

- `postgresql://...`: the async engine (asyncpg), through `AsyncConnection.run_sync`
  (a move: one statement sent to asyncpg itself, `postgres_move.py`).
- `sqlite:///FILE` (the default): one writer thread with the standard `sqlite3` driver,
  one thread hop per transaction (a move is written on the loop's own thread when that
  thread is idle: `sqlite_thread.py`). SQLite has a single writer anyway, and going through
  aiosqlite costs a thread hop per *statement*, an order of magnitude fewer transactions
  per second under the same load (docs/deploy.md).
- `sqlite+aiosqlite:///FILE`: the async aiosqlite engine (kept for comparison and tests).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, create_engine, delete, event, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from coup.store import analyses, migrate, postgres_move, sqlite_move
from coup.store import schema as s
from coup.store.expiry import CHAT_STORED, trim_chat
from coup.store.sqlite_thread import SqliteThread

Row = dict[str, Any]
T = TypeVar("T")


class Conflict(Exception):
    """The event's (table, game, seq) is already taken: someone else moved first."""


@dataclass
class GameData:
    row: Row
    header: dict[str, Any]
    members: list[str]
    events: list[Row]
    handoffs: list[Row] = field(default_factory=list)  # {"n", "step", "seat", "reason"}


@dataclass
class TableData:
    row: Row
    settings: dict[str, Any]
    seats: list[Row]
    game: GameData | None
    chat: list[Row] = field(default_factory=list)
    deadlines: list[Row] = field(default_factory=list)


def engine_url(url: str) -> str:
    """The SQLAlchemy URL: `sqlite:///x.db` (sqlite3 in a writer thread),
    `sqlite+aiosqlite:///x.db`, or `postgresql+asyncpg://...` for `postgresql://...`."""
    if url.startswith(("sqlite:///", "sqlite+aiosqlite:///", "postgresql+asyncpg://")):
        return url
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix) :]
    raise ValueError(f"unsupported database URL {url!r} (use sqlite:///FILE or postgresql://...)")


async def open_store(url: str) -> SqlStore:
    store = SqlStore(url)
    await store.create()
    return store


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")  # with synchronous=NORMAL: survives kill -9
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


class SqlStore:
    def __init__(self, url: str) -> None:
        self.url = url
        full = engine_url(url)
        self.sqlite = full.startswith("sqlite")
        self.sync_engine: Engine | None = None
        self.engine: AsyncEngine | None = None
        self._thread: SqliteThread | None = None
        self._moves: postgres_move.MoveConnections | None = None
        self._write_lock = asyncio.Lock()
        # Several processes: every write that bumps a table's version also checks it was
        # the one before (`version - 1`), else Conflict (the table service sets it).
        self.check_versions = False
        # A move that does not end the game takes the fast write: one statement on
        # PostgreSQL (coup/store/postgres_move.py), the driver's cursor on SQLite
        # (coup/store/sqlite_move.py); off only to compare (`coup bench --store`).
        self.one_statement = True
        if full.startswith("sqlite:///"):
            self.sync_engine = create_engine(full)
            event.listen(self.sync_engine, "connect", _sqlite_pragmas)
            self._thread = SqliteThread(self.sync_engine)
        else:
            kwargs: dict[str, Any] = {}
            if not self.sqlite:
                kwargs = {"pool_size": 20, "max_overflow": 10}  # a steady pool: no reconnect churn
            self.engine = create_async_engine(full, **kwargs)
            self._moves = postgres_move.MoveConnections(self.engine)
            if self.sqlite:
                event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)

    @property
    def shared(self) -> bool:
        """Several server processes may write this database at once (PostgreSQL)."""
        return not self.sqlite

    async def _run(self, fn: Callable[[Connection], T]) -> T:
        """Run `fn` in one transaction; commit if it returns, roll back if it raises.
        SQLite: on the store's thread (`append_events` writes a move on the loop's own
        thread when that one is idle: coup/store/sqlite_thread.py)."""
        if self._thread is not None:
            return await self._thread.run(fn)
        assert self.engine is not None
        if self.sqlite:  # aiosqlite: one writer at a time, without waiting on file locks
            async with self._write_lock, self.engine.begin() as aconn:
                return await aconn.run_sync(fn)
        async with self.engine.begin() as aconn:
            return await aconn.run_sync(fn)

    async def create(self) -> None:
        """Create or upgrade the schema (coup/store/migrate.py)."""
        await self._run(migrate.upgrade)

    async def drop_all(self) -> None:
        await self._run(lambda conn: s.metadata.drop_all(conn))

    async def close(self) -> None:
        if self._moves is not None:
            await self._moves.close()
        if self.engine is not None:
            await self.engine.dispose()
        if self.sync_engine is not None:
            assert self._thread is not None
            self._thread.close_mover()
            await self._thread.call(self.sync_engine.dispose)
            self._thread.shutdown()

    # ---- writes -------------------------------------------------------------------
    async def create_table(self, row: Row, settings: dict[str, Any], seats: list[Row]) -> None:
        def fn(conn: Connection) -> None:
            conn.execute(insert(s.tables).values(**row, settings=json.dumps(settings)))
            if seats:
                conn.execute(insert(s.seats), [{**x, "table_id": row["id"]} for x in seats])

        await self._run(fn)

    async def save_lobby(
        self,
        table_id: str,
        *,
        version: int,
        settings: dict[str, Any],
        status: str,
        seats: list[Row],
    ) -> None:
        def fn(conn: Connection) -> None:
            self._bump(conn, table_id, version, settings=json.dumps(settings), status=status)
            replace_rows(conn, s.seats, table_id, seats)

        await self._run(fn)

    async def set_version(self, table_id: str, version: int) -> None:
        await self._run(lambda conn: self._bump(conn, table_id, version))

    async def start_game(
        self,
        table_id: str,
        *,
        version: int,
        games: int,
        seats: list[Row],
        game: Row,
        header: dict[str, Any],
        members: list[str],
        events: list[Row],
        deadlines: list[Row],
        handoffs: Sequence[Row] = (),
    ) -> None:
        def fn(conn: Connection) -> None:
            self._bump(conn, table_id, version, status="playing", games=games)
            replace_rows(conn, s.seats, table_id, seats)
            conn.execute(
                insert(s.games).values(
                    **game,
                    table_id=table_id,
                    header=json.dumps(header),
                    members=json.dumps(members),
                )
            )
            if events:
                conn.execute(insert(s.events), [{**e, "table_id": table_id} for e in events])
            replace_rows(conn, s.deadlines, table_id, deadlines)
            if handoffs:  # a stand-in carried over from the last game
                conn.execute(insert(s.handoffs), [{**h, "table_id": table_id} for h in handoffs])

        await self._run(fn)

    async def append_events(
        self,
        table_id: str,
        events: list[Row],
        *,
        version: int,
        deadlines: list[Row],
        finish: Row | None = None,
        last_winner: str | None = None,
        coach: list[Row] | None = None,
    ) -> None:
        """Append moves (normally one) to a game's log; raise Conflict if a seq is taken.
        With `finish` (the game's last move), `coach` rows (`analyses.queued_rows`) queue
        the coach's analyses in the same transaction."""
        if self.one_statement and self._moves is not None and not self.sqlite and not finish:
            params = postgres_move.append_params(
                table_id, events, version=version, deadlines=deadlines,
                checked=self.check_versions,
            )  # fmt: skip
            from asyncpg.exceptions import (  # type: ignore[import-untyped]
                IntegrityConstraintViolationError,
            )

            try:
                bumped = await self._moves.run(params)
            except (IntegrityError, IntegrityConstraintViolationError) as exc:
                raise Conflict(str(exc)) from exc
            if bumped != 1:
                raise Conflict(f"table {table_id} is past version {version - 1}")
            return

        if self.one_statement and self._thread is not None and not finish:

            def driver(conn: sqlite3.Connection) -> None:
                if not sqlite_move.append(
                    conn, table_id, events, version=version, deadlines=deadlines,
                    checked=self.check_versions,
                ):  # fmt: skip
                    raise Conflict(f"table {table_id} is past version {version - 1}")

            try:
                await self._thread.write(driver)
            except (IntegrityError, sqlite3.IntegrityError) as exc:
                raise Conflict(str(exc)) from exc
            return

        def fn(conn: Connection) -> None:
            # The table's row first, as every other write (and the one-statement move)
            # takes it: a last move that inserted its event before bumping could wait for
            # a racing process's one-statement move holding the row, while that move
            # waits for the same seq: PostgreSQL found the deadlock (seen under fuzz).
            values: Row = {}
            if finish is not None:
                values.update(status="over", last_winner=last_winner)
            self._bump(conn, table_id, version, **values)
            conn.execute(insert(s.events), [{**e, "table_id": table_id} for e in events])
            if finish is not None:
                conn.execute(
                    update(s.games)
                    .where(s.games.c.table_id == table_id, s.games.c.game == events[-1]["game"])
                    .values(**finish)
                )
                analyses.queue(conn, coach or [])
            replace_rows(conn, s.deadlines, table_id, deadlines)

        try:
            await self._run(fn)
        except IntegrityError as exc:
            raise Conflict(str(exc)) from exc

    async def save_deadlines(self, table_id: str, *, version: int, deadlines: list[Row]) -> None:
        def fn(conn: Connection) -> None:
            self._bump(conn, table_id, version)
            replace_rows(conn, s.deadlines, table_id, deadlines)

        await self._run(fn)

    async def save_seats(
        self,
        table_id: str,
        *,
        version: int,
        seats: list[Row],
        deadlines: list[Row],
        handoffs: Sequence[Row] = (),
    ) -> None:
        """Who plays which seat during a game, the clocks that follow from it, and the
        handoffs that say so in the log (rows `{"game", "n", "step", "seat", "reason"}`)."""

        def fn(conn: Connection) -> None:
            self._bump(conn, table_id, version)
            replace_rows(conn, s.seats, table_id, seats)
            replace_rows(conn, s.deadlines, table_id, deadlines)
            if handoffs:
                conn.execute(insert(s.handoffs), [{**h, "table_id": table_id} for h in handoffs])

        await self._run(fn)

    async def add_chat(self, table_id: str, message: Row, *, version: int) -> int:
        def fn(conn: Connection) -> int:
            result = conn.execute(
                insert(s.chat).values(**message, table_id=table_id).returning(s.chat.c.id)
            )
            chat_id = int(result.scalar_one())
            trim_chat(conn, table_id, CHAT_STORED)
            self._bump(conn, table_id, version)
            return chat_id

        return await self._run(fn)

    # ---- reads --------------------------------------------------------------------
    async def open_tables(self) -> list[str]:
        def fn(conn: Connection) -> list[str]:
            rows = conn.execute(select(s.tables.c.id).where(s.tables.c.status == "playing"))
            return [r[0] for r in rows]

        return await self._run(fn)

    async def load_table(self, table_id: str, chat_limit: int = 50) -> TableData | None:
        def fn(conn: Connection) -> TableData | None:
            row = conn.execute(select(s.tables).where(s.tables.c.id == table_id)).first()
            if row is None:
                return None
            trow = dict(row._mapping)
            seats = seat_rows(conn, table_id)
            game = _load_game(conn, table_id, trow["games"]) if trow["games"] > 0 else None
            chat = chat_rows(conn, table_id, after=0, limit=chat_limit)
            deadlines = deadline_rows(conn, table_id)
            settings = json.loads(trow.pop("settings"))
            return TableData(trow, settings, seats, game, chat, deadlines)

        return await self._run(fn)

    async def load_game(self, table_id: str, game: int) -> GameData | None:
        return await self._run(lambda conn: _load_game(conn, table_id, game))

    def _bump(self, conn: Connection, table_id: str, version: int, **values: Any) -> None:
        """Set the table's version (and `values`); with `check_versions`, only if the
        stored version is `version - 1`, else raise Conflict (another process wrote)."""
        stmt = update(s.tables).where(s.tables.c.id == table_id)
        if self.check_versions:
            stmt = stmt.where(s.tables.c.version == version - 1)
        result = conn.execute(stmt.values(version=version, **values))
        if self.check_versions and result.rowcount != 1:
            raise Conflict(f"table {table_id} is past version {version - 1}")


def rows(conn: Connection, query: Any) -> list[Row]:
    return [dict(r._mapping) for r in conn.execute(query)]


def seat_rows(conn: Connection, table_id: str) -> list[Row]:
    return rows(
        conn, select(s.seats).where(s.seats.c.table_id == table_id).order_by(s.seats.c.seat)
    )


def chat_rows(conn: Connection, table_id: str, *, after: int, limit: int) -> list[Row]:
    """The last `limit` chat lines after id `after`, oldest first."""
    c = s.chat.c
    query = select(s.chat).where(c.table_id == table_id, c.id > after)
    return rows(conn, query.order_by(c.id.desc()).limit(limit))[::-1]


def handoff_rows(conn: Connection, table_id: str, game: int) -> list[Row]:
    h = s.handoffs.c
    query = select(h.n, h.step, h.seat, h.reason).where(h.table_id == table_id, h.game == game)
    return rows(conn, query.order_by(h.n))


def deadline_rows(conn: Connection, table_id: str) -> list[Row]:
    return rows(conn, select(s.deadlines).where(s.deadlines.c.table_id == table_id))


def replace_rows(conn: Connection, table: Any, table_id: str, new: list[Row]) -> None:
    """All of a table's rows of `table` (seats, deadlines) replaced by `new`."""
    conn.execute(delete(table).where(table.c.table_id == table_id))
    if new:
        conn.execute(insert(table), [{**x, "table_id": table_id} for x in new])


def _load_game(conn: Connection, table_id: str, game: int) -> GameData | None:
    row = conn.execute(
        select(s.games).where(s.games.c.table_id == table_id, s.games.c.game == game)
    ).first()
    if row is None:
        return None
    grow = dict(row._mapping)
    e = s.events.c
    events = rows(
        conn, select(s.events).where(e.table_id == table_id, e.game == game).order_by(e.seq)
    )
    header = json.loads(grow.pop("header"))
    members = json.loads(grow.pop("members"))
    return GameData(grow, header, members, events, handoff_rows(conn, table_id, game))
