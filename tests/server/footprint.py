"""Memory per table, without sockets: `python tests/server/footprint.py [TABLES]`.

Creates TABLES tables of 4 seats in the table service (SQLite in a temporary folder),
starts each game and plays 30 random moves, then prints the growth of the process's
resident memory per table. (Each open websocket adds its own buffers on top; see
`coup loadtest`, which reports the server's RSS with every seat connected.)
"""

from __future__ import annotations

import asyncio
import gc
import random
import sys
import tempfile
from pathlib import Path

from coup.bus.memory import MemoryBus
from coup.server.hub import Hub
from coup.server.service import TableService
from coup.store import open_store


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def main(tables: int) -> None:
    folder = tempfile.mkdtemp(prefix="coup-footprint-")
    store = await open_store(f"sqlite:///{folder}/coup.db")
    service = TableService(store, MemoryBus(), Hub(), bot_delay=(3600, 3600))
    await service.start()
    rng = random.Random(1)
    await service.create("warm-up", {"seats": 4})
    gc.collect()
    before = rss_kib()
    for _ in range(tables):
        table, _, _ = await service.create("Host", {"seats": 4})
        for n in range(1, 4):
            await service.join(table, f"P{n}", None)
        await service.start_game(table)
        for _ in range(30):
            assert table.run is not None
            state = table.run.state
            if state.over:
                break
            seat = state.waiting[0]
            await service.dealer.play(table, seat, str(rng.choice(state.legal(seat))), None)
    gc.collect()
    grown = rss_kib() - before
    print(f"{tables} tables (4 seats, a game 30 moves in): {grown / tables:.1f} KiB per table")
    await service.stop()
    await store.close()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 500))
