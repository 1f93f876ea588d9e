"""The table's dealer: a game's start (or a rematch) and each of its moves, the one path
for people, bots and timers (`clock.py`): the engine plays a move on a clone, the events
are written to the store, the clone is swapped in; then `Commit` re-arms the clock, shows
the views and tells the bus (and runs the step again when another process wrote first).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import coup
from coup.rules.records import record_moves
from coup.server import game_run, timers
from coup.server.catchup import CatchUp
from coup.server.coach import SEED as COACH_SEED
from coup.server.commit import Commit
from coup.server.protocol import ProtocolError, now_ms
from coup.server.settings import REACTION_PHASES
from coup.server.table import GameRun, Table
from coup.server.timers import Timing
from coup.store import SqlStore
from coup.store.analyses import queued_rows


class Dealer:
    def __init__(
        self,
        store: SqlStore,
        commit: Commit,
        catchup: CatchUp,
        timing: Timing,
        coach_woken: Callable[[], None] | None = None,
    ) -> None:
        self.store = store
        self.commit = commit
        self.catchup = catchup
        self.timing = timing
        self.coach_woken = coach_woken  # the coach's queue has work (a game ended)

    async def start_game(self, table: Table, *, rematch: bool) -> None:
        await self.commit(table, lambda: self._start_game(table, rematch))

    async def _start_game(self, table: Table, rematch: bool) -> None:
        if table.playing:
            raise ProtocolError("game_running", "a game is running at this table", 409)
        if rematch and table.status != "over":
            raise ProtocolError("no_game_running", "there is no finished game to rematch")
        draft = copy.copy(table)
        draft.seats = list(table.seats)
        taken = draft.close_up()
        version = table.version + 1
        draft.run = game_run.new_run(draft, taken, version)
        # A stand-in carries into the new game (until its player takes the seat back):
        # the new game's handoffs say so from its first move.
        draft.run.handoffs = [
            {"index": 0, "seat": i, "reason": "host"}
            for i, sitter in enumerate(taken)
            if sitter.standin == "host"
        ]
        draft.status = "playing"
        draft.games = table.games + 1
        draft.deadlines = {}
        draft.deadlines = self.timing.plan(draft, fresh=True)
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
            handoffs=game_run.handoff_rows(run, 0),
        )
        table.seats, table.run, table.status = draft.seats, draft.run, "playing"
        table.games, table.deadlines, table.version = draft.games, draft.deadlines, version
        table.bots = {}

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
        await self.commit(table, lambda: self._play(table, seat, move, version, timeout, expect))

    async def _play(
        self,
        table: Table,
        seat: int,
        move: str,
        version: int | None,
        timeout: bool,
        expect: GameRun | None,
    ) -> None:
        if version is not None and version > table.version and self.store.shared:
            await self.catchup.refresh_locked(table)  # this process may be behind
        run = table.run
        if run is None or not table.playing:
            raise ProtocolError("no_game_running", "no game is running at this table")
        if expect is not None and (run is not expect):
            raise ProtocolError("stale", "the game changed before this move")
        try:
            parsed = coup.Move.parse(move)
        except coup.InvalidMoveError as exc:
            raise ProtocolError("invalid_move", str(exc)) from None
        if version is not None and version > table.version:
            raise ProtocolError(
                "bad_version",
                f"no view of this table had version {version}; it is at {table.version}",
            )
        if version is not None and version < run.changed_version:
            raise ProtocolError(
                "stale",
                f"the game changed at version {run.changed_version}; your view is "
                f"version {version}",
            )
        state = run.state.clone()
        start = len(state.history)
        try:
            state.play(seat, parsed)
        except coup.IllegalMoveError as exc:  # any other error is the server's: `internal`
            raise ProtocolError("illegal_move", str(exc)) from None
        new_moves: list[dict[str, Any]] = [{**m} for m in record_moves(state.history, start)]
        now = now_ms()
        step = len(run.state.view(None)["history"]) if timeout else None
        events = [
            game_run.event_row(run, run.seq + i, m, now, timeout and i == 0, step)
            for i, m in enumerate(new_moves)
        ]
        version = table.version + 1
        timeouts = run.timeouts + (
            [{"index": step, "seat": seat, "seq": run.seq}] if step is not None else []
        )
        new_run = replace(
            run, state=state, moves=run.moves + new_moves, timeouts=timeouts,
            changed_version=version,
        )  # fmt: skip
        draft = copy.copy(table)
        draft.run = new_run
        finish = coach = None
        last_winner = table.last_winner
        if state.over:  # the coach's analyses of the people's seats queue with it
            draft.status = "over"
            last_winner = None if state.winner is None else new_run.members[state.winner]
            finish = {"status": "over", "winner": state.winner, "ended_at": now}
            people = game_run.people(draft, new_run)
            coach = queued_rows(table.id, new_run.number, people, COACH_SEED, now)
        same_window = (
            str(parsed) == "pass"
            and state.phase == run.state.phase
            and state.phase in REACTION_PHASES
        )
        draft.deadlines = self.timing.plan(draft, fresh=not same_window)
        await self.store.append_events(
            table.id,
            events,
            version=version,
            deadlines=timers.rows(draft),
            finish=finish,
            last_winner=last_winner,
            coach=coach,
        )
        table.run, table.status, table.deadlines = new_run, draft.status, draft.deadlines
        table.version, table.last_winner = version, last_winner
        if coach and self.coach_woken is not None:
            self.coach_woken()

    async def replan(self, table: Table, expect: GameRun) -> None:
        """A grace or its clock passed (`timers.py`): the clocks planned again, stored
        with the table's next version and shown (the seat's clock, or its stall)."""
        await self.commit(table, lambda: self._replan(table, expect))

    async def _replan(self, table: Table, expect: GameRun) -> None:
        if table.run is not expect or not table.playing:
            return  # the position moved on (and planned its clocks)
        draft = copy.copy(table)
        draft.deadlines = self.timing.plan(table, fresh=False)
        version = table.version + 1
        await self.store.save_deadlines(table.id, version=version, deadlines=timers.rows(draft))
        table.deadlines, table.version = draft.deadlines, version
