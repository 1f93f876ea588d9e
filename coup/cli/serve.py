"""`coup serve`: run the online table (HTTP + websockets) in one process."""

from __future__ import annotations

import argparse
import logging
import os
import sys


def _delay(text: str) -> tuple[float, float]:
    parts = [float(p) for p in text.split(",")]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or min(parts) < 0 or parts[0] > parts[1]:
        raise argparse.ArgumentTypeError("use SECONDS or MIN,MAX (e.g. 0.6,1.5)")
    return parts[0], parts[1]


def _grace(text: str) -> tuple[float, float]:
    parts = [float(p) for p in text.split(",")]
    if len(parts) != 2 or min(parts) <= 0:
        raise argparse.ArgumentTypeError("use HIDDEN,SHOWN seconds (e.g. 60,30)")
    return parts[0], parts[1]


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="coup serve", description="Run the online Coup table.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (8000)")
    p.add_argument(
        "--db",
        default=os.environ.get("COUP_DB", "sqlite:///coup.db"),
        help="sqlite:///FILE or postgresql://USER@HOST/DB (env COUP_DB; sqlite:///coup.db)",
    )
    p.add_argument(
        "--bus",
        default=os.environ.get("COUP_BUS", "memory://"),
        help="memory:// or redis://HOST:PORT/DB, for several processes (env COUP_BUS; memory://)",
    )
    p.add_argument(
        "--bot-delay", type=_delay, default=(0.6, 1.5), help="bots' thinking time, MIN,MAX s"
    )
    p.add_argument(
        "--away", type=float, default=30.0, help="seconds a disconnected player is waited for"
    )
    p.add_argument(
        "--grace",
        type=_grace,
        default=(60.0, 30.0),
        help="a connected player who does not answer (no timer): seconds of grace, then "
        "seconds of a clock the others see; then the host may hand the seat to a bot (60,30)",
    )
    p.add_argument(
        "--http-rate",
        type=float,
        default=2.0,
        help="table creations/joins per second per address, after a burst of 60 (0 = no limit)",
    )
    p.add_argument(
        "--public-url",
        default=os.environ.get("COUP_PUBLIC_URL") or None,
        help="the site's address as people reach it, e.g. https://coup.example.org: the "
        "invitation's link and QR code, and the only origin POSTs and websockets may come "
        "from (env COUP_PUBLIC_URL; default: each request's own scheme and Host)",
    )
    p.add_argument(
        "--forwarded-allow-ips",
        default=os.environ.get("COUP_FORWARDED_ALLOW_IPS", "127.0.0.1,::1"),
        help="proxies trusted to name the client (X-Forwarded-For), addresses or networks "
        "separated by commas, or * (env COUP_FORWARDED_ALLOW_IPS; 127.0.0.1,::1)",
    )
    p.add_argument(
        "--no-address-limits",
        action="store_true",
        help="no limit per client address (rates, connections, websockets): only for load "
        "tests from this machine",
    )
    p.add_argument(
        "--spectators",
        type=int,
        default=100,
        help="spectators a table takes, over every process (100); more are refused",
    )
    p.add_argument(
        "--no-ws-compression",
        action="store_true",
        help="no permessage-deflate on websockets: half the memory per connection, less "
        "CPU, more bytes (for many tables; docs/deploy.md)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=int(os.environ["COUP_WORKERS"]) if os.environ.get("COUP_WORKERS") else None,
        help="bot worker processes on this machine with the memory bus (env COUP_WORKERS; "
        "one per core but one); with Redis, `coup worker` processes do the bots' work",
    )
    p.add_argument("--log-level", default="warning", help="uvicorn log level (warning)")
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    import uvicorn

    from coup.server import gate
    from coup.server.addresses import Proxies
    from coup.server.app import create_app
    from coup.server.origin import public_origin
    from coup.server.protocol import MAX_WS_FRAME

    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(message)s")
    try:
        from coup.bus import BACKENDS
        from coup.store import sqlite_lock
        from coup.store.sql import engine_url

        engine_url(args.db)
        held = sqlite_lock.hold(args.db)  # kept for as long as this process serves
        if args.bus.split("://", 1)[0] not in BACKENDS:
            raise ValueError(f"unsupported bus URL {args.bus!r} (use memory:// or redis://...)")
        proxies = Proxies(args.forwarded_allow_ips)
        if args.public_url:
            public_origin(args.public_url)
        limit = 0 if args.no_address_limits else gate.CONNECTIONS_PER_ADDRESS
        app = create_app(
            args.db,
            args.bus,
            bot_delay=args.bot_delay,
            away_seconds=args.away,
            grace=args.grace,
            http_rate=args.http_rate,
            address_limits=not args.no_address_limits,
            public_url=args.public_url,
            short_collections=True,
            spectators=args.spectators,
            workers=args.workers,
        )
    except ValueError as exc:
        print(f"coup serve: {exc}", file=sys.stderr)
        return 2
    config = uvicorn.Config(
        app,
        host=args.host,
        port=args.port,
        ws_max_size=MAX_WS_FRAME,
        # uvicorn's httptools and sans-I/O websockets (the cheapest of its three per
        # message, and the one `server/wire.py` writes frames to directly), pinging only
        # quiet sockets, behind the gate: connections per address, time limits
        **gate.settings(gate.Gate(proxies, limit)),
        ws_per_message_deflate=not args.no_ws_compression,
        log_level=args.log_level,
        lifespan="on",
    )
    server = uvicorn.Server(config)
    shown = args.host if ":" not in args.host else f"[{args.host}]"
    print(f"Coup is at http://{shown}:{args.port}/  (database {args.db})", flush=True)
    server.run()
    if held is not None:
        held.close()
    return 0 if server.started else 1
