"""A move's path through the server's files: `python tests/server/move_path.py [--all]
[--race]`.

Builds the app (`create_app`, SQLite in a temporary folder, the memory bus with one more
listener, so that a change is told as it is to other processes), seats three players and a
spectator on ASGI websockets driven in this process, starts a game, and traces one move from
the moment its frame is read to the moment every socket was sent the view that shows it.
`--race`: on PostgreSQL (`COUP_TEST_POSTGRES`), where another process wrote to the table
just before, unheard: the move's write conflicts, the table catches up, the move runs again.

The trace is the order in which functions of `coup/server` are first entered (each once: a
loop over the seats is not a longer path; a coroutine resumed after an await is not entered
again; other packages are not rooms: a call into the engine, the store or the bus counts
for the caller's file). A *stay* is a run of entries in one
file; a *return* is a stay in a file already left. It is counted twice: over every file,
and taking `table.py` (the table, handed along the whole path) and `protocol.py` (`now_ms`,
`dumps`) as carried along rather than as places the move goes to. `--all` prints every
function entered, not only the first of each stay.
"""

from __future__ import annotations

import asyncio
import dis
import json
import os
import sys
import tempfile
from pathlib import Path
from types import FrameType
from typing import Any

import httpx

import coup.server
from coup.bus.memory import MemoryBus
from coup.server.app import create_app
from coup.server.hub import Hub
from coup.server.service import TableService
from coup.store import open_store

INLINE = {"<listcomp>", "<dictcomp>", "<setcomp>", "<genexpr>"}
SERVER = str(Path(coup.server.__file__).parent) + "/"  # the tree imported (PYTHONPATH)


def _entered(frame: FrameType) -> bool:
    """The frame starts its function (a `RESUME 0`), rather than going on after an await."""
    code, at = frame.f_code.co_code, frame.f_lasti
    return at < 0 or (dis.opname[code[at]] == "RESUME" and code[at + 1] == 0)


class Trace:
    def __init__(self) -> None:
        self.entries: list[tuple[str, str]] = []  # (file, function)
        self._entered: set[tuple[str, str]] = set()

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or not frame.f_code.co_filename.startswith(SERVER):
            return
        if not _entered(frame):
            return  # a coroutine resumed (also one begun before the trace)
        if frame.f_code.co_name in INLINE:
            return  # part of the function it is written in (Python 3.12 inlines them)
        entry = (frame.f_code.co_filename[len(SERVER) :], frame.f_code.co_qualname)
        if entry not in self._entered:  # each function once: a loop is not a path
            self._entered.add(entry)
            self.entries.append(entry)

    def stays(self) -> list[tuple[str, list[str]]]:
        out: list[tuple[str, list[str]]] = []
        for file, function in self.entries:
            if out and out[-1][0] == file:
                out[-1][1].append(function)
            else:
                out.append((file, [function]))
        return out


class Socket:
    """One ASGI websocket of the app, driven from here."""

    def __init__(self, app: Any, table: str, token: str | None) -> None:
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.versions: list[int] = []
        self.seen = asyncio.Event()
        self.on_read: Any = None  # called as the next client frame is read
        self.on_view: Any = None  # called with each view's version
        scope = {"type": "websocket", "path": f"/ws/{table}", "raw_path": f"/ws/{table}".encode(),
                 "query_string": b"", "headers": [], "scheme": "ws", "server": ("127.0.0.1", 80),
                 "client": ("127.0.0.1", 1), "subprotocols": [], "root_path": "", "state": {},
                 "asgi": {"version": "3.0"}}  # fmt: skip
        self.inbox.put_nowait({"type": "websocket.connect"})
        self.send({"type": "hello", "token": token})
        self.last: dict[str, Any] = {}
        self.task = asyncio.create_task(app(scope, self._receive, self._send))

    def send(self, message: dict[str, Any]) -> None:
        self.inbox.put_nowait({"type": "websocket.receive", "text": json.dumps(message)})

    async def _receive(self) -> dict[str, Any]:
        message = await self.inbox.get()
        if self.on_read is not None and message["type"] == "websocket.receive":
            self.on_read()
            self.on_read = None
        return message

    async def _send(self, message: dict[str, Any]) -> None:
        if message["type"] != "websocket.send":
            return
        data = json.loads(message["text"])
        if data.get("type") == "view":
            self.last = data
            self.versions.append(data["version"])
            if self.on_view is not None:
                self.on_view(data["version"])
            self.seen.set()

    async def view(self, test: Any) -> dict[str, Any]:
        while not test(self.last):
            self.seen.clear()
            await asyncio.wait_for(self.seen.wait(), 10)
        return self.last


