"""The workers' counters, as health and metrics show them: a plain dict of numbers.

`decisions` (bot decisions answered by a worker), `reduced` (of them, searched with less
than the full budget), `steps` (the hard bots' playout steps searched: the work done), `expired` (not started before their deadline), `retries` and
`deaths` (workers that died mid-job and the jobs run again), `decisions_per_second`
over the last `WINDOW` seconds; the pool or queue adds its gauges (waiting jobs, worker
processes, busy ones). Counters only grow, so an exporter can take them as they are.
"""

from __future__ import annotations

import time
from collections import deque

from coup.work.jobs import Answer

#: Seconds over which decisions per second are counted.
WINDOW = 10.0
COUNTERS = ("decisions", "reduced", "steps", "expired", "retries", "deaths", "failed")


class Meter:
    def __init__(self) -> None:
        self.counts: dict[str, int] = dict.fromkeys(COUNTERS, 0)
        self._recent: deque[float] = deque()

    def count(self, name: str, n: int = 1) -> None:
        self.counts[name] = self.counts.get(name, 0) + n

    def answered(self, answer: Answer) -> None:
        if answer.move is None:
            return
        self.counts["decisions"] += 1
        self.counts["reduced"] += int(answer.reduced)
        self.counts["steps"] += answer.steps
        now = time.monotonic()
        self._recent.append(now)
        while self._recent and self._recent[0] < now - WINDOW:
            self._recent.popleft()

    def rate(self) -> float:
        now = time.monotonic()
        while self._recent and self._recent[0] < now - WINDOW:
            self._recent.popleft()
        return round(len(self._recent) / WINDOW, 2)

    def stats(self, **gauges: float) -> dict[str, float]:
        return {**self.counts, "decisions_per_second": self.rate(), **gauges}
