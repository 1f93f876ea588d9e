"""Rate limits per client address: a token bucket per (door, address key), kept in a
bounded table that forgets the least recently used.

The doors (`BUDGETS`): `post` (table creations, joins, record uploads), `get` (the API's
reads and the pages; not `/static` nor `/healthz`), `socket` (websocket opens) and
`profile` (a profile's ceremonies: making one, signing in, a second device's link; they
count against `post` too). An
address is counted by `addresses.address_key` (an IPv6 client by its /64).

`Limiter` is what the app asks; `Buckets` keeps the buckets in this process. A limiter
shared by several processes (the store, Redis) only has to answer `allow` the same way.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Protocol

#: Buckets kept per door; past it the least recently used is forgotten (a forgotten
#: bucket comes back full: only an address idle the longest can gain by it).
BUCKETS_KEPT = 50_000


@dataclass(frozen=True)
class Budget:
    """A bucket of `burst` tokens, refilled at `refill` per second (0: no limit)."""

    burst: int
    refill: float


#: The default budgets per address (`coup serve --http-rate` sets `post`'s refill).
BUDGETS: dict[str, Budget] = {
    "post": Budget(60, 2.0),
    "get": Budget(120, 20.0),
    "socket": Budget(40, 2.0),
    "profile": Budget(20, 0.1),  # a profile made, a sign-in, a link: 20, then one per 10 s
}


class Limiter(Protocol):
    """May one more request come through `door` from the client counted as `key`?"""

    async def allow(self, door: str, key: str) -> bool: ...


class Buckets:
    """This process's buckets: `BUCKETS_KEPT` per door at most, least recently used out."""

    def __init__(self, budgets: dict[str, Budget], kept: int = BUCKETS_KEPT) -> None:
        self.budgets = budgets
        self.kept = kept
        self.doors: dict[str, OrderedDict[str, list[float]]] = {d: OrderedDict() for d in budgets}

    async def allow(self, door: str, key: str) -> bool:
        return self.take(door, key)

    def take(self, door: str, key: str, now: float | None = None) -> bool:
        budget = self.budgets[door]
        if budget.refill <= 0:
            return True
        now = time.monotonic() if now is None else now
        buckets = self.doors[door]
        bucket = buckets.get(key)
        if bucket is None:
            bucket = buckets[key] = [float(budget.burst), now]
            while len(buckets) > self.kept:
                buckets.popitem(last=False)
        else:
            buckets.move_to_end(key)
            bucket[0] = min(budget.burst, bucket[0] + (now - bucket[1]) * budget.refill)
            bucket[1] = now
        if bucket[0] >= 1:
            bucket[0] -= 1
            return True
        return False
