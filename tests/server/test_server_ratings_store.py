"""A game counts once for its profiles' ratings: two processes (two stores on one database)
ending the same game at once, on SQLite and PostgreSQL, change each rating once; a replayed
end changes nothing; a person a bot played for over half the game, or a game with one
profile, changes no rating."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select

from coup.server import ratings
from coup.server.game_result import _rate
from coup.store import SqlStore, open_store
from coup.store import schema as s
from coup.store.ratings import GameResult, SeatResult, count_game, empty_stats


def result(game: int, seats: list[SeatResult]) -> GameResult:
    return GameResult(
        "t1", game, 1000 + game, seats, rate=_rate, shown=ratings.shown,
        bot_names={x.rater: x.rater for x in seats if not x.person},
    )  # fmt: skip


async def add_profiles(store: SqlStore, *ids: str) -> None:
    rows = [
        {"id": i, "kind": "person", "name": i, "user_handle": "00", "created_at": 0,
         "deleted_at": None, "hidden": False, "mu": ratings.MU, "sigma": ratings.SIGMA,
         "rating": 1000.0, "games": 0, "wins": 0, "stats": json.dumps(empty_stats())}
        for i in ids
    ]  # fmt: skip
    await store._run(lambda conn: conn.execute(insert(s.profiles), rows))


async def profile_rows(store: SqlStore) -> dict[str, tuple[float, int]]:
    def fn(conn: object) -> dict[str, tuple[float, int]]:
        p = s.profiles.c
        got = conn.execute(select(p.id, p.rating, p.games))  # type: ignore[attr-defined]
        return {r.id: (r.rating, r.games) for r in got}

    return await store._run(fn)


async def test_two_processes_ending_one_game_rate_it_once(database: str) -> None:
    first, second = await open_store(database), await open_store(database)
    try:
        await add_profiles(first, "ana", "ben")
        seats = [SeatResult("ana", 1, True), SeatResult("ben", 3, True),
                 SeatResult("bot:hard", 2, False)]  # fmt: skip
        game = result(1, seats)
        counted = await asyncio.gather(
            first._run(lambda conn: count_game(conn, game)),
            second._run(lambda conn: count_game(conn, game)),
        )
        assert sorted(counted) == [False, True]
        after = await profile_rows(first)
        assert after["ana"][1] == after["ben"][1] == after["bot:hard"][1] == 1
        assert after["ana"][0] > after["bot:hard"][0] > after["ben"][0]
        # A replayed end (the same table and game) changes nothing.
        assert not await second._run(lambda conn: count_game(conn, result(1, seats)))
        assert await profile_rows(second) == after
    finally:
        await first.close()
        await second.close()


async def test_who_does_not_change_a_rating(database: str) -> None:
    store = await open_store(database)
    try:
        await add_profiles(store, "cy", "dee", "eve")
        # A bot played most of dee's decisions: only cy is counted, one profile: no rating.
        seats = [SeatResult("cy", 1, True), SeatResult("dee", 2, True, counted=False),
                 SeatResult("bot:easy", 3, False)]  # fmt: skip
        assert await store._run(lambda conn: count_game(conn, result(2, seats)))
        after = await profile_rows(store)
        assert after["cy"] == (1000.0, 1) and after["dee"] == (1000.0, 1)
        assert after["bot:easy"] == (1000.0, 1)
        # Two counted profiles: both change.
        seats = [SeatResult("cy", 2, True), SeatResult("eve", 1, True)]
        assert await store._run(lambda conn: count_game(conn, result(3, seats)))
        after = await profile_rows(store)
        assert after["eve"][0] > 1000.0 and after["cy"][0] != 1000.0
    finally:
        await store.close()


async def test_a_schema_7_database_gets_the_seat_profile_columns(tmp_path: Path) -> None:
    from sqlalchemy import inspect, text

    from coup.store import migrate

    store = await open_store(f"sqlite:///{tmp_path / 'old.db'}")
    try:

        def downgrade(conn: Any) -> None:
            conn.execute(text("ALTER TABLE coup_seats DROP COLUMN profile"))
            conn.execute(text("ALTER TABLE coup_seats DROP COLUMN profile_name"))
            conn.execute(migrate.versions.update().values(version=7))

        await store._run(downgrade)
        await store.create()

        def columns(conn: Any) -> set[str]:
            return {c["name"] for c in inspect(conn).get_columns("coup_seats")}

        assert {"profile", "profile_name"} <= await store._run(columns)
        found = await store._run(
            lambda conn: conn.execute(select(migrate.versions.c.version)).scalar()
        )
        assert found == migrate.SCHEMA_VERSION
    finally:
        await store.close()


async def test_a_deleted_name_is_free_again_after_30_days(tmp_path: Path) -> None:
    from coup.server import names
    from coup.store.profiles import NAME_KEPT_MS, NameTaken, Profiles

    store = await open_store(f"sqlite:///{tmp_path / 'names.db'}")
    profiles = Profiles(store)

    def rows(n: int, now: int) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        profile = {"id": f"id{n}", "kind": "person", "name": "Nasrin", "user_handle": "00",
                   "created_at": now, "deleted_at": None, "hidden": False, "mu": 25.0,
                   "sigma": 8.3, "rating": 1000.0, "games": 0, "wins": 0}  # fmt: skip
        key = {"id": f"c{n}", "profile_id": f"id{n}", "public_key": "k", "sign_count": 0,
               "created_at": now}  # fmt: skip
        return profile, key, {"token_hash": f"s{n}", "profile_id": f"id{n}", "expires_at": now}

    try:
        forms = names.forms("Nasrin")
        await profiles.create(rows(1, 0)[0], forms, *rows(1, 0)[1:], now=0)
        await profiles.delete("id1", 1000)
        day = 24 * 3600 * 1000
        with pytest.raises(NameTaken):
            two = rows(2, 29 * day)
            await profiles.create(two[0], names.forms("NASRIN"), *two[1:], now=29 * day)
        assert not await profiles.name_free(forms, 29 * day)
        later = 1000 + NAME_KEPT_MS + 1
        assert await profiles.name_free(forms, later)
        await profiles.create(rows(3, later)[0], forms, *rows(3, later)[1:], now=later)
        found = await profiles.find(forms)
        assert found is not None and found["id"] == "id3"
    finally:
        await store.close()


def test_a_bot_that_played_most_of_a_seat_keeps_its_rating_still() -> None:
    import random

    from coup.server.game_result import by_bot, game_result
    from tools.bench.profiles import finished_run

    table, run = finished_run(random.Random(3))
    decisions, bot = by_bot(run, 1)
    assert decisions > 0 and bot == 0
    run.handoffs = [{"index": 0, "seat": 1, "reason": "host"}]
    assert by_bot(run, 1) == (decisions, decisions)
    result = game_result(table, run, 0)
    assert result is not None
    assert [x.counted for x in result.seats] == [True, False, True, True]
    mine = [j for j, entry in enumerate(run.state.history) if entry[0] == 1 and not entry[2]]
    half = len(mine) // 2  # the player took the seat back halfway: a bot made `half`
    run.handoffs += [{"index": mine[half], "seat": 1, "reason": "back"}]
    assert by_bot(run, 1) == (decisions, half)
