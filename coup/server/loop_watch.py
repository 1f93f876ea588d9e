"""How long the event loop was held: a tick every `TICK` seconds, and a warning in the
server's log when one came more than `HELD_WARN` late *because this process was busy*.

A tick that comes late says the loop could not run it: some callback (or a thread holding
the interpreter's lock) kept it. On a machine shared with other work the process may also
simply not have been scheduled, which says nothing about the server. So the time a tick
was held counts only what this process computed meanwhile: the smaller of the wall time
and the process's CPU time (every thread's) since the tick before, less the tick itself.
A replay computed on the loop shows here; a busy neighbour does not.

`docs/deploy.md` (*What to watch*) names the warning; the tests read it back.
"""

from __future__ import annotations

import asyncio
import logging
import time

log = logging.getLogger("coup.server")

#: Seconds between ticks.
TICK = 0.02
#: A tick held longer than this (seconds of this process's work) is logged as a warning.
HELD_WARN = 0.05


class LoopWatch:
    """The longest time the loop was held since the start (`longest`, seconds)."""

    def __init__(self, tick: float = TICK, warn: float = HELD_WARN) -> None:
        self.tick = tick
        self.warn = warn
        self.longest = 0.0
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._watch())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except asyncio.CancelledError:
                pass
            self.task = None

    def held(self, wall: float, cpu: float) -> float:
        """The time the loop was held over a tick that took `wall` seconds, in which the
        process computed `cpu` seconds; logged when over `warn`."""
        held = max(0.0, min(wall, cpu) - self.tick)
        self.longest = max(self.longest, held)
        if held > self.warn:
            late = (wall - self.tick) * 1000
            log.warning("the event loop was held %.0f ms (a tick %.0f ms late)", held * 1000, late)
        return held

    async def _watch(self) -> None:
        wall, cpu = time.monotonic(), time.process_time()
        while True:
            await asyncio.sleep(self.tick)
            now_wall, now_cpu = time.monotonic(), time.process_time()
            self.held(now_wall - wall, now_cpu - cpu)
            wall, cpu = now_wall, now_cpu
