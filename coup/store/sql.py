"""The SQL store (SQLAlchemy 2 async Core): SQLite by default, PostgreSQL by URL."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, event, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from coup.store import schema as s

Row = dict[str, Any]


class Conflict(Exception):
    """The event's (table, game, seq) is already taken: someone else moved first."""


@dataclass
class GameData:
    row: Row
    header: dict[str, Any]
    members: list[str]
    events: list[Row]


@dataclass
class TableData:
    row: Row
    settings: dict[str, Any]
    seats: list[Row]
    game: GameData | None
    chat: list[Row] = field(default_factory=list)
    deadlines: list[Row] = field(default_factory=list)


def engine_url(url: str) -> str:
    """`sqlite:///x.db` -> `sqlite+aiosqlite:///x.db`; `postgresql://` -> asyncpg."""
    if url.startswith("sqlite://"):
        return "sqlite+aiosqlite://" + url[len("sqlite://") :]
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+asyncpg://" + url[len(prefix) :]
    if url.startswith(("sqlite+aiosqlite://", "postgresql+asyncpg://")):
        return url
    raise ValueError(f"unsupported database URL {url!r} (use sqlite:///FILE or postgresql://...)")


async def open_store(url: str) -> SqlStore:
    store = SqlStore(url)
    await store.create()
    return store


