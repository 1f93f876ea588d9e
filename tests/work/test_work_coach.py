"""The coach's queue under load: an asked-for seat goes before every automatic analysis,
the automatic ones wait in a bounded backlog (the oldest skipped, and queued again when
someone asks), and the queue's depth is counted; on SQLite and PostgreSQL (`database`,
`reader`: conftest.py)."""

from __future__ import annotations

from sqlalchemy import insert

from coup.store import SqlStore
from coup.store.analyses import (
    ask_review,
    queue_depth,
    queued_rows,
    skip_backlog,
    take_review,
)
from coup.store.schema import reviews


async def finished(store: SqlStore, game: int, seats: int, at: int) -> None:
    """A game's end queued the analyses of its people's seats (as its last move does)."""
    rows = queued_rows("t1", game, range(seats), 0, at)
    await store._run(lambda conn: conn.execute(insert(reviews), rows))


async def test_an_asked_for_seat_goes_before_every_automatic_analysis(reader: SqlStore) -> None:
    store = reader
    for game in range(1, 4):
        await finished(store, game, 4, at=game)
    row = await ask_review(store, "t1", 3, 2, 0, now=100)  # queued on its own: asked now
    assert row["status"] == "queued"
    await ask_review(store, "t9", 1, 0, 0, now=200)  # never queued: queued by the ask
    depth = await queue_depth(store)
    assert (depth["queued"], depth["asked"]) == (13, 2)
    taken = [await take_review(store, now=1000 + i) for i in range(3)]
    assert [(j["table_id"], j["game"], j["seat"], j["asked"]) for j in taken if j] == [
        ("t1", 3, 2, True),  # the older ask first
        ("t9", 1, 0, True),
        ("t1", 1, 0, False),  # then the oldest automatic one
    ]


async def test_the_backlog_is_bounded_and_a_skipped_analysis_comes_back_when_asked(
    reader: SqlStore,
) -> None:
    store = reader
    for game in range(1, 4):
        await finished(store, game, 4, at=game)
    assert await skip_backlog(store, keep=5) == 7
    assert await skip_backlog(store, keep=5) == 0
    depth = await queue_depth(store)
    assert (depth["queued"], depth["skipped"]) == (5, 7)
    skipped = await ask_review(store, "t1", 1, 0, 0, now=50)  # the oldest, skipped
    assert skipped["status"] == "queued"
    job = await take_review(store, now=60)
    assert job is not None and (job["game"], job["seat"], job["asked"]) == (1, 0, True)
