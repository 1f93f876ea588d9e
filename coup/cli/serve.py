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
        "invitation's link and QR code, the only origin POSTs and websockets may come "
        "from, and the passkeys' relying party (its host) (env COUP_PUBLIC_URL; default: "
        "each request's own scheme and Host)",
    )
    p.add_argument(
        "--leaderboard-games",
        type=int,
        default=5,
        help="games a profile has played before the leaderboard lists it (5)",
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
    deflate = p.add_mutually_exclusive_group()
    deflate.add_argument(
        "--ws-compression",
        dest="ws_compression",
        action="store_true",
        default=False,
        help="permessage-deflate on websockets, without context takeover: about a quarter of "
        "the bytes, more CPU per view (off by default: docs/bench.md)",
    )
    deflate.add_argument(
        "--no-ws-compression",
        dest="ws_compression",
        action="store_false",
        help="no permessage-deflate (the default; kept for scripts that say it)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=int(os.environ["COUP_WORKERS"]) if os.environ.get("COUP_WORKERS") else None,
        help="bot worker processes on this machine with the memory bus (env COUP_WORKERS; "
        "one per core but one); with Redis, `coup worker` processes do the bots' work",
    )
    p.add_argument("--log-level", default="warning", help="uvicorn log level (warning)")
    _operations(p)
    return p


def _operations(p: argparse.ArgumentParser) -> None:
    """Options for running it as a service (docs/deploy.md)."""
    from coup.cli.logs import FORMATS

    p.add_argument(
        "--env-file",
        metavar="FILE",
        help="read COUP_* settings (COUP_DB=..., one a line) from FILE (env COUP_ENV_FILE); "
        "a variable already set wins; keeps passwords off the command line",
    )
    p.add_argument(
        "--metrics-allow-ips",
        default=os.environ.get("COUP_METRICS_ALLOW_IPS", "127.0.0.1,::1"),
        help="addresses or networks GET /metrics answers, separated by commas, or * "
        "(env COUP_METRICS_ALLOW_IPS; 127.0.0.1,::1)",
    )
    p.add_argument(
        "--log-format",
        choices=FORMATS,
        default=os.environ.get("COUP_LOG_FORMAT", "text"),
        help="one line per event, as text or JSON (env COUP_LOG_FORMAT; text)",
    )


def read_env_file(argv: list[str]) -> None:
    """`--env-file FILE` (or env COUP_ENV_FILE): its `KEY=VALUE` lines into the
    environment (a variable already set wins), before the options read their defaults."""
    path = os.environ.get("COUP_ENV_FILE")
    for i, arg in enumerate(argv):
        if arg == "--env-file" and i + 1 < len(argv):
            path = argv[i + 1]
        elif arg.startswith("--env-file="):
            path = arg.split("=", 1)[1]
    if not path:
        return
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as exc:
        raise SystemExit(f"coup: cannot read --env-file {path}: {exc.strerror}") from None
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.removeprefix("export ").partition("=")
        if not sep or not key.strip().isidentifier():
            raise SystemExit(f"coup: {path}:{number}: not KEY=VALUE")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        os.environ.setdefault(key.strip(), value)


def _schema_ready(db: str) -> None:
    """Create or upgrade the schema before serving (the app's start does it again, at no
    cost): a database this Coup may not run on (`coup/store/migrate.py`: a newer Coup's,
    contracted) stops the start with one line, not uvicorn's traceback."""
    import asyncio

    from coup.store import open_store
    from coup.store.migrate import SchemaError

    async def check() -> None:
        store = await open_store(db)
        await store.close()

    try:
        asyncio.run(check())
    except SchemaError as exc:
        raise ValueError(str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - unreachable, refused, no such database: one line
        from coup.store.urls import shown

        raise ValueError(f"cannot open the database {shown(db)}: {exc}") from None


def main(argv: list[str]) -> int:
    read_env_file(argv)
    args = parser().parse_args(argv)
    import uvicorn

    from coup.cli import logs
    from coup.server import gate, shutdown
    from coup.server.addresses import Proxies
    from coup.server.app import create_app
    from coup.server.origin import public_origin
    from coup.server.protocol import MAX_WS_FRAME
    from coup.store.urls import shown

    logs.configure(args.log_format, logging.WARNING)
    try:
        from coup.bus import BACKENDS
        from coup.store import sqlite_lock
        from coup.store.sql import engine_url

        engine_url(args.db)
        held = sqlite_lock.hold(args.db)  # kept for as long as this process serves
        if args.bus.split("://", 1)[0] not in BACKENDS:
            raise ValueError(
                f"unsupported bus URL {shown(args.bus)!r} (use memory://, redis:// or rediss://)"
            )
        proxies = Proxies(args.forwarded_allow_ips)
        Proxies(args.metrics_allow_ips)
        if args.public_url:
            public_origin(args.public_url)
        _schema_ready(args.db)
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
            metrics_allow=args.metrics_allow_ips,
            leaderboard_games=args.leaderboard_games,
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
        ws_per_message_deflate=args.ws_compression,
        log_level=args.log_level,
        log_config=None,  # uvicorn's lines through `logs.configure`'s handler
        lifespan="on",
        **shutdown.settings(),
    )
    server = shutdown.Server(config, app.state.hub)  # 1001 to every socket on SIGTERM
    host = args.host if ":" not in args.host else f"[{args.host}]"
    print(f"Coup is at http://{host}:{args.port}/  (database {shown(args.db)})", flush=True)
    server.run()
    if held is not None:
        held.close()
    return 0 if server.started else 1