class SqlStore:
    def __init__(self, url: str) -> None:
        self.url = url
        full = engine_url(url)
        self.sqlite = full.startswith("sqlite")
        kwargs: dict[str, Any] = {}
        if not self.sqlite:
            kwargs = {"pool_size": 10, "max_overflow": 20}
        self.engine: AsyncEngine = create_async_engine(full, **kwargs)
        # SQLite has one writer at a time: serialize our own writes instead of letting
        # connections wait on the file lock.
        self._write_lock = asyncio.Lock()
        if self.sqlite:

            @event.listens_for(self.engine.sync_engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")  # survives kill -9 with NORMAL sync
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA busy_timeout=10000")
                cur.close()

    async def create(self) -> None:
        async with self.engine.begin() as conn:
            await conn.run_sync(s.metadata.create_all)

    async def drop_all(self) -> None:
        async with self.engine.begin() as conn:
            await conn.run_sync(s.metadata.drop_all)

    async def close(self) -> None:
        await self.engine.dispose()

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[AsyncConnection]:
        if self.sqlite:
            async with self._write_lock, self.engine.begin() as conn:
                yield conn
        else:
            async with self.engine.begin() as conn:
                yield conn

    # ---- writes -------------------------------------------------------------------
    async def create_table(self, row: Row, settings: dict[str, Any], seats: list[Row]) -> None:
        async with self._tx() as conn:
            await conn.execute(insert(s.tables).values(**row, settings=json.dumps(settings)))
            if seats:
                await conn.execute(insert(s.seats), [{**x, "table_id": row["id"]} for x in seats])

    async def save_lobby(
        self,
        table_id: str,
        *,
        version: int,
        settings: dict[str, Any],
        status: str,
        seats: list[Row],
    ) -> None:
        async with self._tx() as conn:
            await conn.execute(
                update(s.tables)
                .where(s.tables.c.id == table_id)
                .values(version=version, settings=json.dumps(settings), status=status)
            )
            await self._replace_seats(conn, table_id, seats)

    async def _replace_seats(self, conn: AsyncConnection, table_id: str, seats: list[Row]) -> None:
        await conn.execute(delete(s.seats).where(s.seats.c.table_id == table_id))
        if seats:
            await conn.execute(insert(s.seats), [{**x, "table_id": table_id} for x in seats])

    async def _replace_deadlines(
        self, conn: AsyncConnection, table_id: str, deadlines: list[Row]
    ) -> None:
        await conn.execute(delete(s.deadlines).where(s.deadlines.c.table_id == table_id))
        if deadlines:
            await conn.execute(
                insert(s.deadlines), [{**d, "table_id": table_id} for d in deadlines]
            )

    async def set_version(self, table_id: str, version: int) -> None:
        async with self._tx() as conn:
            await conn.execute(
                update(s.tables).where(s.tables.c.id == table_id).values(version=version)
            )

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
    ) -> None:
        async with self._tx() as conn:
            await conn.execute(
                update(s.tables)
                .where(s.tables.c.id == table_id)
                .values(version=version, status="playing", games=games)
            )
            await self._replace_seats(conn, table_id, seats)
            await conn.execute(
                insert(s.games).values(
                    **game,
                    table_id=table_id,
                    header=json.dumps(header),
                    members=json.dumps(members),
                )
            )
            if events:
                await conn.execute(insert(s.events), [{**e, "table_id": table_id} for e in events])
            await self._replace_deadlines(conn, table_id, deadlines)

    async def append_events(
        self,
        table_id: str,
        events: list[Row],
        *,
        version: int,
        deadlines: list[Row],
        finish: Row | None = None,
        last_winner: str | None = None,
    ) -> None:
        """Append moves (normally one) to a game's log; raise Conflict if a seq is taken."""
        try:
            async with self._tx() as conn:
                await conn.execute(insert(s.events), [{**e, "table_id": table_id} for e in events])
                values: Row = {"version": version}
                if finish is not None:
                    values.update(status="over", last_winner=last_winner)
                    game = events[-1]["game"]
                    await conn.execute(
                        update(s.games)
                        .where(s.games.c.table_id == table_id, s.games.c.game == game)
                        .values(**finish)
                    )
                await conn.execute(
                    update(s.tables).where(s.tables.c.id == table_id).values(**values)
                )
                await self._replace_deadlines(conn, table_id, deadlines)
        except IntegrityError as exc:
            raise Conflict(str(exc)) from exc

    async def save_deadlines(self, table_id: str, *, version: int, deadlines: list[Row]) -> None:
        async with self._tx() as conn:
            await conn.execute(
                update(s.tables).where(s.tables.c.id == table_id).values(version=version)
            )
            await self._replace_deadlines(conn, table_id, deadlines)

    async def add_chat(self, table_id: str, message: Row, *, version: int) -> int:
        async with self._tx() as conn:
            result = await conn.execute(
                insert(s.chat).values(**message, table_id=table_id).returning(s.chat.c.id)
            )
            chat_id = int(result.scalar_one())
            await conn.execute(
                update(s.tables).where(s.tables.c.id == table_id).values(version=version)
            )
        return chat_id

    # ---- reads --------------------------------------------------------------------
    async def open_tables(self) -> list[str]:
        async with self.engine.connect() as conn:
            result = await conn.execute(select(s.tables.c.id).where(s.tables.c.status == "playing"))
            return [r[0] for r in result]

    async def load_table(self, table_id: str, chat_limit: int = 50) -> TableData | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(s.tables).where(s.tables.c.id == table_id))).first()
            if row is None:
                return None
            trow = dict(row._mapping)
            seats = [
                dict(r._mapping)
                for r in await conn.execute(
                    select(s.seats).where(s.seats.c.table_id == table_id).order_by(s.seats.c.seat)
                )
            ]
            game = None
            if trow["games"] > 0:
                game = await self._load_game(conn, table_id, trow["games"])
            chat = [
                dict(r._mapping)
                for r in await conn.execute(
                    select(s.chat)
                    .where(s.chat.c.table_id == table_id)
                    .order_by(s.chat.c.id.desc())
                    .limit(chat_limit)
                )
            ][::-1]
            deadlines = [
                dict(r._mapping)
                for r in await conn.execute(
                    select(s.deadlines).where(s.deadlines.c.table_id == table_id)
                )
            ]
        settings = json.loads(trow.pop("settings"))
        return TableData(trow, settings, seats, game, chat, deadlines)

    async def load_game(self, table_id: str, game: int) -> GameData | None:
        async with self.engine.connect() as conn:
            return await self._load_game(conn, table_id, game)

    async def _load_game(self, conn: AsyncConnection, table_id: str, game: int) -> GameData | None:
        row = (
            await conn.execute(
                select(s.games).where(s.games.c.table_id == table_id, s.games.c.game == game)
            )
        ).first()
        if row is None:
            return None
        grow = dict(row._mapping)
        events = [
            dict(r._mapping)
            for r in await conn.execute(
                select(s.events)
                .where(s.events.c.table_id == table_id, s.events.c.game == game)
                .order_by(s.events.c.seq)
            )
        ]
        header = json.loads(grow.pop("header"))
        members = json.loads(grow.pop("members"))
        return GameData(grow, header, members, events)
