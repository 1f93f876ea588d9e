"""Work done away from the server process: bot decisions and the coach's analyses.

One interface, `Workers`, and two backends chosen by the bus URL, each imported lazily:
- `memory://` (the embedded default): `pool.LocalPool`, worker processes on this machine,
  sized from its cores (`coup serve --workers N`);
- `redis://...`: `queue.RedisWorkers`, a job queue on Redis that `coup worker --bus
  redis://...` processes take jobs from, on any machine, for every server process.

What a job carries and what a worker runs is in `jobs.py`; the counters in `meter.py`.
"""

from __future__ import annotations

from typing import Any, Protocol

from coup.work.jobs import Answer, Decision

__all__ = ["Answer", "Decision", "Workers", "connect"]


class Workers(Protocol):
    """Where bot decisions and coach steps run (the server's only way to them)."""

    async def start(self) -> None: ...
    async def stop(self) -> None: ...

    def idle(self) -> bool:
        """A worker is free now and no decision waits (else a medium bot answers at once
        in the server: its decision costs less than sending it)."""

    async def decide(self, decision: Decision) -> Answer:
        """The decision's answer by its deadline (`move` None: not started in time).
        Raises when the worker died twice on it."""

    async def coach(self, task: str, *args: Any, asked: bool = False) -> Any:
        """One step of an analysis (`jobs.plan`, `jobs.note`); asked-for seats first."""

    def stats(self) -> dict[str, float]:
        """Counters and gauges (`meter.py`), for health and metrics."""


def connect(bus: str, *, processes: int | None = None) -> Workers:
    """The workers for a server on bus ``bus`` (its URL picks the backend)."""
    if bus.split("://", 1)[0] in ("redis", "rediss", "unix"):
        from coup.work.queue import RedisWorkers

        return RedisWorkers(bus)
    from coup.work.pool import LocalPool

    return LocalPool(processes)
