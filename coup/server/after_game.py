"""The HTTP routes for after the game (docs/protocol.md, *After the game*): a finished
game's replay and story, the coach's notes, the table's scoreboard, and replaying an
uploaded record. A running game's replay and coach are refused: the hands, the Court and
the seed stay secret until the end. Replays are made by the replay process
(`replay_worker.py`), never on the event loop.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from coup.server.protocol import ProtocolError, path_number
from coup.server.replay_job import MAX_RECORD
from coup.server.table import Table

if TYPE_CHECKING:
    from coup.server.coach import Coach

#: Finished games' replays kept in memory (they never change): at most this many ...
CACHED = 32
#: ... and at most this many bytes of them.
CACHED_BYTES = 32 * 1024 * 1024

Read = Callable[[Request, int], Awaitable[bytes]]
Find = Callable[[str], Awaitable[Table]]


class Replays(Protocol):
    """The replay process, as these routes see it (`replay_worker.ReplayWorker`)."""

    async def uploaded(self, raw: bytes) -> bytes: ...
    async def finished(self, record: dict[str, Any], table: str, game: int) -> bytes: ...


class Games(Protocol):
    """The table service, as these routes see it (`service.TableService`)."""

    async def record(self, table: Table, number: int) -> dict[str, Any]: ...
    async def scoreboard(self, table: Table) -> dict[str, Any]: ...


def _error(exc: ProtocolError) -> JSONResponse:
    return JSONResponse({"error": {"code": exc.code, "message": exc.message}}, exc.status)


def routes(
    service: Callable[[], Games],
    coach: Callable[[], Coach],
    replays: Callable[[], Replays],
    read: Read,
    find: Find,
) -> list[Route]:
    cache: OrderedDict[tuple[str, int], bytes] = OrderedDict()

    async def game_of(request: Request) -> tuple[Table, int]:
        """The table and the game number; 404 unless the table has played that game."""
        table = await find(request.path_params["table"])
        number = path_number(request.path_params["game"], table.games)
        if number is None or number < 1:
            raise ProtocolError("no_game", "no such game at this table", 404)
        return table, number

    async def finished(request: Request) -> tuple[Table, int, dict[str, Any]]:
        """The table, the game number and its record; 404/409 unless it is over."""
        table, number = await game_of(request)
        return table, number, await service().record(table, number)

    async def game_replay(request: Request) -> Response:
        try:
            table, number = await game_of(request)
            key = (table.id, number)
            data = cache.get(key)  # only a finished game's replay is ever kept
            if data is None:
                record = await service().record(table, number)
                data = await replays().finished(record, table.id, number)
                cache[key] = data
                while len(cache) > CACHED or sum(map(len, cache.values())) > CACHED_BYTES:
                    cache.popitem(last=False)
        except ProtocolError as exc:
            return _error(exc)
        if key in cache:
            cache.move_to_end(key)
        return Response(data, media_type="application/json")

    async def game_coach(request: Request) -> Response:
        try:
            table, number, record = await finished(request)
            seat = path_number(request.path_params["seat"], len(record["players"]) - 1)
            if seat is None:
                raise ProtocolError("bad_seat", "no such seat in this game", 404)
            status = await coach().ask(table.id, number, seat)
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
            data = await replays().uploaded(await read(request, MAX_RECORD))
        except ProtocolError as exc:
            return _error(exc)
        return Response(data, media_type="application/json")

    return [
        Route("/api/tables/{table}/games/{game}/replay", game_replay),
        Route("/api/tables/{table}/games/{game}/coach", game_coaches),
        Route("/api/tables/{table}/games/{game}/coach/{seat}", game_coach),
        Route("/api/tables/{table}/scoreboard", table_scoreboard),
        Route("/api/replay", replay_upload, methods=["POST"]),
    ]
