"""Deadlines: when a timer (or a bot) must move for a seat, and what the timer plays.

`plan()` recomputes the deadlines of a table after any change (`Timing.plan`: with the
server's away clock and bots' delay); `default_move()` picks the move the table plays for
a seat whose time ran out (docs/protocol.md, *Timers*); `rows()` and `deadlines_of()`
write the deadlines as the store and the bus carry them and read them back. Nothing here
sleeps: the clock (`clock.py`) runs on these numbers.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from coup.server.protocol import now_ms
from coup.server.settings import REACTION_PHASES
from coup.server.table import Deadline, Table

_rng = random.SystemRandom()
FOREVER = 2**62  # the due time of a deadline that never passes (a stalled seat's)
# Deadlines that play no move when they pass: the grace of a connected player (hidden),
# its clock (shown), and the mark of a seat whose player let both pass.
GRACE, STALL, STALLED = "grace", "stall", "stalled"
HIDDEN = frozenset({"bot", GRACE, STALLED})  # kinds a view does not show as a clock


def default_move(state: Any, seat: int) -> str:
    """The move a timer plays for `seat` (one of its legal moves, in notation)."""
    legal = [str(m) for m in state.legal(seat)]
    if not legal:
        raise ValueError(f"seat {seat} has no legal move")
    phase = str(state.phase)
    if phase in REACTION_PHASES and "pass" in legal:
        return "pass"
    if phase == "action":
        if "income" in legal:
            return "income"
        coups = [m for m in legal if m.startswith("coup ")]
        return coups[0] if coups else legal[0]
    if phase in ("lose", "prove"):
        loses = [m for m in legal if m.startswith("lose ")]
        return loses[0] if loses else legal[0]
    if phase == "exchange":
        own = state.view(seat)["players"][seat]["cards"] or []
        keep = "keep " + " ".join(sorted(own))
        for m in legal:
            if m.startswith("keep ") and sorted(m.split()[1:]) == sorted(own):
                return m
        return keep if keep in legal else legal[0]
    if phase == "examine" and "return" in legal:
        return "return"
    return legal[0]


def plan(
    table: Table,
    *,
    now: int,
    away_seconds: float,
    bot_delay: tuple[float, float],
    fresh: bool,
    grace: tuple[float, float] = (60.0, 30.0),
) -> dict[int, Deadline]:
    """The deadlines of every seat that must move now.

    `fresh` is True when a new decision begins (every game move except a `pass` that
    leaves the same challenge/block window open): clocks start anew. Otherwise (a pass
    inside a window, a connection coming or going, a restart) the running clocks stay.
    """
    run = table.run
    if run is None or not table.playing or run.state.over:
        return {}
    state = run.state
    phase = str(state.phase)
    reaction = phase in REACTION_PHASES
    length = int(table.settings["reaction_timer" if reaction else "turn_timer"])
    kind = "reaction" if reaction else "turn"
    old = table.deadlines
    out: dict[int, Deadline] = {}
    for seat in state.waiting:
        member = run.members[seat]
        keep = None if fresh else old.get(seat)
        seated = table.seat(member)
        # A bot's seat, or a person's seat a bot plays for now (Seat.standin).
        is_bot = seated is not None and (seated.kind == "bot" or seated.standin is not None)
        if keep is not None and keep.kind == "bot":
            if is_bot:
                out[seat] = keep
                continue
            keep = None  # the person took their seat back: their clock starts now
        if is_bot:
            lo, hi = bot_delay
            delay = lo if hi <= lo else _rng.uniform(lo, hi)
            out[seat] = Deadline("bot", now + int(delay * 1000), 0, now)
            continue
        since = keep.since if keep is not None else now
        best: Deadline | None = None
        if length > 0:
            best = Deadline(kind, since + length * 1000, length, since)
        connected = seated is not None and table.is_connected(seated)
        if not connected:
            gone = max(since, table.away_since.get(member, since))
            away = Deadline("away", gone + int(away_seconds * 1000), int(away_seconds), since)
            if best is None or away.due_at < best.due_at:
                best = away
        elif best is None:  # here, and no clock: nobody may stall the table forever
            best = _grace(keep, since, now, grace)
        if best is not None:
            out[seat] = best
    return out


def _grace(keep: Deadline | None, since: int, now: int, grace: tuple[float, float]) -> Deadline:
    """A connected player's decision without a clock: a hidden grace, then a clock the
    others see; once it passes the seat is stalled (the host may hand it to a bot). A
    running grace or clock goes on from where it stood (`keep`)."""
    hidden, shown = int(grace[0] * 1000), int(grace[1] * 1000)
    if keep is not None and keep.kind == STALLED:
        return keep
    if keep is not None and keep.kind == STALL:
        return keep if keep.due_at > now else Deadline(STALLED, FOREVER, 0, keep.since)
    if keep is not None and keep.kind == GRACE:
        if keep.due_at > now:
            return keep
        start = keep.due_at
    else:
        start = since + hidden
        if start > now:
            return Deadline(GRACE, start, int(grace[0]), since)
    if start + shown > now:
        return Deadline(STALL, start + shown, int(grace[1]), since)
    return Deadline(STALLED, FOREVER, 0, since)


@dataclass(frozen=True)
class Timing:
    """The server's options for deadlines (`coup serve --away`, `--bot-delay`)."""

    away_seconds: float = 30.0
    bot_delay: tuple[float, float] = (0.6, 1.5)
    grace: tuple[float, float] = (60.0, 30.0)  # `coup serve --grace`: hidden, then shown

    def plan(self, table: Table, *, fresh: bool) -> dict[int, Deadline]:
        """The table's deadlines as of now (`plan()`)."""
        return plan(
            table,
            now=now_ms(),
            away_seconds=self.away_seconds,
            bot_delay=self.bot_delay,
            fresh=fresh,
            grace=self.grace,
        )


def rows(table: Table) -> list[dict[str, Any]]:
    """The table's deadlines as rows (stored, and sent on the bus): `deadlines_of` reads
    them back."""
    run = table.run
    game, seq = (run.number, run.seq) if run is not None else (0, 0)
    return [
        {
            "seat": s,
            "kind": d.kind,
            "due_at": d.due_at,
            "seconds": d.seconds,
            "game": game,
            "seq": seq,
        }
        for s, d in table.deadlines.items()
    ]


def deadlines_of(table: Table, rows: list[dict[str, Any]]) -> dict[int, Deadline]:
    """The table's deadlines from their rows (stored, or sent on the bus): those of its
    current position."""
    run = table.run
    out: dict[int, Deadline] = {}
    if run is None:
        return out
    for d in rows:
        if d["game"] == run.number and d["seq"] == run.seq:
            since = min(int(d["due_at"]) - 1000 * int(d["seconds"]), now_ms())
            out[int(d["seat"])] = Deadline(
                str(d["kind"]), int(d["due_at"]), int(d["seconds"]), since
            )
    return out
