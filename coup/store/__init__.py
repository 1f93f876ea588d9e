"""coup.store: the durable event log of the online table.

`open_store(url)` picks the database by URL: `sqlite:///coup.db` (the default, an
embedded file through aiosqlite) or `postgresql://user@host/db` (asyncpg). Both hold the
same tables (`schema.py`); a move is accepted by inserting the next `(table, game, seq)`.
"""

from __future__ import annotations

from coup.store.sql import Conflict, GameData, SqlStore, TableData, open_store

__all__ = ["Conflict", "GameData", "SqlStore", "TableData", "open_store"]
