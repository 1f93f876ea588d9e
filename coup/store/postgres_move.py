"""A move's write on PostgreSQL as one statement: one round trip instead of six.

The general path (`SqlStore.append_events`) is a transaction of BEGIN, the version
check, the events, the old deadlines deleted, the new ones inserted, COMMIT: six round
trips, each costing the server process a send, a wake-up and a receive, which were most
of a move's CPU in the server (docs/deploy.md).
On PostgreSQL the same write is one statement of data-modifying CTEs, atomic on its
own, run without a transaction block:

- `bump` moves the table's version on, only from `version - 1` when versions are
  checked; everything else selects `FROM bump`, so a stale writer changes nothing and
  reads back 0 (the caller's Conflict), exactly as the rolled-back transaction did;
- the events go in (a taken `(table, game, seq)` raises, as before);
- the deadlines are replaced as two disjoint writes: rows of seats that no longer have
  one are deleted, the others upserted (a statement may not touch one row twice, so a
  delete-all plus insert cannot share a statement).

Used for moves that do not end the game; the last move of a game, and SQLite, take
the general path. It is sent to asyncpg itself (`run`, with `$n` parameters), not
through SQLAlchemy's `execute`: its statement cache lookup, result object and greenlet
hop cost about as much of the server's CPU as asyncpg's own work for the statement
(docs/deploy.md). The connections it goes over are a few of SQLAlchemy's pool kept out
for moves (`MoveConnections`): checking one out and back in for every move, through
SQLAlchemy's async adapter and its greenlets, cost more than the statement's own send.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections import deque
from typing import Any

import orjson

SQL = """
WITH bump AS (
    UPDATE coup_tables SET version = CAST(:version AS bigint)
    WHERE id = :table_id
      AND (NOT CAST(:checked AS boolean) OR version = CAST(:version AS bigint) - 1)
    RETURNING id
), moves AS (
    INSERT INTO coup_events (table_id, game, seq, seat, move, draw, "timeout", step, "at")
    SELECT bump.id, e.game, e.seq, e.seat, e.move, e.draw, e."timeout", e.step, e."at"
    FROM bump, jsonb_to_recordset(CAST(:events AS jsonb)) AS e(
        game integer, seq integer, seat integer, move text, draw text,
        "timeout" boolean, step integer, "at" bigint)
    RETURNING 1
), gone AS (
    DELETE FROM coup_deadlines
    WHERE table_id IN (SELECT id FROM bump)
      AND NOT (seat = ANY(CAST(:seats AS integer[])))
    RETURNING 1
), due AS (
    INSERT INTO coup_deadlines (table_id, seat, kind, due_at, seconds, game, seq)
    SELECT bump.id, d.seat, d.kind, d.due_at, d.seconds, d.game, d.seq
    FROM bump, jsonb_to_recordset(CAST(:deadlines AS jsonb)) AS d(
        seat integer, kind text, due_at bigint, seconds integer, game integer, seq integer)
    ON CONFLICT (table_id, seat) DO UPDATE SET
        kind = EXCLUDED.kind, due_at = EXCLUDED.due_at, seconds = EXCLUDED.seconds,
        game = EXCLUDED.game, seq = EXCLUDED.seq, claimed_until = NULL
    RETURNING 1
)
SELECT count(*) FROM bump
"""

NAMES = ("table_id", "version", "checked", "events", "seats", "deadlines")
# asyncpg's form: `:name` -> `$n`, in the order of NAMES
POSITIONAL = re.sub(r":(\w+)\b", lambda m: f"${NAMES.index(m.group(1)) + 1}", SQL)


def append_params(
    table_id: str,
    events: list[dict[str, Any]],
    *,
    version: int,
    deadlines: list[dict[str, Any]],
    checked: bool,
) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "version": version,
        "checked": checked,
        "events": orjson.dumps(events).decode(),
        "seats": [int(d["seat"]) for d in deadlines],
        "deadlines": orjson.dumps(deadlines).decode(),
    }


async def run(driver: Any, params: dict[str, Any]) -> int:
    """Run the statement on an asyncpg connection (outside a transaction block: atomic
    on its own); the rows bumped, 1 or 0. A taken seq raises asyncpg's
    IntegrityConstraintViolationError."""
    value = await driver.fetchval(POSITIONAL, *(params[name] for name in NAMES))
    return int(value)


class MoveConnections:
    """Up to `size` connections of the engine's pool, kept checked out for moves: a move
    takes an idle one (or waits for one), runs its statement on the driver, and gives it
    back. A connection whose statement failed other than by a taken seq (PostgreSQL's
    integrity error), or was cancelled, is invalidated and replaced by the next move."""

    def __init__(self, engine: Any, size: int = 4) -> None:
        self.engine = engine  # SQLAlchemy's AsyncEngine
        self.size = size
        self._idle: list[tuple[Any, Any]] = []  # (AsyncConnection, asyncpg connection)
        self._open = 0
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._dropping: set[asyncio.Task[None]] = set()

    async def run(self, params: dict[str, Any]) -> int:
        held = await self._take()
        ok = False
        try:
            bumped = await run(held[1], params)
            ok = True
            return bumped
        except Exception as exc:
            from asyncpg.exceptions import (  # type: ignore[import-untyped]
                IntegrityConstraintViolationError,
            )

            ok = isinstance(exc, IntegrityConstraintViolationError)
            raise
        finally:
            self._give(held, ok)

    async def _take(self) -> tuple[Any, Any]:
        while self._idle and self._idle[-1][1].is_closed():  # the server closed it meanwhile
            self._give(self._idle.pop(), False)
        while not self._idle and self._open >= self.size:
            waiter = asyncio.get_running_loop().create_future()
            self._waiting.append(waiter)
            try:
                await waiter
            except BaseException:
                if waiter in self._waiting:
                    self._waiting.remove(waiter)
                elif not waiter.cancelled():
                    self._wake()  # our turn came with the cancellation: pass it on
                raise
        if self._idle:
            return self._idle.pop()
        self._open += 1
        try:
            aconn = await self.engine.connect()
            raw = await aconn.get_raw_connection()
        except BaseException:
            self._open -= 1
            self._wake()
            raise
        return aconn, raw.driver_connection

    def _give(self, held: tuple[Any, Any], ok: bool) -> None:
        if ok:
            self._idle.append(held)
        else:
            self._open -= 1
            task = asyncio.ensure_future(self._drop(held[0]))
            self._dropping.add(task)
            task.add_done_callback(self._dropping.discard)
        self._wake()

    @staticmethod
    async def _drop(aconn: Any) -> None:
        with contextlib.suppress(Exception):
            await aconn.invalidate()  # closed, and not back in the pool
        with contextlib.suppress(Exception):
            await aconn.close()

    def _wake(self) -> None:
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    async def close(self) -> None:
        if self._dropping:
            await asyncio.gather(*self._dropping, return_exceptions=True)
        idle, self._idle = self._idle, []
        for aconn, _driver in idle:
            self._open -= 1
            with contextlib.suppress(Exception):
                await aconn.close()
