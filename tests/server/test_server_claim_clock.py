"""coup/server/clock.py, several processes: a process asks the store for due deadlines
when one is due, not after every move (a query then finds nothing: every new deadline
is seconds away)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from coup.server.bot_moves import BotMoves
from coup.server.clock import POLL, ClaimClock
from coup.server.protocol import now_ms
from coup.server.table import Deadline
from coup.server.this_process import ThisProcess


def _table(*due_in_ms: int) -> Any:
    now = now_ms()
    deadlines = {
        seat: Deadline(kind="reaction", due_at=now + ms, seconds=15, since=now)
        for seat, ms in enumerate(due_in_ms)
    }
    return SimpleNamespace(id="t", deadlines=deadlines, run=None, playing=False, thinking={})


def _clock(closing: bool = False) -> ClaimClock:
    return ClaimClock(None, ThisProcess(closing=closing), BotMoves())  # type: ignore[arg-type]  (no store)


async def test_a_move_whose_deadlines_are_seconds_away_asks_nothing_until_the_poll() -> None:
    clock = _clock()
    clock.arm(_table(15_000, 15_000, 30_000))
    await asyncio.sleep(POLL / 2)
    assert not clock._wake.is_set()


async def test_a_deadline_already_due_is_claimed_at_once() -> None:
    clock = _clock()
    clock.arm(_table(15_000, 0))
    assert clock._wake.is_set()


async def test_a_deadline_due_before_the_next_poll_is_claimed_at_its_time() -> None:
    clock = _clock()
    clock.arm(_table(15_000, 60))  # a quick bot's move
    assert not clock._wake.is_set()
    await asyncio.wait_for(clock._wake.wait(), POLL)


async def test_a_table_without_deadlines_or_a_closing_server_asks_nothing() -> None:
    clock = _clock()
    clock.arm(_table())
    closing = _clock(closing=True)
    closing.arm(_table(0))
    assert not clock._wake.is_set() and not closing._wake.is_set()