async def lose_a_race(db: str, table_id: str) -> None:
    """Another process (its own bus: this one does not hear of it) writes to the table
    first: the move's write then conflicts, the table catches up and the move runs again."""
    store = await open_store(db)
    other = TableService(store, MemoryBus(), Hub())
    await other.start()
    table = await other.get(table_id)
    assert table is not None and table.seats[0] is not None
    await other.chat(table, table.seats[0].member, "first")
    await other.stop()
    await store.close()


async def trace_one_move(race: bool) -> Trace:
    if race:
        db = os.environ.get("COUP_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
    else:
        db = f"sqlite:///{tempfile.mkdtemp(prefix='coup-move-path-')}/coup.db"
    app = create_app(db, "memory://", http_rate=0)
    async with app.router.lifespan_context(app):

        async def elsewhere(table_id: str, message: str) -> None:
            return None  # another process: the change is told on the bus

        app.state.service.bus.listen(elsewhere)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            settings = {"seats": 3, "reaction_timer": 0, "turn_timer": 0}
            made = (
                await http.post("/api/tables", json={"name": "Host", "settings": settings})
            ).json()
            table, tokens = made["table"], [made["token"]]
            for name in ("Sara", "Dara"):
                joined = await http.post(f"/api/tables/{table}/seats", json={"name": name})
                tokens.append(joined.json()["token"])
        sockets = [Socket(app, table, token) for token in [*tokens, None]]
        for s in sockets:
            await s.view(lambda v: bool(v))
        sockets[0].send({"type": "start"})
        views = [await s.view(lambda v: v.get("game") is not None) for s in sockets]
        seat = views[0]["game"]["waiting"][0]
        version = views[0]["version"]
        mover = sockets[seat]
        await asyncio.sleep(0.1)  # the connections settle (presence, spectators)
        if race:
            await lose_a_race(db, table)

        trace = Trace()
        done = asyncio.Event()
        shown: set[int] = set()

        def start() -> None:
            sys.setprofile(trace)

        def stop_when_all_shown(k: int) -> Any:
            def seen(v: int) -> None:
                if v > version:
                    shown.add(k)
                if len(shown) == len(sockets):
                    sys.setprofile(None)
                    done.set()

            return seen

        for k, s in enumerate(sockets):
            s.on_view = stop_when_all_shown(k)
        mover.on_read = start
        mover.send({"type": "move", "move": "income", "version": version})
        await asyncio.wait_for(done.wait(), 10)
        sys.setprofile(None)
        for s in sockets:
            s.inbox.put_nowait({"type": "websocket.disconnect", "code": 1000})
        await asyncio.gather(*(s.task for s in sockets), return_exceptions=True)
    return trace


CARRIED = ("table.py", "protocol.py")  # the table handed along, the wire's words


def summary(stays: list[tuple[str, list[str]]], leave_out: tuple[str, ...] = ()) -> str:
    files: list[str] = []
    for file, _ in stays:
        if file not in leave_out and (not files or files[-1] != file):
            files.append(file)
    returns: dict[str, int] = {}
    for k, file in enumerate(files):
        if file in files[:k]:
            returns[file] = returns.get(file, 0) + 1
    ranked = dict(sorted(returns.items(), key=lambda kv: -kv[1]))
    return (f"{len(files)} stays in {len(set(files))} files; {sum(returns.values())} returns "
            f"to a file already left: {ranked}")  # fmt: skip


def main() -> None:
    stays = asyncio.run(trace_one_move("--race" in sys.argv)).stays()
    before: set[str] = set()
    for k, (file, functions) in enumerate(stays):
        shown = ", ".join(functions) if "--all" in sys.argv else functions[0]
        print(f"{k + 1:3}  {file:<18} {shown}{'  (again)' if file in before else ''}")
        before.add(file)
    print(f"\nevery file of coup/server: {summary(stays)}")
    print(f"{' and '.join(CARRIED)} taken as carried along: {summary(stays, CARRIED)}")


if __name__ == "__main__":
    main()
