"""`GET /metrics`: this process in Prometheus's text format, through the
`prometheus-client` library (docs/deploy.md, *What to watch*).

Each app has its own registry (several apps may live in one test process). What it says:
tables held and websockets open (gauges, read at scrape time), moves played and their
latency (a histogram of the time from a move's arrival to its views sent, through the
table service's dealer), store and bus errors, rate-limit refusals by door, the bot
decisions waiting and the coach's queue.

Only the addresses `--metrics-allow-ips` names may read it (loopback unless set): the
figures are not secret, but they are nobody else's business and cost a little to make.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from coup.server.addresses import Proxies

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
#: A move's latency buckets (seconds): from a fast SQLite move to a stalled database.
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class _Gauges(Collector):
    """The gauges read when scraped: `read()` gives {name: (help, value)}."""

    def __init__(self, read: Callable[[], dict[str, tuple[str, float]]]) -> None:
        self.read = read

    def collect(self) -> Iterator[GaugeMetricFamily]:
        for name, (text, value) in self.read().items():
            yield GaugeMetricFamily(name, text, value=value)


class Metrics:
    """The counters the app and the service feed, and the gauges read from them."""

    def __init__(self, allow: str = "127.0.0.1,::1") -> None:
        self.allowed = Proxies(allow)
        self.registry = CollectorRegistry(auto_describe=True)
        self.moves = Counter(
            "coup_moves", "Moves played (players', timers' and bots'); rate() gives moves/s",
            registry=self.registry,
        )  # fmt: skip
        self.move_seconds = Histogram(
            "coup_move_seconds", "From a move's arrival to its views sent",
            buckets=LATENCY_BUCKETS, registry=self.registry,
        )  # fmt: skip
        self.errors = Counter(
            "coup_backend_errors", "Failures of the database (store) or Redis (bus)",
            ["backend"], registry=self.registry,
        )  # fmt: skip
        self.refused = Counter(
            "coup_rate_limited", "Requests and websocket opens refused by a rate limit",
            ["door"], registry=self.registry,
        )  # fmt: skip
        for backend in ("store", "bus"):
            self.errors.labels(backend)
        for door in ("post", "get", "socket"):
            self.refused.labels(door)
        self.gauges: dict[str, tuple[str, Callable[[], float]]] = {}
        self.registry.register(_Gauges(self._gauges))

    def gauge(self, name: str, text: str, read: Callable[[], float]) -> None:
        """A gauge `name` whose value `read()` gives at each scrape."""
        self.gauges[name] = (text, read)

    def _gauges(self) -> dict[str, tuple[str, float]]:
        out: dict[str, tuple[str, float]] = {}
        for name, (text, read) in self.gauges.items():
            try:
                out[name] = (text, float(read()))
            except Exception:  # noqa: BLE001, S112 - a part not started yet: left out
                continue
        return out

    def backend_error(self, backend: str) -> None:
        self.errors.labels(backend).inc()

    def rate_limited(self, door: str) -> None:
        self.refused.labels(door).inc()

    def time_moves(self, dealer: Any) -> None:
        """Count and time every move `dealer.play` plays (the service's one move path)."""
        play = dealer.play

        @functools.wraps(play)
        async def timed(*args: Any, **kwargs: Any) -> None:
            began = time.perf_counter()
            await play(*args, **kwargs)
            self.move_seconds.observe(time.perf_counter() - began)
            self.moves.inc()

        setattr(dealer, "play", timed)  # noqa: B010 - an instance's method, wrapped

    async def answer(self, request: Request) -> Response:
        client = request.scope.get("client")
        if not self.allowed.trusted(client[0] if client else None):
            error = {"code": "forbidden", "message": "metrics are not for this address"}
            return JSONResponse({"error": error}, 403)
        return Response(generate_latest(self.registry), media_type=CONTENT_TYPE)
