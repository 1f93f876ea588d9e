"""Profiles as the store keeps them: the profile row, its names' folded forms, its passkeys,
its signed-in browsers, and the ceremonies' challenges (each answered once).

Every function here is one transaction's work on a `Connection` (`Profiles` runs them on
the store). A challenge is taken by deleting its row (`take_challenge`): of two answers to
one challenge only the first finds it. A passkey's signature counter is moved forward
with a conditional update (`bump_counter`): a counter that did not grow is refused,
unless both are 0 (an authenticator that keeps no counter).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import Connection, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from coup.store import ratings
from coup.store import schema as s

if TYPE_CHECKING:
    from coup.store.sql import SqlStore

T = TypeVar("T")
Row = dict[str, Any]
#: A deleted profile's name stays taken this long.
NAME_KEPT_MS = 30 * 24 * 3600 * 1000


class NameTaken(Exception):
    """Another profile has this name (or a look-alike), or had it less than 30 days ago."""


class Profiles:
    """The profile operations, each one transaction on the store."""

    def __init__(self, store: SqlStore) -> None:
        self.store = store

    async def run(self, fn: Callable[[Connection], T]) -> T:
        return await self.store._run(fn)

    async def create(
        self, profile: Row, forms: Iterable[str], credential: Row, session: Row, now: int
    ) -> None:
        """A new profile with its first passkey and session; NameTaken if a form is taken."""
        forms = sorted(forms)

        def fn(conn: Connection) -> None:
            n = s.profile_names.c
            conn.execute(delete(s.profile_names).where(n.form.in_(forms), n.freed_at < now))
            conn.execute(
                insert(s.profiles).values(**profile, stats=json.dumps(ratings.empty_stats()))
            )
            conn.execute(
                insert(s.profile_names),
                [{"form": f, "profile_id": profile["id"], "freed_at": None} for f in forms],
            )
            conn.execute(insert(s.credentials).values(**credential))
            conn.execute(insert(s.profile_sessions).values(**session))

        try:
            await self.run(fn)
        except IntegrityError as exc:
            raise NameTaken(str(exc)) from None

    async def name_free(self, forms: Iterable[str], now: int) -> bool:
        forms = sorted(forms)

        def fn(conn: Connection) -> bool:
            n = s.profile_names.c
            taken = select(n.form).where(
                n.form.in_(forms), or_(n.freed_at.is_(None), n.freed_at >= now)
            )
            return conn.execute(taken).first() is None

        return await self.run(fn)

    async def find(self, forms: Iterable[str]) -> Row | None:
        """The live profile a name names (by any of its folded forms)."""
        forms = sorted(forms)

        def fn(conn: Connection) -> Row | None:
            n, p = s.profile_names.c, s.profiles.c
            query = (
                select(p.id, p.name, p.kind, p.hidden)
                .join(s.profile_names, n.profile_id == p.id)
                .where(n.form.in_(forms), p.deleted_at.is_(None))
            )
            row = conn.execute(query).first()
            return None if row is None else dict(row._mapping)

        return await self.run(fn)

    async def get(self, profile_id: str) -> Row | None:
        def fn(conn: Connection) -> Row | None:
            p = s.profiles.c
            row = conn.execute(
                select(p.id, p.name, p.kind, p.hidden, p.user_handle).where(
                    p.id == profile_id, p.deleted_at.is_(None)
                )
            ).first()
            return None if row is None else dict(row._mapping)

        return await self.run(fn)

    # ---- challenges ---------------------------------------------------------------------
    async def put_challenge(self, row: Row) -> None:
        def fn(conn: Connection) -> None:
            c = s.challenges.c
            conn.execute(delete(s.challenges).where(c.expires_at < row["expires_at"] - 3_600_000))
            conn.execute(insert(s.challenges).values(**row))

        await self.run(fn)

    async def take_challenge(self, key: str, kind: str, now: int) -> Row | None:
        """The challenge `key` of `kind`, once: deleted as it is read."""

        def fn(conn: Connection) -> Row | None:
            c = s.challenges.c
            row = conn.execute(select(s.challenges).where(c.id == key, c.kind == kind)).first()
            if row is None:
                return None
            gone = conn.execute(delete(s.challenges).where(c.id == key))
            if gone.rowcount != 1 or row.expires_at < now:
                return None
            return dict(row._mapping)

        return await self.run(fn)

    # ---- passkeys -----------------------------------------------------------------------
    async def credential(self, credential_id: str) -> Row | None:
        def fn(conn: Connection) -> Row | None:
            c, p = s.credentials.c, s.profiles.c
            row = conn.execute(
                select(s.credentials, p.name)
                .join(s.profiles, p.id == c.profile_id)
                .where(c.id == credential_id, p.deleted_at.is_(None))
            ).first()
            return None if row is None else dict(row._mapping)

        return await self.run(fn)

    async def credential_ids(self, profile_id: str) -> list[str]:
        def fn(conn: Connection) -> list[str]:
            c = s.credentials.c
            return [r[0] for r in conn.execute(select(c.id).where(c.profile_id == profile_id))]

        return await self.run(fn)

    async def add_credential(self, row: Row) -> None:
        await self.run(lambda conn: conn.execute(insert(s.credentials).values(**row)))

    async def bump_counter(self, credential_id: str, old: int, new: int) -> bool:
        """Move the signature counter from `old` to `new` (it must grow, or stay 0)."""
        if not (new > old or new == old == 0):
            return False

        def fn(conn: Connection) -> bool:
            c = s.credentials.c
            done = conn.execute(
                update(s.credentials)
                .where(c.id == credential_id, c.sign_count == old)
                .values(sign_count=new)
            )
            return bool(done.rowcount == 1)

        return await self.run(fn)

    # ---- sessions -----------------------------------------------------------------------
    async def open_session(self, row: Row, now: int) -> None:
        """A new session (and the profile's expired ones forgotten)."""

        def fn(conn: Connection) -> None:
            x = s.profile_sessions.c
            conn.execute(
                delete(s.profile_sessions).where(
                    x.profile_id == row["profile_id"], x.expires_at < now
                )
            )
            conn.execute(insert(s.profile_sessions).values(**row))

        await self.run(fn)

    async def session(self, token_hash: str, now: int) -> Row | None:
        """The signed-in profile of a session cookie's hash (None: no such live session)."""

        def fn(conn: Connection) -> Row | None:
            x, p = s.profile_sessions.c, s.profiles.c
            row = conn.execute(
                select(p.id, p.name, p.hidden)
                .join(s.profiles, p.id == x.profile_id)
                .where(x.token_hash == token_hash, x.expires_at > now, p.deleted_at.is_(None))
            ).first()
            return None if row is None else dict(row._mapping)

        return await self.run(fn)

    async def end_session(self, token_hash: str) -> None:
        await self.run(
            lambda conn: conn.execute(
                delete(s.profile_sessions).where(s.profile_sessions.c.token_hash == token_hash)
            )
        )

    # ---- the profile's own choices -------------------------------------------------------
    async def set_hidden(self, profile_id: str, hidden: bool) -> None:
        await self.run(
            lambda conn: conn.execute(
                update(s.profiles).where(s.profiles.c.id == profile_id).values(hidden=hidden)
            )
        )

    async def export(self, profile_id: str) -> Row:
        """Everything stored about a profile (its data, as JSON)."""

        def fn(conn: Connection) -> Row:
            p, c, g, r = s.profiles.c, s.credentials.c, s.profile_games.c, s.rivals.c
            row = conn.execute(select(s.profiles).where(p.id == profile_id)).one()
            out: Row = dict(row._mapping)
            out["stats"] = json.loads(out["stats"])
            out["names"] = [
                x[0] for x in conn.execute(
                    select(s.profile_names.c.form).where(s.profile_names.c.profile_id == profile_id)
                )
            ]  # fmt: skip
            out["passkeys"] = [
                {"id": x.id, "created_at": x.created_at, "sign_count": x.sign_count}
                for x in conn.execute(select(s.credentials).where(c.profile_id == profile_id))
            ]
            out["games"] = [
                dict(x._mapping)
                for x in conn.execute(
                    select(s.profile_games).where(g.profile_id == profile_id).order_by(g.at)
                )
            ]
            out["rivals"] = [
                dict(x._mapping)
                for x in conn.execute(select(s.rivals).where(r.profile_id == profile_id))
            ]
            return out

        return await self.run(fn)

    async def delete(self, profile_id: str, now: int) -> None:
        """The profile deleted: its passkeys, sessions, games and rivals gone, its name
        taken for 30 days more, its row kept blank (others' games show "deleted player")."""

        def fn(conn: Connection) -> None:
            for table in (s.credentials, s.profile_sessions, s.profile_games, s.rivals):
                conn.execute(delete(table).where(table.c.profile_id == profile_id))
            conn.execute(
                update(s.profile_names)
                .where(s.profile_names.c.profile_id == profile_id)
                .values(freed_at=now + NAME_KEPT_MS)
            )
            conn.execute(
                update(s.profiles)
                .where(s.profiles.c.id == profile_id)
                .values(name="", deleted_at=now, hidden=True, user_handle="",
                        stats=json.dumps(ratings.empty_stats()))
            )  # fmt: skip

        await self.run(fn)

    # ---- ratings ------------------------------------------------------------------------
    async def game_ratings(self, table_id: str, game: int) -> list[Row]:
        return await self.run(lambda conn: ratings.game_ratings(conn, table_id, game))

    async def leaderboard(
        self, min_games: int, limit: int, played_with: str | None = None
    ) -> list[Row]:
        return await self.run(
            lambda conn: ratings.leaderboard(conn, min_games, limit, played_with=played_with)
        )

    async def page(self, profile_id: str) -> Row | None:
        return await self.run(lambda conn: ratings.profile_page(conn, profile_id))
