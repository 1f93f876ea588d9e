"""A move's server CPU on the one path, in process: `python -m tools.bench.move`.

Tables of 6 seats and a spectator on a `TableService` with a fresh SQLite store and the
memory bus; every seat and the spectator is a hub connection whose socket frames each
view (the websockets library's frame encoding) but sends nothing. Random legal moves go
through `Dealer.play()` (`service.dealer`): engine, store write, views, JSON, frames.
Prints the process's CPU (every thread: the store's writer too) per move. Run it in
two trees in turns to compare, from each tree's own folder (`cd OTHER_TREE && python -m
tools.bench.move`): `python -m` takes the code of the folder it runs in ahead of
`PYTHONPATH`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from typing import Any

from websockets.frames import Frame, Opcode

from coup.bus.memory import MemoryBus
from coup.server.hub import Connection, Hub
from coup.server.service import TableService
from coup.store import open_store


class FramingSocket:
    """Frames each text as the server's websocket would, and drops it."""

    async def send_text(self, text: str) -> None:
        Frame(Opcode.TEXT, text.encode()).serialize(mask=False, extensions=[])


async def run(tables: int, moves: int, seats: int) -> dict[str, Any]:
    store = await open_store(f"sqlite:///{tempfile.mkdtemp()}/bench.db")
    hub = Hub()
    service = TableService(store, MemoryBus(), hub, bot_delay=(3600, 3600), away_seconds=3600)
    await service.start()
    rng = random.Random(1)
    held = []
    for _ in range(tables):
        table, _, _ = await service.create("Host", {"seats": seats, "reaction_timer": 0})
        for k in range(1, seats):
            await service.join(table, f"P{k}", k)
        members = [s.member for s in table.seats if s is not None]
        for member in [*members, None]:
            conn = Connection(FramingSocket(), table.id, member)  # type: ignore[arg-type]
            hub.add(conn)
            conn.start()
            if member is not None:
                await service.presence.change(table, member, +1)
        await service.start_game(table)
        held.append((table, members[0]))
    await asyncio.sleep(0.2)
    done = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while done < moves:
        for table, host in held:
            if table.run is None or table.status == "over":
                await service.start_game(table, rematch=True)
                continue
            state = table.run.state
            seat = state.waiting[0]
            await service.dealer.play(
                table, seat, str(rng.choice(state.legal(seat))), table.version
            )
            done += 1
        await asyncio.sleep(0)  # the connections' writers run
    await asyncio.sleep(0.05)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    await service.stop()
    await store.close()
    return {"moves": done, "cpu_ms_per_move": round(1000 * cpu / done, 3),
            "wall_ms_per_move": round(1000 * wall / done, 3)}  # fmt: skip


def main() -> None:
    p = argparse.ArgumentParser(prog="python -m tools.bench.move", description=__doc__)
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--moves", type=int, default=2000)
    p.add_argument("--seats", type=int, default=6)
    args = p.parse_args()
    print(json.dumps(asyncio.run(run(args.tables, args.moves, args.seats))))


if __name__ == "__main__":
    main()
