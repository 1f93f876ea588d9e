"""Ratings and what a profile page and the leaderboard read (the tables: `schema.py`'s
profiles block).

A finished game is counted once (`count_game`), in the transaction that writes its last
move: a row in `coup_rated_games` keyed by (table, game) is inserted first, and a game
already there is not counted again (a retried or replayed end). The raters' rows are read
`FOR UPDATE` on PostgreSQL (in id order: two games ending at once wait, never deadlock),
then each rater's μ, σ and shown rating, its summed statistics (`stats`, JSON: one row
per page read), its game row (the chart, the last games) and its head-to-head rows are
written. The rating math is the caller's (`GameResult.rate`): the store knows no game.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, desc, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from coup.store import schema as s

Pair = tuple[float, float]
#: A rater's statistics before any game (the page's numbers; `add_stats` sums them).
COUNTS = ("claims", "bluffs", "caught", "challenges", "challenges_won", "blocks")


@dataclass
class SeatResult:
    """One seat of a finished game: its rater (a profile id or a bot's id), its place
    (1: the winner), whether its rating may change, and its statistics."""

    rater: str
    place: int
    person: bool
    counted: bool = True
    stats: dict[str, int] = field(default_factory=dict)
    characters: dict[str, int] = field(default_factory=dict)  # claims per character


@dataclass
class GameResult:
    table_id: str
    game: int
    at: int
    seats: list[SeatResult]
    #: [(rater, place)], {rater: (μ, σ)} -> {rater: (μ, σ)} (coup/server/ratings.py)
    rate: Callable[[list[tuple[str, int]], dict[str, Pair]], dict[str, Pair]]
    shown: Callable[[float, float], float]
    #: a bot's rater id -> its row's name when it has none yet
    bot_names: dict[str, str] = field(default_factory=dict)


def _insert(conn: Connection, table: Any) -> Any:
    return (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(table)


def empty_stats() -> dict[str, Any]:
    return {**dict.fromkeys(COUNTS, 0), "by_size": {}, "characters": {}, "streak": 0, "best": 0}


def add_stats(old: dict[str, Any], seat: SeatResult, size: int) -> dict[str, Any]:
    """A rater's summed statistics after one more game."""
    out = {**empty_stats(), **old}
    for key in COUNTS:
        out[key] = int(out[key]) + int(seat.stats.get(key, 0))
    won = seat.place == 1
    played, wins = out["by_size"].get(str(size), [0, 0])
    out["by_size"] = {**out["by_size"], str(size): [played + 1, wins + int(won)]}
    chars = dict(out["characters"])
    for character, n in seat.characters.items():
        chars[character] = chars.get(character, 0) + n
    out["characters"] = chars
    out["streak"] = out["streak"] + 1 if won else 0
    out["best"] = max(out["best"], out["streak"])
    return out


def count_game(conn: Connection, result: GameResult) -> bool:
    """Count a finished game once: False if it was counted before."""
    done = conn.execute(
        _insert(conn, s.rated_games)
        .values(table_id=result.table_id, game=result.game, rated_at=result.at)
        .on_conflict_do_nothing()
    )
    if done.rowcount != 1:
        return False
    by_rater: dict[str, SeatResult] = {}
    for seat in sorted(result.seats, key=lambda x: x.place):
        by_rater.setdefault(seat.rater, seat)  # two bots of one level: the better place
    p = s.profiles.c
    query = select(p.id, p.mu, p.sigma, p.rating, p.stats, p.games, p.wins, p.deleted_at)
    query = query.where(p.id.in_(sorted(by_rater))).order_by(p.id)
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    found = {r.id: r for r in conn.execute(query)}
    for rater in sorted(by_rater):
        if rater not in found and rater in result.bot_names:
            _new_bot(conn, rater, result.bot_names[rater], result.at, result.shown)
    if any(r not in found for r in by_rater):
        found = {r.id: r for r in conn.execute(query)}
    live = {r: x for r, x in by_rater.items() if r in found and found[r].deleted_at is None}
    people = [x for x in live.values() if x.person and x.counted]
    rated = [x for x in live.values() if x.counted] if len(people) >= 2 else []
    current = {x.rater: (found[x.rater].mu, found[x.rater].sigma) for x in rated}
    new = result.rate([(x.rater, x.place) for x in rated], current) if rated else {}
    size = len(result.seats)
    for rater, seat in live.items():
        row = found[rater]
        mu, sigma = new.get(rater, (row.mu, row.sigma))
        shown = result.shown(mu, sigma) if rater in new else row.rating
        stats = add_stats(json.loads(row.stats), seat, size)
        conn.execute(
            update(s.profiles)
            .where(p.id == rater)
            .values(mu=mu, sigma=sigma, rating=shown, games=row.games + 1,
                    wins=row.wins + int(seat.place == 1), stats=json.dumps(stats))
        )  # fmt: skip
        conn.execute(
            insert(s.profile_games).values(
                profile_id=rater, at=result.at, table_id=result.table_id, game=result.game,
                size=size, place=seat.place, before=row.rating, rating=shown,
                rated=rater in new,
            )
        )  # fmt: skip
    _rivals(conn, [x for x in live.values() if x.person], list(live.values()))
    return True


def _new_bot(conn: Connection, rater: str, name: str, at: int, shown: Any) -> None:
    mu, sigma = 25.0, 25.0 / 3.0
    conn.execute(
        _insert(conn, s.profiles)
        .values(id=rater, kind="bot", name=name, user_handle="", created_at=at,
                deleted_at=None, hidden=False, mu=mu, sigma=sigma, rating=shown(mu, sigma),
                games=0, wins=0, stats=json.dumps(empty_stats()))
        .on_conflict_do_nothing()
    )  # fmt: skip


def _rivals(conn: Connection, people: list[SeatResult], everyone: list[SeatResult]) -> None:
    rows = [
        {"profile_id": a.rater, "other_id": b.rater, "games": 1, "ahead": int(a.place < b.place)}
        for a in people
        for b in everyone
        if a.rater != b.rater
    ]
    for row in sorted(rows, key=lambda r: (r["profile_id"], r["other_id"])):
        stmt = _insert(conn, s.rivals).values(**row)
        conn.execute(
            stmt.on_conflict_do_update(
                index_elements=["profile_id", "other_id"],
                set_={
                    "games": s.rivals.c.games + 1,
                    "ahead": s.rivals.c.ahead + stmt.excluded.ahead,
                },
            )
        )


# ---- reads ------------------------------------------------------------------------------
def game_ratings(conn: Connection, table_id: str, game: int) -> list[dict[str, Any]]:
    """A finished game's rating changes (its end screen): one row per rater."""
    g, p = s.profile_games.c, s.profiles.c
    query = (
        select(g.profile_id, p.kind, p.name, p.deleted_at, g.place, g.before, g.rating, g.rated)
        .join(s.profiles, p.id == g.profile_id)
        .where(g.table_id == table_id, g.game == game)
        .order_by(g.place)
    )
    return [_named(dict(r._mapping)) for r in conn.execute(query)]


def _named(row: dict[str, Any]) -> dict[str, Any]:
    """A row with `name` blank for a deleted profile (the page says "deleted player")."""
    if row.pop("deleted_at", None) is not None:
        row["name"] = None
    return row


def leaderboard(
    conn: Connection, min_games: int, limit: int, *, played_with: str | None = None
) -> list[dict[str, Any]]:
    """The best `limit` listed raters with at least `min_games` games (bots too, always),
    best first; `played_with`: only those that profile played with (and itself)."""
    p = s.profiles.c
    query = select(p.id, p.kind, p.name, p.rating, p.sigma, p.games, p.wins).where(
        p.deleted_at.is_(None), p.hidden.is_(False), (p.games >= min_games) | (p.kind == "bot")
    )
    if played_with is not None:
        r = s.rivals.c
        others = select(r.other_id).where(r.profile_id == played_with)
        query = query.where(p.id.in_(others) | (p.id == played_with))
    query = query.order_by(desc(p.rating), p.id).limit(limit)
    return [dict(r._mapping) for r in conn.execute(query)]


def profile_page(conn: Connection, profile_id: str, chart: int = 200) -> dict[str, Any] | None:
    """What a profile page shows, from its row (the summed statistics), its last `chart`
    games (the chart; the last 20 listed) and its five most played rivals."""
    p, g, r = s.profiles.c, s.profile_games.c, s.rivals.c
    row = conn.execute(
        select(p.id, p.kind, p.name, p.created_at, p.deleted_at, p.hidden, p.mu, p.sigma,
               p.rating, p.games, p.wins, p.stats).where(p.id == profile_id)
    ).first()  # fmt: skip
    if row is None or row.deleted_at is not None:
        return None
    out = dict(row._mapping)
    out.pop("deleted_at")
    out["stats"] = json.loads(out["stats"])
    games = select(g.at, g.table_id, g.game, g.size, g.place, g.before, g.rating, g.rated)
    games = games.where(g.profile_id == profile_id).order_by(desc(g.at)).limit(chart)
    out["history"] = [dict(x._mapping) for x in conn.execute(games)][::-1]
    rivals = (
        select(r.other_id, r.games, r.ahead, p.name, p.kind, p.deleted_at)
        .join(s.profiles, p.id == r.other_id)
        .where(r.profile_id == profile_id)
        .order_by(desc(r.games), r.other_id)
        .limit(5)
    )
    out["rivals"] = [_named(dict(x._mapping)) for x in conn.execute(rivals)]
    return out
