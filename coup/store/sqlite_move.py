"""A move's write on SQLite through the driver's cursor.

The same statements as the general path (`SqlStore.append_events`: the version moved on,
checked against the one before; the events inserted; the table's deadlines replaced), in
one transaction, but handed to `sqlite3` as plain SQL with `?` parameters instead of
going through SQLAlchemy's statement building and result handling (and, written on the
event loop's thread, in the driver's own transaction: `sqlite_thread.py`), which costs a
fraction of the CPU (figures: `docs/deploy.md`). Used for
moves that do not end the game; the last move takes the general path.
"""

from __future__ import annotations

import sqlite3
from typing import Any

BUMP = "UPDATE coup_tables SET version = ? WHERE id = ?"
CHECKED = BUMP + " AND version = ?"
EVENTS = (
    "INSERT INTO coup_events (table_id, game, seq, seat, move, draw, timeout, step, at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
CLEAR = "DELETE FROM coup_deadlines WHERE table_id = ?"
DEADLINES = (
    "INSERT INTO coup_deadlines (table_id, seat, kind, due_at, seconds, game, seq) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def append(
    conn: sqlite3.Connection,
    table_id: str,
    events: list[dict[str, Any]],
    *,
    version: int,
    deadlines: list[dict[str, Any]],
    checked: bool,
) -> bool:
    """Write the move in the caller's transaction; False if the table was not at
    `version - 1` (checked) and nothing was written."""
    cursor = conn.cursor()
    try:
        if checked:
            cursor.execute(CHECKED, (version, table_id, version - 1))
        else:
            cursor.execute(BUMP, (version, table_id))
        if cursor.rowcount != 1:
            return False
        cursor.executemany(
            EVENTS,
            [
                (table_id, e["game"], e["seq"], e["seat"], e["move"], e["draw"],
                 bool(e["timeout"]), e["step"], e["at"])
                for e in events
            ],
        )  # fmt: skip
        cursor.execute(CLEAR, (table_id,))
        cursor.executemany(
            DEADLINES,
            [
                (table_id, d["seat"], d["kind"], d["due_at"], d["seconds"], d["game"], d["seq"])
                for d in deadlines
            ],
        )
        return True
    finally:
        cursor.close()
