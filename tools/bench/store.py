"""`coup bench --store postgresql://...`: what writing a move costs the server process.

On a fresh database next to the one given (dropped at the end), the same moves are
appended to a table by the one-statement path and by the transaction it replaced,
interleaved round by round; the report gives the medians of the server process's CPU
and of the wall time per move, and their ratios.
"""

from __future__ import annotations

import asyncio
import secrets
import statistics
import time
from typing import Any

from coup.store.sql import SqlStore, open_store
from tools.load.fleet import drop_database, loopback, make_database

ROUNDS = 5


async def _append_many(
    store: SqlStore, table_id: str, first: int, count: int
) -> tuple[float, float]:
    """(CPU ms, wall ms) per move for `count` moves from seq `first`."""
    wall0, cpu0 = time.perf_counter(), time.process_time()
    for seq in range(first, first + count):
        move = {"game": 1, "seq": seq, "seat": seq % 6, "move": "pass", "draw": None,
                "timeout": False, "step": None, "at": 1}  # fmt: skip
        due = [{"seat": k, "kind": "reaction", "due_at": 10**13, "seconds": 15, "game": 1,
                "seq": seq + 1} for k in range(4)]  # fmt: skip
        await store.append_events(table_id, [move], version=seq + 2, deadlines=due)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return 1000 * cpu / count, 1000 * wall / count


async def _measure(url: str, moves: int) -> dict[str, Any]:
    store = await open_store(url)
    store.check_versions = True
    out: dict[str, dict[str, list[float]]] = {}
    try:
        for name in ("one_statement", "transaction"):
            out[name] = {"cpu_ms": [], "wall_ms": []}
        tables = {}
        for name in out:
            tables[name] = secrets.token_urlsafe(16)
            row = {"id": tables[name], "created_at": 1, "status": "playing", "version": 1,
                   "games": 1, "last_winner": None}  # fmt: skip
            await store.create_table(row, {"seats": 6}, [])
        for r in range(ROUNDS):
            for name in out:
                store.one_statement = name == "one_statement"
                cpu, wall = await _append_many(store, tables[name], r * moves, moves)
                out[name]["cpu_ms"].append(cpu)
                out[name]["wall_ms"].append(wall)
    finally:
        await store.close()
    med = {n: {k: statistics.median(v) for k, v in m.items()} for n, m in out.items()}
    return {
        "moves_per_round": moves,
        "rounds": ROUNDS,
        "per_move": {n: {k: round(v, 3) for k, v in m.items()} for n, m in med.items()},
        "cpu_ratio": round(med["transaction"]["cpu_ms"] / med["one_statement"]["cpu_ms"], 2),
        "wall_ratio": round(med["transaction"]["wall_ms"] / med["one_statement"]["wall_ms"], 2),
    }


def run(base: str, moves: int) -> dict[str, Any]:
    """Measure on a fresh database made next to `base` (a postgresql:// URL on this
    machine) and dropped at the end."""
    if not base.startswith(("postgresql://", "postgres://")) or not loopback(base):
        raise ValueError("--store takes a postgresql:// URL on this machine")
    name, url = make_database(base, "coup_bench")
    try:
        return asyncio.run(_measure(url, moves))
    finally:
        drop_database(base, name)


def report(r: dict[str, Any]) -> str:
    one, tx = r["per_move"]["one_statement"], r["per_move"]["transaction"]
    return (
        f"writing a move to PostgreSQL, medians of {r['rounds']} interleaved rounds of "
        f"{r['moves_per_round']} moves:\n"
        f"  one statement:  {one['cpu_ms']:.3f} ms server CPU, {one['wall_ms']:.3f} ms wall\n"
        f"  transaction:    {tx['cpu_ms']:.3f} ms server CPU, {tx['wall_ms']:.3f} ms wall\n"
        f"  one statement is {r['cpu_ratio']}x less CPU, {r['wall_ratio']}x less wall time"
    )
