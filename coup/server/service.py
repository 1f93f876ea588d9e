"""The table service: every change to a table goes through here.

One asyncio lock per table serializes its changes. A change is checked on a copy,
written to the store, and only then made visible (swapped in and broadcast), so a
refused or failed change leaves the table as it was and nothing is shown before it is
durable. Game moves, timer moves and bot moves share one path: `play()`.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

import coup
from coup.bus import Bus
from coup.server import games, timers
from coup.server.hub import Hub
from coup.server.protocol import (
    CHAT_BURST,
    CHAT_RATE,
    ProtocolError,
    RateLimit,
    clean_chat,
    clean_name,
    now_ms,
)
from coup.server.settings import DEFAULTS, REACTION_PHASES, merge
from coup.server.table import Deadline, GameRun, Seat, Table, new_table_id
from coup.server.views import view_message, view_texts
from coup.store import SqlStore, TableData

log = logging.getLogger("coup.server")
T = TypeVar("T")
IDLE_EVICT = 600.0  # seconds


class TableService:
    def __init__(
        self,
        store: SqlStore,
        bus: Bus,
        hub: Hub,
        *,
        bot_delay: tuple[float, float] = (0.6, 1.5),
        away_seconds: float = 30.0,
    ) -> None:
        self.store = store
        self.bus = bus
        self.hub = hub
        self.bot_delay = bot_delay
        self.away_seconds = away_seconds
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.closing = False

    # ---- lifecycle ------------------------------------------------------------------
    async def start(self) -> None:
        self.bus.listen(self._on_bus)
        for table_id in await self.store.open_tables():
            await self.get(table_id)
        self._sweeper = asyncio.create_task(self._sweep())

    async def _sweep(self, every: float = 60.0, idle: float = IDLE_EVICT) -> None:
        """Drop from memory the tables nobody uses (no game running, no connection,
        untouched for `idle` seconds); they load again from the store when opened."""
        while True:
            await asyncio.sleep(every)
            self.evict(idle)

    def evict(self, idle: float = IDLE_EVICT) -> int:
        cutoff = time.monotonic() - idle
        gone = [
            t.id
            for t in self.tables.values()
            if not t.playing
            and t.touched < cutoff
            and not self.hub.of(t.id)
            and not t.lock.locked()
        ]
        for table_id in gone:
            del self.tables[table_id]
        return len(gone)

    async def stop(self) -> None:
        self.closing = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in self.tables.values():
            if table.clock is not None:
                table.clock.cancel()
        for table in self.tables.values():
            if table.clock is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await table.clock

    async def get(self, table_id: str) -> Table | None:
        table = self.tables.get(table_id)
        if table is not None:
            table.touched = time.monotonic()
            return table
        if len(table_id) > 64:
            return None
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        async with lock:
            table = self.tables.get(table_id)
            if table is None:
                data = await self.store.load_table(table_id)
                if data is None:
                    return None
                table = self._rebuild(data)
                table.touched = time.monotonic()
                self.tables[table_id] = table
                self._arm(table)
        self._loading.pop(table_id, None)
        return table

    def _rebuild(self, data: TableData) -> Table:
        r = data.row
        cap = int(data.settings["seats"])
        seats: list[Seat | None] = [None] * cap
        for s in data.seats:
            seats[s["seat"]] = Seat(
                s["member"], s["name"], s["kind"], s["level"], s["token_hash"], bool(s["host"])
            )
        table = Table(
            r["id"], data.settings, seats, r["status"], int(r["version"]), int(r["games"])
        )
        table.last_winner = r["last_winner"]
        for c in data.chat:
            table.chat.append(
                {
                    "id": c["id"],
                    "seat": c["seat"],
                    "name": c["name"],
                    "text": c["text"],
                    "at": c["at"],
                }
            )
        if data.game is not None:
            g = data.game
            moves = [games.event_move(e) for e in g.events]
            state = coup.replay({**g.header, "moves": moves})
            timeouts = [{"index": e["step"], "seat": e["seat"]} for e in g.events if e["timeout"]]
            table.run = GameRun(
                g.row["game"], state, g.header, g.members, moves, timeouts, table.version
            )
            now = now_ms()
            for sitter in seats:
                if sitter is not None and sitter.kind == "human":
                    table.away_since[sitter.member] = now
            for d in data.deadlines:
                if d["game"] == table.run.number and d["seq"] == table.run.seq:
                    since = d["due_at"] - 1000 * int(d["seconds"])
                    table.deadlines[d["seat"]] = Deadline(
                        d["kind"], d["due_at"], d["seconds"], since
                    )
            table.deadlines = self._plan(table, fresh=False)
        return table

    # ---- creating and joining -------------------------------------------------------
    async def create(self, name: Any, settings: Any) -> tuple[Table, int, str]:
        name = clean_name(name)
        merged = merge(DEFAULTS, settings if settings is not None else {})
        table = Table(new_table_id(), merged, [None] * int(merged["seats"]))
        table.touched = time.monotonic()
        seat, token = table.sit(name, 0, host=True)
        row = {
            "id": table.id,
            "created_at": now_ms(),
            "status": table.status,
            "version": table.version,
            "games": 0,
            "last_winner": None,
        }
        await self.store.create_table(row, table.settings, table.seat_rows())
        self.tables[table.id] = table
        return table, seat, token

    async def join(self, table: Table, name: Any, seat: Any) -> tuple[int, str]:
        name = clean_name(name)
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise ProtocolError("bad_seat", "seat must be an integer")
        return await self.lobby(table, lambda t: t.sit(name, seat))

    # ---- lobby changes -------------------------------------------------------------
    async def lobby(self, table: Table, op: Callable[[Table], T]) -> T:
        async with table.lock:
            draft = copy.copy(table)
            draft.seats = list(table.seats)
            draft.settings = dict(table.settings)
            result = op(draft)
            version = table.version + 1
            await self.store.save_lobby(
                table.id,
                version=version,
                settings=draft.settings,
                status=draft.status,
                seats=draft.seat_rows(),
            )
            table.seats, table.settings, table.version = draft.seats, draft.settings, version
        await self.changed(table)
        return result

    def host_only(self, table: Table, member: str | None) -> None:
        if table.seat_of(member) is None:
            raise ProtocolError("not_seated", "you hold no seat at this table")
        if not table.is_host(member):
            raise ProtocolError("not_host", "only the host may do that")

    async def chat(self, table: Table, member: str | None, text: str) -> None:
        seat = table.seat_of(member)
        if seat is None:
            raise ProtocolError("not_seated", "only seated players may chat")
        text = clean_chat(text)
        limit = table.chat_limits.setdefault(str(member), RateLimit(CHAT_BURST, CHAT_RATE))
        if not limit.allow():
            raise ProtocolError("rate_limited", "chat: at most one message a second, please")
        async with table.lock:
            seat = table.seat_of(member)  # again: the host may have moved them meanwhile
            sitter = None if seat is None else table.seats[seat]
            if seat is None or sitter is None:
                raise ProtocolError("not_seated", "only seated players may chat")
            version = table.version + 1
            message = {"seat": seat, "name": sitter.name, "text": text, "at": now_ms()}
            chat_id = await self.store.add_chat(table.id, message, version=version)
            table.chat.append({"id": chat_id, **message})
            table.version = version
        await self.changed(table)

    async def presence(self, table: Table, member: str, delta: int) -> None:
        """A player connection opened (+1) or closed (-1)."""
        async with table.lock:
            before = table.connected.get(member, 0)
            after = max(0, before + delta)
            table.connected[member] = after
            if (before > 0) == (after > 0):
                return
            if after == 0:
                table.away_since[member] = now_ms()
            version = table.version + 1
            deadlines = self._plan(table, fresh=False)
            table.deadlines = deadlines
            if not self.closing:
                await self.store.save_deadlines(
                    table.id, version=version, deadlines=timers.rows(table)
                )
            table.version = version
        if not self.closing:
            self._arm(table)
            await self.changed(table)

    # ---- games ---------------------------------------------------------------------
    async def start_game(self, table: Table, member: str | None, *, rematch: bool) -> None:
        self.host_only(table, member)
        async with table.lock:
            if table.playing:
                raise ProtocolError("game_running", "a game is running at this table", 409)
            if rematch and table.status != "over":
                raise ProtocolError("no_game_running", "there is no finished game to rematch")
            draft = copy.copy(table)
            draft.seats = list(table.seats)
            taken = draft.close_up()
            version = table.version + 1
            draft.run = games.new_run(draft, taken, version)
            draft.status = "playing"
            draft.games = table.games + 1
            draft.deadlines = {}
            draft.deadlines = self._plan(draft, fresh=True)
            run = draft.run
            await self.store.start_game(
                table.id,
                version=version,
                games=draft.games,
                seats=draft.seat_rows(),
                game={
                    "game": run.number,
                    "commitment": run.commitment,
                    "status": "playing",
                    "winner": None,
                    "started_at": now_ms(),
                    "ended_at": None,
                },
                header=run.header,
                members=run.members,
                events=[],
                deadlines=timers.rows(draft),
            )
            table.seats, table.run, table.status = draft.seats, draft.run, "playing"
            table.games, table.deadlines, table.version = draft.games, draft.deadlines, version
            table.bots = {}
        self._arm(table)
        await self.changed(table)

    async def play(
        self,
        table: Table,
        seat: int,
        move: str,
        version: int | None,
        *,
        timeout: bool = False,
        expect: GameRun | None = None,
    ) -> None:
        """Play `move` for game seat `seat`: check, log durably, then show."""
        async with table.lock:
            run = table.run
            if run is None or not table.playing:
                raise ProtocolError("no_game_running", "no game is running at this table")
            if expect is not None and (run is not expect):
                raise ProtocolError("stale", "the game changed before this move")
            try:
                coup.Move.parse(move)
            except ValueError as exc:
                raise ProtocolError("invalid_move", str(exc)) from None
            if version is not None and version < run.changed_version:
                raise ProtocolError(
                    "stale",
                    f"the game changed at version {run.changed_version}; your view is "
                    f"version {version}",
                )
            state = run.state.clone()
            try:
                state.play(seat, move)
            except coup.InvalidMoveError as exc:
                raise ProtocolError("invalid_move", str(exc)) from None
            except ValueError as exc:
                raise ProtocolError("illegal_move", str(exc)) from None
            new_moves = state.record()["moves"][run.seq :]
            now = now_ms()
            step = len(run.state.view(None)["history"]) if timeout else None
            events = [
                games.event_row(run, run.seq + i, m, now, timeout and i == 0, step)
                for i, m in enumerate(new_moves)
            ]
            version = table.version + 1
            timeouts = run.timeouts + ([{"index": step, "seat": seat}] if step is not None else [])
            new_run = replace(
                run, state=state, moves=run.moves + new_moves, timeouts=timeouts,
                changed_version=version,
            )  # fmt: skip
            draft = copy.copy(table)
            draft.run = new_run
            finish = None
            last_winner = table.last_winner
            if state.over:
                draft.status = "over"
                last_winner = new_run.members[state.winner]
                finish = {"status": "over", "winner": state.winner, "ended_at": now}
            same_window = (
                move.strip() == "pass"
                and state.phase == run.state.phase
                and state.phase in REACTION_PHASES
            )
            draft.deadlines = self._plan(draft, fresh=not same_window)
            await self.store.append_events(
                table.id,
                events,
                version=version,
                deadlines=timers.rows(draft),
                finish=finish,
                last_winner=last_winner,
            )
            table.run, table.status, table.deadlines = new_run, draft.status, draft.deadlines
            table.version, table.last_winner = version, last_winner
        self._arm(table)
        await self.changed(table)

    async def record(self, table: Table, number: int) -> dict[str, Any]:
        """Game `number`'s coup-record/1, once it is over (the seed is secret until then)."""
        return await games.record(self.store, table, number)

    def _plan(self, table: Table, *, fresh: bool) -> dict[int, Deadline]:
        return timers.plan(
            table,
            now=now_ms(),
            away_seconds=self.away_seconds,
            bot_delay=self.bot_delay,
            fresh=fresh,
        )

    # ---- the clock -----------------------------------------------------------------
    def _arm(self, table: Table) -> None:
        current = asyncio.current_task()
        if table.clock is not None and table.clock is not current and not table.clock.done():
            table.clock.cancel()
        table.clock = None
        if self.closing or not table.deadlines:
            return
        due = min(d.due_at for d in table.deadlines.values())
        table.clock = asyncio.create_task(self._tick(table, due))

    async def _tick(self, table: Table, due: int) -> None:
        delay = (due - now_ms()) / 1000
        if delay > 0:
            await asyncio.sleep(delay)
        try:
            await games.fire(self, table)
        except Exception:
            # E.g. the database was briefly unavailable: nothing changed; try again soon,
            # so that the game never hangs.
            log.exception("table %s: the clock failed; retrying in a second", table.id)
            await asyncio.sleep(1.0)
            self._arm(table)

    # ---- telling the connections ---------------------------------------------------
    async def changed(self, table: Table) -> None:
        table.touched = time.monotonic()
        if not self.closing:
            # Shielded: a clock task cancelled right after its move must still tell.
            await asyncio.shield(self.bus.publish(table.id, str(table.version)))

    async def watch(self, table: Table) -> None:
        """A socket of `table` opened here: hear of the table's changes."""
        await self.bus.watch(table.id)

    async def unwatch(self, table: Table) -> None:
        await self.bus.unwatch(table.id)

    async def _on_bus(self, table_id: str, _message: str) -> None:
        table = self.tables.get(table_id)
        if table is not None:
            self.broadcast(table)

    def broadcast(self, table: Table) -> None:
        conns = self.hub.of(table.id)
        if not conns:
            return
        seated = {s.member for s in table.seats if s is not None}
        keys = {conn: (conn.member if conn.member in seated else None) for conn in conns}
        texts = view_texts(table, list(keys.values()), self.hub.spectators(table.id, seated))
        for conn, key in keys.items():
            conn.send_view(texts[key])

    def view_for(self, table: Table, member: str | None) -> dict[str, Any]:
        seated = {s.member for s in table.seats if s is not None}
        return view_message(table, member, spectators=self.hub.spectators(table.id, seated))
