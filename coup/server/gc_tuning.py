"""Short garbage collections for a long-running server.

A server holding thousands of seats' connections keeps ~80 tracked objects per
websocket alive (coroutine chains, frames, deques), and CPython 3.11 stops the
world to scan all of them on every full collection; at a thousand tables that is most
of a second, during which the event loop and every table with it stand still
(docs/bench.md, *Server*).

`keep_collections_short()` moves whatever has survived so far into the permanent
generation every few seconds (`gc.freeze()`, O(1)), so a full collection only scans
objects made since. Objects freed by reference counting (nearly all: a closed
connection is) still go at once; only reference cycles among frozen objects wait,
until the hourly `gc.unfreeze()` hands everything back to one ordinary full
collection.

Meanwhile the youngest generation is collected after 50,000 allocations instead of
CPython's 700, so that a burst of connections does not trigger full collections one
after another; under a steady load the time spent collecting is about the same either
way (figures: docs/deploy.md).
"""

from __future__ import annotations

import asyncio
import gc
import time

FREEZE_EVERY = 5.0  # seconds
SWEEP_EVERY = 3600.0  # seconds: then one ordinary full collection reclaims frozen cycles
# the youngest generation is collected after this many allocations (CPython: 700)
YOUNG_THRESHOLD = 50_000


async def keep_collections_short(
    freeze_every: float = FREEZE_EVERY, sweep_every: float = SWEEP_EVERY
) -> None:
    """Run until cancelled; then everything is unfrozen again and the thresholds are
    CPython's own."""
    swept = time.monotonic()
    thresholds = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, *thresholds[1:])
    try:
        while True:
            await asyncio.sleep(freeze_every)
            if time.monotonic() - swept >= sweep_every:
                gc.unfreeze()
                swept = time.monotonic()
            else:
                gc.freeze()
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()
