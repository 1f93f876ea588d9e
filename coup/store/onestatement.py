"""A move's write on PostgreSQL as one statement: one round trip instead of six.

The general path (`SqlStore.append_events`) is a transaction of BEGIN, the version
check, the events, the old deadlines deleted, the new ones inserted, COMMIT: six round
trips, each costing the server process a send, a wake-up and a receive (measured on
the development machine: 1.16 ms of the server's CPU per move, most of it in those).
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
the general path. It is sent to asyncpg itself (`run`, on a connection of SQLAlchemy's
pool, with `$n` parameters), not through SQLAlchemy's `execute`: its statement cache
lookup, result object and greenlet hop cost about as much of the server's CPU as
asyncpg's own work for the statement (docs/deploy.md).
"""

from __future__ import annotations

import json
import re
from typing import Any

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
        "events": json.dumps(events),
        "seats": [int(d["seat"]) for d in deadlines],
        "deadlines": json.dumps(deadlines),
    }


async def run(driver: Any, params: dict[str, Any]) -> int:
    """Run the statement on an asyncpg connection (outside a transaction block: atomic
    on its own); the rows bumped, 1 or 0. A taken seq raises asyncpg's
    IntegrityConstraintViolationError."""
    value = await driver.fetchval(POSITIONAL, *(params[name] for name in NAMES))
    return int(value)
