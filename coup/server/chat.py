"""Chat at a table: the seated players' lines and, if the host allows it, spectators'
lines marked as watching. A line is stored with the table's next version, then shown
like any other change (`commit.py`)."""

from __future__ import annotations

from typing import Any

from coup.server.commit import Commit
from coup.server.names import check_free
from coup.server.protocol import (
    CHAT_BURST,
    CHAT_RATE,
    ProtocolError,
    RateLimit,
    clean_chat,
    clean_name,
    now_ms,
)
from coup.server.table import WATCHING, Table, chat_line
from coup.store import SqlStore

#: A spectator's lines from one address: a burst, then this many a second.
WATCHER_BURST, WATCHER_RATE = 3, 0.5
#: All the spectators of a table together: a burst, then this many a second.
WATCHERS_BURST, WATCHERS_RATE = 6, 1.0
WATCHERS = "watchers:"  # their buckets' keys in `Table.chat_limits` (members are hex)
MAX_CHAT_LIMITS = 512  # buckets kept per table; past it the spectators' are forgotten


class Chat:
    def __init__(self, store: SqlStore, commit: Commit) -> None:
        self.store = store
        self.commit = commit

    async def player(self, table: Table, member: str | None, text: str) -> None:
        """A seated player's line (at most one a second, in bursts of `CHAT_BURST`)."""
        if table.seat_of(member) is None:
            raise ProtocolError("not_seated", "only seated players may chat")
        text = clean_chat(text)
        limit = table.chat_limits.setdefault(str(member), RateLimit(CHAT_BURST, CHAT_RATE))
        if not limit.allow():
            raise ProtocolError("rate_limited", "chat: at most one message a second, please")
        await self.commit(table, lambda: self._post(table, member, text))

    async def _post(self, table: Table, member: str | None, text: str) -> None:
        seat = table.seat_of(member)  # again: the host may have moved them meanwhile
        sitter = None if seat is None else table.seats[seat]
        if seat is None or sitter is None:
            raise ProtocolError("not_seated", "only seated players may chat")
        version = table.version + 1
        message = {"seat": seat, "name": sitter.name, "text": text, "at": now_ms()}
        chat_id = await self.store.add_chat(table.id, message, version=version)
        table.chat.append(chat_line({"id": chat_id, **message}))
        table.version = version

    async def watcher(self, table: Table, name: Any, text: str, address: str) -> None:
        """A spectator's chat line, marked as watching, if the host allows it: not under
        a seated player's name (nor one that looks like it), at most `WATCHER_BURST` lines
        then one every `1 / WATCHER_RATE` seconds from one address, and at most
        `WATCHERS_BURST` then `WATCHERS_RATE` a second from all the table's spectators."""
        if not table.settings.get("spectator_chat", False):
            raise ProtocolError("chat_off", "the host turned spectator chat off")
        name = clean_name(name)
        text = clean_chat(text)
        check_free(name, (s.name for s in table.seats if s is not None))
        if not self._watcher_limit(table, address):
            raise ProtocolError("rate_limited", "chat: spectators, slow down a little")
        await self.commit(table, lambda: self._post_watcher(table, name, text))

    def _watcher_limit(self, table: Table, address: str) -> bool:
        limits = table.chat_limits
        everyone = limits.setdefault(WATCHERS, RateLimit(WATCHERS_BURST, WATCHERS_RATE))
        key = WATCHERS + address
        if key not in limits and len(limits) > MAX_CHAT_LIMITS:  # forget the spectators'
            for old in [k for k in limits if k.startswith(WATCHERS) and k != WATCHERS]:
                del limits[old]
        one = limits.setdefault(key, RateLimit(WATCHER_BURST, WATCHER_RATE))
        return one.allow() and everyone.allow()

    async def _post_watcher(self, table: Table, name: str, text: str) -> None:
        if not table.settings.get("spectator_chat", False):
            raise ProtocolError("chat_off", "the host turned spectator chat off")
        version = table.version + 1
        stored = {"seat": WATCHING, "name": name, "text": text, "at": now_ms()}
        chat_id = await self.store.add_chat(table.id, stored, version=version)
        table.chat.append(chat_line({"id": chat_id, **stored}))
        table.version = version
