"""Rate limits shared by every server process of a site, through Redis.

With several processes behind a proxy, buckets kept per process would give a client the
documented allowance once per process ("a burst of 60" would be 120 with two). With the
Redis bus, each bucket is a small hash in Redis, refilled and taken in one Lua script
(Redis's own clock, so the processes' clocks do not matter): one round trip per request
and per websocket open, the same answers as `rate_limits.Buckets`. Keys expire once a
bucket would be full again.

If Redis does not answer, the process falls back to its own buckets (logged once per
outage): a client then gets the allowance per process, never a refusal for Redis's sake.
"""

from __future__ import annotations

import logging
import math
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from coup.server.rate_limits import Buckets, Budget

log = logging.getLogger("coup.server")

#: Takes a token from bucket KEYS[1] (burst ARGV[1], refill ARGV[2] per second, expiry
#: ARGV[3] ms); 1 if there was one.
TAKE = """
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local held = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(held[1])
local at = tonumber(held[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local ok = 0
if tokens >= 1 then
  tokens = tokens - 1
  ok = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return ok
"""


def prefix_of(url: str) -> tuple[str, str]:
    """The Redis URL without `?channel=`, and the site's key prefix (its channel)."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query)
    channel = next((v for k, v in query if k == "channel"), "coup")
    rest = urlencode([(k, v) for k, v in query if k != "channel"])
    return urlunsplit(parts._replace(query=rest)), channel


class SharedBuckets:
    """`Limiter` on Redis: the buckets of every process of the site, one per (door, key)."""

    def __init__(self, url: str, budgets: dict[str, Budget]) -> None:
        self.url, self.prefix = prefix_of(url)
        self.budgets = budgets
        self.local = Buckets(budgets)  # while Redis does not answer
        self._redis: Any = None
        self._take: Any = None
        self.failing = False

    def _client(self) -> Any:
        if self._redis is None:
            import redis.asyncio as aioredis

            self._redis = aioredis.from_url(  # type: ignore[no-untyped-call]
                self.url, socket_timeout=1.0, socket_connect_timeout=1.0
            )
            self._take = self._redis.register_script(TAKE)
        return self._take

    async def allow(self, door: str, key: str) -> bool:
        budget = self.budgets[door]
        if budget.refill <= 0:
            return True
        full_in = math.ceil(budget.burst / budget.refill * 1000) + 1000
        try:
            took = await self._client()(
                keys=[f"{self.prefix}:limits:{door}:{key}"],
                args=[budget.burst, budget.refill, full_in],
            )
        except Exception as exc:  # noqa: BLE001 - Redis away: this process's own buckets
            if not self.failing:
                log.warning("rate limits: Redis did not answer (%s); counting per process", exc)
            self.failing = True
            return self.local.take(door, key)
        if self.failing:
            log.warning("rate limits: Redis answers again; counting for the whole site")
            self.failing = False
        return bool(took)

    async def close(self) -> None:
        if self._redis is not None:
            await self._redis.aclose()
            self._redis = None
