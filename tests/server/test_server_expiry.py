"""What the store forgets (docs/deploy.md, *Security*): chat past the last 50 lines, a
lobby that never played after 7 days without a sign of life, a table that played after
90 days; never a table where a game runs or someone is connected."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

from coup.server.protocol import CHAT_KEEP, now_ms
from coup.server.service import TableService
from coup.server.table import Table
from coup.server.table_expiry import DAY_MS
from coup.store.expiry import CHAT_STORED
from tests.server.conftest import play_random


def db(tmp_path: Path) -> sqlite3.Connection:
    return sqlite3.connect(tmp_path / "svc.db", isolation_level=None)


def age(tmp_path: Path, table: Table, days: int) -> None:
    """Move everything the table did `days` days into the past."""
    shift = days * DAY_MS
    with db(tmp_path) as conn:
        conn.execute("UPDATE coup_tables SET created_at = created_at - ? WHERE id = ?",
            (shift, table.id))  # fmt: skip
        conn.execute("UPDATE coup_games SET ended_at = ended_at - ? WHERE table_id = ?",
            (shift, table.id))  # fmt: skip
        conn.execute("UPDATE coup_chat SET at = at - ? WHERE table_id = ?", (shift, table.id))


def rows_of(tmp_path: Path, table: Table) -> dict[str, int]:
    with db(tmp_path) as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        counts = {}
        for name in names:
            column = "id" if name == "coup_tables" else "table_id"
            columns = [r[1] for r in conn.execute(f"PRAGMA table_info({name})")]
            if column in columns:
                query = f"SELECT count(*) FROM {name} WHERE {column} = ?"
                counts[name] = conn.execute(query, (table.id,)).fetchone()[0]
        return {name: n for name, n in counts.items() if n}


async def play_to_the_end(service: TableService, table: Table) -> None:
    await service.start_game(table)
    rng = random.Random(1)
    while table.run is not None and not table.run.state.over:
        if 0 in table.run.state.waiting:
            await play_random(service, table, 0, rng)
        await asyncio.sleep(0.001)


async def test_chat_keeps_the_lines_a_view_shows(service: TableService, tmp_path: Path) -> None:
    assert CHAT_STORED == CHAT_KEEP
    table, _, _ = await service.create("Mahshid", None)
    for i in range(CHAT_STORED + 30):
        message = {"seat": 0, "name": "Mahshid", "text": f"line {i}", "at": now_ms()}
        await service.store.add_chat(table.id, message, version=table.version + 1)
        table.version += 1
    with db(tmp_path) as conn:
        texts = [r[0] for r in conn.execute("SELECT text FROM coup_chat ORDER BY id")]
    assert texts == [f"line {i}" for i in range(30, CHAT_STORED + 30)]


async def test_tables_nobody_came_back_to_are_forgotten(
    service: TableService, tmp_path: Path
) -> None:
    lobby, _, _ = await service.create("Mahshid", None)
    talked, _, _ = await service.create("Sepideh", None)
    played, _, _ = await service.create("Bahareh", {"seats": 2, "reaction_timer": 0})
    await service.add_bot(played, 1, "easy", None)
    await play_to_the_end(service, played)
    playing, _, _ = await service.create("Sara", {"seats": 2, "reaction_timer": 0})
    await service.add_bot(playing, 1, "easy", None)
    await service.start_game(playing)
    connected, _, _ = await service.create("Leila", None)
    host = talked.seats[0]
    assert host is not None
    for table in (lobby, talked, played, playing, connected):
        age(tmp_path, table, 8)
    await service.chat(talked, host.member, "still here?")  # a sign of life today
    member = connected.seats[0]
    assert member is not None
    await service.presence.change(connected, member.member, +1)
    everything = rows_of(tmp_path, played)
    assert {"coup_games", "coup_events", "coup_seats", "coup_tables"} <= set(everything)

    gone = await service.expiry.once()
    assert gone == [lobby.id]
    assert await service.store.load_table(lobby.id) is None
    assert lobby.id not in service.tables.held and await service.get(lobby.id) is None
    assert rows_of(tmp_path, lobby) == {}

    for table in (talked, played, playing, connected):
        age(tmp_path, table, 90)
    assert set(await service.expiry.once()) == {talked.id, played.id}
    assert rows_of(tmp_path, played) == {}
    assert await service.get(playing.id) is playing and await service.get(connected.id)
