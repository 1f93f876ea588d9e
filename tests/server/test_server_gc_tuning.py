"""coup/server/gc_tuning.py: survivors are frozen between collections, and given back."""

from __future__ import annotations

import asyncio
import contextlib
import gc

from coup.server import gc_tuning


async def test_freezes_survivors_then_unfreezes_when_stopped() -> None:
    kept = [[i] for i in range(1000)]  # tracked, alive
    task = asyncio.create_task(gc_tuning.keep_collections_short(freeze_every=0.01))
    try:
        for _ in range(200):
            await asyncio.sleep(0.01)
            if gc.get_freeze_count() >= len(kept):
                break
        assert gc.get_freeze_count() >= len(kept)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    assert gc.get_freeze_count() == 0
    assert len(kept) == 1000


async def test_the_sweep_unfreezes_so_frozen_cycles_are_collected() -> None:
    task = asyncio.create_task(gc_tuning.keep_collections_short(freeze_every=0.01, sweep_every=0.0))
    try:
        gc.freeze()
        for _ in range(200):
            await asyncio.sleep(0.01)
            if gc.get_freeze_count() == 0:
                break
        assert gc.get_freeze_count() == 0  # every round is a sweep here
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def test_the_youngest_generation_waits_longer_then_thresholds_come_back() -> None:
    before = gc.get_threshold()
    task = asyncio.create_task(gc_tuning.keep_collections_short(freeze_every=10.0))
    try:
        await asyncio.sleep(0)
        assert gc.get_threshold() == (gc_tuning.YOUNG_THRESHOLD, *before[1:])
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    assert gc.get_threshold() == before
