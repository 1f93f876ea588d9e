"""A graceful stop for `coup serve` (SIGTERM, or Ctrl-C once): the rolling restart of
docs/deploy.md.

uvicorn's own shutdown closes every websocket with 1012 ("service restart"); the
protocol's word for "this server is going, connect again" is 1001 (docs/protocol.md,
*Close codes*), which the client answers by reconnecting at once, through the proxy, to
another process. So, in order:

1. stop accepting connections (the proxy's next attempt goes to another process);
2. close every table's websocket with 1001, its last view already sent;
3. let uvicorn finish the requests in flight (a move being written completes, its
   views are sent to whoever is still connected), then run the app's shutdown.

Worker processes ignore SIGTERM and SIGINT (`coup/work/child.py`): a signal sent to the
whole process group (systemd, a terminal's Ctrl-C) stops the server, which then stops
its workers in order, rather than killing them mid-job.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from typing import Any

import uvicorn

from coup.server.protocol import Close

log = logging.getLogger("coup.server")

#: Seconds the requests in flight get to finish once the sockets are closed.
GRACE = 10.0


def settings() -> dict[str, Any]:
    """uvicorn's `Config` keywords for a graceful stop."""
    return {"timeout_graceful_shutdown": GRACE}


async def close_sockets(hub: Any) -> int:
    """Close every websocket `hub` holds with 1001 (going away); how many."""
    conns = [conn for conns in list(hub.tables.values()) for conn in list(conns)]

    async def close(conn: Any) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.ws.close(Close.GOING_AWAY), 2.0)

    await asyncio.gather(*(close(conn) for conn in conns))
    return len(conns)


class Server(uvicorn.Server):
    """uvicorn's server, stopping as the module says."""

    def __init__(self, config: uvicorn.Config, hub: Any) -> None:
        super().__init__(config)
        self.hub = hub

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:  # no new connections: the proxy tries the others
            server.close()
        for sock in sockets or []:
            sock.close()
        closed = await close_sockets(self.hub)
        log.warning("stopping: %d websockets told to reconnect elsewhere (1001)", closed)
        await super().shutdown(sockets)
