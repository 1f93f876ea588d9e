"""Bots' moves: medium and hard bots decide in worker processes (`coup.work`), never here.

A bot's decision is asked for as soon as its deadline is planned (`ahead`, from the
clock's `arm`), with that deadline as the worker's: the bot thinks during its think delay
and its move is ready when the clock plays it (`move`). A decision is one bot deadline
(table, game, seat, due time): when the position moves on the deadlines are planned
again, and the decisions nobody waits for any more are given up (a job not yet started
leaves the queue; one running ends by its deadline). A table whose game ended or that
left memory keeps none.

What is sent is the seat's world (`coup.work.jobs`), never the game. When no worker is
free a medium bot answers at once here (its decision costs less than sending it); when
a worker's answer misses its deadline, or the workers failed on it, the medium bot of the
seat's personality answers here too, so a table never waits on the workers. An easy bot
plays here as before (a few microseconds).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from dataclasses import dataclass
from typing import Any, Protocol

from coup.bots.search import DEFAULT_STEPS
from coup.bots.window import GuardedWindow
from coup.server import tutorial
from coup.server.game_run import tutorial_of
from coup.server.protocol import now_ms
from coup.server.table import GameRun, Table
from coup.work.jobs import Answer, Decision, world_of

log = logging.getLogger("coup.server")

#: Seconds after its deadline that a worker's answer is still waited for.
GRACE = 0.25
#: Seconds a decision asked for only when due gets (it was planned by another process, or
#: before a restart): the table waits this much longer for that move.
LATE = 0.5
_rng = random.SystemRandom()


class Thinking(Protocol):
    """The workers, as the bots' moves use them (`coup.work.Workers`)."""

    def idle(self) -> bool: ...
    async def decide(self, decision: Decision) -> Answer: ...


@dataclass
class SeatBot:
    """The bot of one seat for one game: its level, its personality for this game (a
    "random" one drawn once a game), and the bot that plays here when the workers do not."""

    level: str
    personality: str
    here: Any


def seat_bot(level: str | None, personality: str | None) -> SeatBot:
    from coup import bots

    level = level if level in bots.LEVELS else "easy"
    chosen = personality if personality in bots.PERSONALITIES else _rng.choice(bots.PERSONALITIES)
    here_level = "easy" if level == "easy" else "medium"
    here = bots.for_level(here_level, chosen, seed=secrets.randbits(64))
    return SeatBot(level, chosen, here)


class NoWorkers:
    """No worker processes (a service built without them, in tests and tools): every
    medium and hard decision is answered here by the seat's medium bot."""

    def idle(self) -> bool:
        return False

    async def decide(self, decision: Decision) -> Answer:
        return Answer(None)


class BotMoves:
    def __init__(self, workers: Thinking | None = None, steps: int = DEFAULT_STEPS) -> None:
        self.workers: Thinking = workers if workers is not None else NoWorkers()
        self.steps = steps
        self.counts: dict[str, int] = {"answered_here": 0, "late": 0, "failed": 0, "stale": 0}
        self._tables: dict[str, Table] = {}  # the tables with decisions asked for

    def _bot(self, table: Table, run: GameRun, seat: int) -> SeatBot:
        bot = table.bots.get(seat)
        if bot is None:
            sitter = table.seat(run.members[seat])
            level = None if sitter is None else sitter.level
            bot = table.bots[seat] = seat_bot(level, None if sitter is None else sitter.personality)
        return bot

    def ahead(self, table: Table) -> None:
        """Ask for the decisions of the table's bot deadlines now (each once), give up
        those of deadlines that are gone."""
        run = table.run
        wanted: dict[tuple[int, int, int], int] = {}
        if run is not None and table.playing:
            for seat, d in table.deadlines.items():
                level = self._bot(table, run, seat).level if d.kind == "bot" else "easy"
                if level == "hard" or (level == "medium" and self.workers.idle()):
                    wanted[(run.number, seat, d.due_at)] = seat
        for key in [k for k in table.thinking if k not in wanted]:
            table.thinking.pop(key).cancel()
        for key, seat in wanted.items():
            if key not in table.thinking and run is not None:
                table.thinking[key] = self._ask(table, run, seat, key[2] / 1000)
        if table.thinking:
            self._tables[table.id] = table
        else:
            self._tables.pop(table.id, None)

    def stop(self) -> None:
        """Give up every decision asked for (the server stops)."""
        for table in self._tables.values():
            for task in table.thinking.values():
                task.cancel()
            table.thinking.clear()
        self._tables.clear()

    def _ask(self, table: Table, run: GameRun, seat: int, deadline: float) -> asyncio.Task[Answer]:
        bot = self._bot(table, run, seat)
        decision = Decision(
            key=f"{table.id} {run.number} {seat} {int(deadline * 1000)}",
            table=table.id,
            world=world_of(run.state, seat, random.Random(secrets.randbits(64))),
            seat=seat,
            bot=f"{bot.level}:{bot.personality}",
            seed=secrets.randbits(64),
            deadline=deadline,
            steps=self.steps if bot.level == "hard" else 0,
        )
        return asyncio.ensure_future(self.workers.decide(decision))

    async def move(self, table: Table, run: GameRun, seat: int) -> str:
        """The bot's move for `seat` now (its deadline is due): the worker's answer, else
        the seat's medium (or easy) bot's from here; a random legal move if that fails."""
        state = run.state  # never changed in place: every move swaps in a new state
        script = tutorial_of(table)
        scripted = None if script is None else tutorial.bot_move(script, state, seat)
        if scripted is not None:
            return scripted
        bot = self._bot(table, run, seat)
        legal = {str(m) for m in state.legal(seat)}
        answer: str | None = None
        if bot.level != "easy":
            deadline = table.deadlines.get(seat)
            due = deadline.due_at if deadline is not None else now_ms()
            task = table.thinking.pop((run.number, seat, due), None)
            until = due / 1000
            if task is None and not (bot.level == "medium" and not self.workers.idle()):
                until = time.time() + LATE
                task = self._ask(table, run, seat, until)
            if task is not None:
                answer = await self._answer(table, seat, task, until)
            if answer is not None and answer not in legal:
                # decided in the window's first position, no longer legal in this one
                self.counts["stale"] += 1
                until = time.time() + LATE
                answer = await self._answer(table, seat, self._ask(table, run, seat, until), until)
        if answer is not None and answer in legal:
            return answer
        if bot.level != "easy":
            self.counts["answered_here"] += 1
        try:
            move = str(bot.here.choose(GuardedWindow(state, seat), seat))
            if move not in legal:
                raise ValueError(f"the bot chose {move}, which is not legal")
            return move
        except Exception:
            log.exception("table %s: the bot in seat %s failed; playing at random", table.id, seat)
            return str(random.choice(sorted(legal)))

    async def _answer(
        self, table: Table, seat: int, task: asyncio.Task[Answer], deadline: float
    ) -> str | None:
        """The worker's move, waited for until `GRACE` after the deadline."""
        try:
            wait = max(0.0, deadline - time.time()) + GRACE
            done, _ = await asyncio.wait({task}, timeout=wait)
            if not done:
                task.cancel()
                self.counts["late"] += 1
                return None
            answer = task.result()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - the workers failed on it (a worker died twice)
            log.warning("table %s: the workers failed on seat %s: %s", table.id, seat, exc)
            self.counts["failed"] += 1
            return None
        if answer.move is None:
            self.counts["late"] += 1
        return answer.move

    def stats(self) -> dict[str, int]:
        return dict(self.counts)
