"""The HTTP routes for after the game (docs/protocol.md, *After the game*): a finished
game's replay and story, the coach's notes, the table's scoreboard, and replaying an
uploaded record. A running game's replay and coach are refused: the hands, the Court and
the seed stay secret until the end.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from coup.review.frames import replay_frames
from coup.rules import InvalidRecordError, verify
from coup.server.protocol import ProtocolError
from coup.server.table import Table

if TYPE_CHECKING:
    from coup.server.coach import Coach

#: The largest record `POST /api/replay` accepts, in bytes.
MAX_RECORD = 256 * 1024
#: Finished games' replays kept in memory (they never change).
CACHED = 32

Body = Callable[[Request, int], Awaitable[dict[str, Any]]]
Find = Callable[[str], Awaitable[Table]]


class Games(Protocol):
    """The table service, as these routes see it (`service.TableService`)."""

    async def record(self, table: Table, number: int) -> dict[str, Any]: ...
    async def scoreboard(self, table: Table) -> dict[str, Any]: ...


def _error(exc: ProtocolError) -> JSONResponse:
    return JSONResponse({"error": {"code": exc.code, "message": exc.message}}, exc.status)


def routes(
    service: Callable[[], Games], coach: Callable[[], Coach], body: Body, find: Find
) -> list[Route]:
    cache: OrderedDict[tuple[str, int], bytes] = OrderedDict()

    async def finished(request: Request) -> tuple[Table, int, dict[str, Any]]:
        """The table, the game number and its record; 404/409 unless it is over."""
        table = await find(request.path_params["table"])
        raw = request.path_params["game"]
        if not raw.isdigit() or not 1 <= int(raw) <= table.games:
            raise ProtocolError("no_game", "no such game at this table", 404)
        number = int(raw)
        return table, number, await service().record(table, number)

    async def game_replay(request: Request) -> Response:
        try:
            table, number, record = await finished(request)
        except ProtocolError as exc:
            return _error(exc)
        key = (table.id, number)
        data = cache.get(key)
        if data is None:
            reply = replay_frames(record)
            reply["table"], reply["game"] = table.id, number
            data = json.dumps(reply, separators=(",", ":")).encode()
            cache[key] = data
            while len(cache) > CACHED:
                cache.popitem(last=False)
        cache.move_to_end(key)
        return Response(data, media_type="application/json")

    async def game_coach(request: Request) -> Response:
        try:
            table, number, record = await finished(request)
            raw = request.path_params["seat"]
            if not raw.isdigit() or not 0 <= int(raw) < len(record["players"]):
                raise ProtocolError("bad_seat", "no such seat in this game", 404)
            status = await coach().ask(table.id, number, int(raw))
        except ProtocolError as exc:
            return _error(exc)
        return JSONResponse(status, 200 if status["status"] == "done" else 202)

    async def game_coaches(request: Request) -> Response:
        try:
            table, number, _ = await finished(request)
        except ProtocolError as exc:
            return _error(exc)
        return JSONResponse({"seats": await coach().seats(table.id, number)})

    async def table_scoreboard(request: Request) -> Response:
        try:
            table = await find(request.path_params["table"])
        except ProtocolError as exc:
            return _error(exc)
        return JSONResponse({"scoreboard": await service().scoreboard(table)})

    async def replay_upload(request: Request) -> Response:
        try:
            record = await body(request, MAX_RECORD)
            try:
                reply = replay_frames(record)
            except InvalidRecordError as e:
                raise ProtocolError("bad_record", str(e), 422) from None
            verified = None
            if "commitment" in record:
                ok, why = verify(record)
                if not ok:
                    raise ProtocolError("bad_record", f"not verified: {why}", 422)
                verified = True
        except ProtocolError as exc:
            return _error(exc)
        reply["verified"] = verified
        return JSONResponse(reply)

    return [
        Route("/api/tables/{table}/games/{game}/replay", game_replay),
        Route("/api/tables/{table}/games/{game}/coach", game_coaches),
        Route("/api/tables/{table}/games/{game}/coach/{seat}", game_coach),
        Route("/api/tables/{table}/scoreboard", table_scoreboard),
        Route("/api/replay", replay_upload, methods=["POST"]),
    ]
