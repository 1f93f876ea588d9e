"""The table service: the one door to the tables, whether this is the only server process
or one of many. The websocket (`table_socket.py`, through `handlers.py`) and the HTTP
routes (`app.py`, `after_game.py`) call its methods, one per message or route. The parts it
owns get what they need (the store, a way to commit a change: `commit.py`, the bus, this
process: `this_process.py`) and never the service.

A move's path, in one line:

    socket -> handlers -> TableService.play -> Dealer.play -> Commit: [lock: the engine on a clone -> store -> swap in] -> clock -> views -> bus

Every other change takes the same path through its own part: the lobby (`lobby.py`: seats,
bots, settings, who plays a seat during a game), chat (`chat.py`), presence
(`presence.py`: a seat's connections). The store and the bus are the seams: every write
checks the table's version in its transaction; when another process wrote first the
store says `Conflict`, the table catches up from the store (`catchup.py`) and the change
is tried again against the new state (a racing move then comes back `stale`). With one
process (SQLite, the memory bus) that never happens and the bus only tells this process,
which ignores its own messages. Deadlines run on the clock (`clock.py`): one timer per
table when this process is the store's only writer, claims from the store when it is
shared; the clock plays through the dealer, the path people's moves take.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from coup.bus import Bus
from coup.server import game_run
from coup.server.bot_moves import BotMoves, Thinking
from coup.server.catchup import CatchUp
from coup.server.chat import Chat
from coup.server.clock import ClaimClock, Clock, TableClocks
from coup.server.commit import Commit
from coup.server.dealer import Dealer
from coup.server.hub import Connection, Hub
from coup.server.lobby import Lobby
from coup.server.presence import Presence
from coup.server.protocol import ProtocolError, clean_device, clean_name, dumps, now_ms
from coup.server.spectators import CAP as SPECTATOR_CAP
from coup.server.spectators import Spectators
from coup.server.table import Table
from coup.server.table_expiry import TableExpiry
from coup.server.tables import Tables
from coup.server.this_process import ThisProcess
from coup.server.timers import Timing
from coup.server.views import view_message, watching_names
from coup.store import SqlStore
from coup.store import processes as db
from coup.store.analyses import scoreboard


class TableService:
    def __init__(
        self,
        store: SqlStore,
        bus: Bus,
        hub: Hub,
        *,
        bot_delay: tuple[float, float] = (0.6, 1.5),
        away_seconds: float = 30.0,
        grace: tuple[float, float] = (60.0, 30.0),
        spectator_cap: int = SPECTATOR_CAP,
        coach_woken: Callable[[], None] | None = None,
        workers: Thinking | None = None,
    ) -> None:
        self.store = store
        self.bus = bus
        self.hub = hub
        store.check_versions = True
        self.here = ThisProcess()
        timing = Timing(away_seconds, bot_delay, grace)
        held: dict[str, Table] = {}
        self.spectators = Spectators(hub, bus, store, self.here, spectator_cap)
        self.catchup = CatchUp(store, self.here, timing, held, hub, self.spectators)
        self.bots = BotMoves(workers)  # no workers: medium bots answer for the hard ones here
        self.clock: Clock = (ClaimClock if store.shared else TableClocks)(
            store, self.here, self.bots
        )
        self.tables = Tables(held, store, self.catchup, hub, loaded=self.clock.arm)
        self.commit = commit = Commit(
            self.catchup, self.clock, hub, self.spectators, bus, self.here
        )
        self.dealer = Dealer(store, commit, self.catchup, timing, coach_woken)
        self.lobby = Lobby(store, commit, timing)
        self.talk = Chat(store, commit)
        self.presence = Presence(store, commit, self.catchup, self.tables, self.here, timing)
        self.expiry = TableExpiry(store, held)
        self._loops: list[asyncio.Task[None]] = []

    # ---- lifecycle ------------------------------------------------------------------
    async def start(self) -> None:
        now = now_ms()
        if not self.store.shared:  # rows of other processes are from an earlier run of ours
            await db.forget_others(self.store, self.here.id)
        await db.heartbeat(self.store, self.here.id, now)
        self.bus.listen(self.catchup.hear)
        ignore_own = getattr(self.bus, "ignore_own", None)
        if ignore_own is not None:  # our own messages, heard back: dropped unread
            ignore_own(self.here.id + " ")
        hook = getattr(self.bus, "on_reconnect", None)
        if hook is not None:
            hook(self.catchup.resync)
        self._loops = [
            asyncio.create_task(self.tables.sweep()),
            asyncio.create_task(self.presence.heartbeats()),
            asyncio.create_task(self.expiry.run()),
        ]
        await self.clock.start(self.tables, self.dealer)

    async def stop(self) -> None:
        self.here.closing = True
        for task in self._loops:
            task.cancel()
        for task in self._loops:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.clock.stop()
        await self.catchup.stop()
        with contextlib.suppress(Exception):
            for table_id in await db.leave(self.store, self.here.id):
                await self.bus.publish(table_id, f"{self.here.id} left")

    # ---- tables (HTTP) ----------------------------------------------------------------
    async def get(self, table_id: str) -> Table | None:
        """The table (`tables.py`), None if there is no such table."""
        return await self.tables.get(table_id)

    async def create(self, name: Any, settings: Any, device: Any = None) -> tuple[Table, int, str]:
        """A new table with its host in seat 0: (table, seat, token)."""
        table, seat, token = await self.lobby.create(
            clean_name(name), settings, clean_device(device)
        )
        self.tables.add(table)
        return table, seat, token

    async def join(self, table: Table, name: Any, seat: Any, device: Any = None) -> tuple[int, str]:
        """A person takes a seat (`seat` None: the lowest free): (seat, token). `device`:
        the browser's own id, by which the host may block a removed player."""
        name = clean_name(name)
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise ProtocolError("bad_seat", "seat must be an integer")
        known = clean_device(device)
        return await self.lobby.change(table, lambda t: t.sit(name, seat, device=known))

    def spectators_of(self, table: Table) -> int:
        return self.spectators.of(table)

    async def record(self, table: Table, number: int) -> dict[str, Any]:
        """Game `number`'s coup-record/1, once it is over (the seed is secret until then)."""
        return await game_run.record(self.store, table, number)

    async def scoreboard(self, table: Table) -> dict[str, Any]:
        """Games and wins by player over the table's finished games."""
        return await scoreboard(self.store, table.id)

    # ---- a connection (the websocket) -------------------------------------------------
    async def admit(self, table: Table, conn: Connection) -> None:
        """A connection after its hello; a spectator over the cap is refused with
        `spectators_full` and not kept."""
        self.hub.add(conn)
        if conn.member not in table.holders():  # a spectator (or a former player)
            try:
                await self.spectators.changed(table, joining=True)
            except ProtocolError:
                self.hub.remove(conn)
                raise

    async def connect(self, table: Table, conn: Connection) -> None:
        """Hear of the table's changes, then catch up (so the first view is fresh), send
        the view, count a seat's connection."""
        await self.bus.watch(table.id)
        if self.store.shared:
            await self.catchup.refresh(table)
        conn.start()
        spectators = self.spectators.of(table)
        watching = watching_names(table, self.hub.of(table.id))
        conn.send_view(
            dumps(view_message(table, conn.member, spectators=spectators, watching=watching))
        )
        if conn.member is not None and conn.member in table.holders():
            conn.counted = True  # a seat's connection (not a former player's)
            await self.presence.change(table, conn.member, +1)
        elif not table.playing:  # the lobby (and the end screen) show who is watching
            self.commit.show(table)

    async def disconnect(self, table: Table, conn: Connection) -> None:
        """The connection closed (or was never greeted: `connect` failed)."""
        self.hub.remove(conn)
        await self.bus.unwatch(table.id)
        await conn.stop()
        with contextlib.suppress(Exception):
            if conn.member is not None and conn.counted:
                await self.presence.change(table, conn.member, -1)
            if conn.member not in table.holders():  # a spectator (or a player who left)
                await self.spectators.changed(table)
                if not table.playing and not self.here.closing:
                    self.commit.show(table)

    # ---- the messages (the websocket: `handlers.py` checked who may send them) ---------
    async def play(self, table: Table, member: str, move: str, version: int) -> None:
        """A player's move for their own seat."""
        run = table.run
        if run is None or not table.playing:
            raise ProtocolError("no_game_running", "no game is running at this table")
        seat = run.seat_of(member)
        if seat is None:
            raise ProtocolError("not_seated", "you do not play in this game")
        sitter = table.seat(member)
        if sitter is not None and sitter.standin is not None:
            raise ProtocolError("bot_playing", "a bot plays your seat; take it back first")
        await self.dealer.play(table, seat, move, version)

    async def chat(self, table: Table, member: str, text: str) -> None:
        """A seated player's chat line (`chat.py`)."""
        await self.talk.player(table, member, text)

    async def watcher_chat(self, table: Table, name: Any, text: str, address: str) -> None:
        """A spectator's chat line, marked as watching, if the host allows it (`chat.py`);
        `address` the client's address key (spectators' lines are limited by it)."""
        await self.talk.watcher(table, name, text, address)

    async def leave(self, table: Table, member: str) -> None:
        """A player gives up their seat; during a game a bot plays it to the end."""
        if table.playing:
            await self.lobby.in_game(table, lambda t: t.leave(member))
        else:
            await self.lobby.change(table, lambda t: t.leave(member))

    async def take_back(self, table: Table, member: str) -> None:
        await self.lobby.in_game(table, lambda t: t.take_back(member))

    async def start_game(self, table: Table, *, rematch: bool = False) -> None:
        await self.dealer.start_game(table, rematch=rematch)

    async def add_bot(
        self, table: Table, seat: int, level: str | None, personality: str | None
    ) -> None:
        await self.lobby.change(table, lambda t: t.add_bot(seat, level, personality))

    async def remove(self, table: Table, seat: int, block: bool = False) -> None:
        await self.lobby.change(table, lambda t: t.remove(seat, block))

    async def fill_bots(self, table: Table, level: str | None, personality: str | None) -> None:
        """A bot in every empty seat."""
        await self.lobby.change(table, lambda t: t.fill_bots(level, personality))

    async def block(self, table: Table, index: int, blocked: bool) -> None:
        """Block a former player from sitting again (or unblock them)."""
        await self.lobby.change(table, lambda t: t.block(index, blocked))

    async def move_seat(self, table: Table, source: int, target: int) -> None:
        await self.lobby.change(table, lambda t: t.move_seat(source, target))

    async def change_settings(self, table: Table, patch: Any) -> None:
        await self.lobby.change(table, lambda t: t.change_settings(patch))

    async def hand_to_bot(self, table: Table, seat: int) -> None:
        await self.lobby.in_game(table, lambda t: t.hand_to_bot(seat))
