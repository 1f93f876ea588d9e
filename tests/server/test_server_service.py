"""The table service and the timers, in-process (no sockets)."""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest

import coup
from coup.bots.window import GuardedWindow
from coup.server.hub import Connection
from coup.server.service import TableService
from coup.server.settings import REACTION_PHASES
from coup.server.timers import default_move
from tests.server.conftest import play_random


async def test_idle_tables_leave_memory_and_come_back(service: TableService) -> None:
    table, _, token = await service.create("Mahshid", {"seats": 3})
    await service.join(table, "Sepideh", 2)
    host = table.seats[0]
    assert host is not None
    await service.chat(table, host.member, "salam")
    version = table.version
    assert service.tables.evict(idle=0) == 1 and table.id not in service.tables.held
    again = await service.get(table.id)
    assert again is not None and again is not table
    assert again.version == version
    assert [s.name if s else None for s in again.seats] == ["Mahshid", None, "Sepideh"]
    assert again.member_by_token(token) == table.seats[0].member  # type: ignore[union-attr]
    assert [c["text"] for c in again.chat] == ["salam"]


def test_default_moves_follow_the_issue() -> None:
    rng = random.Random(5)
    seen: set[str] = set()
    for game in range(60):
        state = coup.new_game(
            players=rng.randint(2, 6),
            seed=rng.randrange(2**64),
            characters=rng.choice(["ambassador", "inquisitor"]),
        )
        while not state.over:
            for seat in state.waiting:
                move = default_move(state, seat)
                legal = [str(m) for m in state.legal(seat)]
                assert move in legal
                phase = str(state.phase)
                seen.add(phase)
                if phase in REACTION_PHASES:
                    assert move == "pass"
                elif phase == "action":
                    assert move == "income" if "income" in legal else move.startswith("coup ")
                elif phase in ("lose", "prove"):
                    assert move.startswith("lose ")
                elif phase == "exchange":
                    own = state.view(seat)["players"][seat]["cards"]
                    assert sorted(move.split()[1:]) == sorted(own)
                elif phase == "examine":
                    assert move == "return"
            seat = rng.choice(state.waiting)
            state.play(seat, rng.choice(state.legal(seat)))
    assert {"action", "react", "lose", "exchange"} <= seen


class _CapturingSocket:
    def __init__(self) -> None:
        self.texts: list[str] = []

    async def send_text(self, text: str) -> None:
        self.texts.append(text)


async def test_no_leaks_in_many_more_games_in_process(service: TableService) -> None:
    """The same check as the websocket leak test, over many more games, without sockets:
    every text sent to a seat or a spectator equals the engine's view at that point."""
    rng = random.Random(99)
    for _ in range(60):
        players = rng.randint(2, 6)
        settings = {
            "seats": players,
            "characters": rng.choice(["ambassador", "inquisitor"]),
            "draft": rng.random() < 0.5,
            "reaction_timer": 0,
        }
        table, _, _ = await service.create("Host", settings)
        for seat in range(1, players):
            if rng.random() < 0.5:
                await service.add_bot(table, seat, "easy", None)
            else:
                await service.join(table, f"P{seat}", seat)
        sockets: dict[int | None, _CapturingSocket] = {}
        for seat, sitter in [*enumerate(table.seats), (None, None)]:
            sock = _CapturingSocket()
            member = sitter.member if sitter is not None and sitter.kind == "human" else None
            if sitter is not None and member is None:
                continue  # bots have no connection
            conn = Connection(sock, table.id, member)  # type: ignore[arg-type]
            service.hub.add(conn)
            conn.start()
            sockets[seat] = sock
        await service.start_game(table)
        while table.run is not None and not table.run.state.over:
            state = table.run.state
            humans = [s for s in state.waiting if s in sockets]
            if humans:
                await play_random(service, table, rng.choice(humans), rng)
            else:
                await asyncio.sleep(0.001)  # the bots' clock plays
        await asyncio.sleep(0.01)
        record = table.run.record() if table.run is not None else {}
        states = {}
        moves = record["moves"]
        for k in range(len(moves) + 1):
            replayed = coup.replay({**record, "moves": moves[:k]})
            states[len(replayed.view(None)["history"])] = replayed
        seed = str(record["seed"])
        for seat, sock in sockets.items():
            assert sock.texts
            for text in sock.texts:
                msg = json.loads(text)
                game = msg["game"]
                if game is None or not game["over"]:
                    assert seed not in text
                if game is not None:
                    expected = states[len(game["history"])].view(seat)
                    assert game == json.loads(json.dumps(expected))
        for conn in list(service.hub.of(table.id)):
            await conn.stop()
            service.hub.remove(conn)


def test_bots_get_only_their_seat() -> None:
    state = coup.new_game(players=3, seed=1)
    window = GuardedWindow(state, 1)
    assert window.view(1) == state.view(1)
    assert window.legal(1) == state.legal(1)
    for ask in (lambda: window.view(0), lambda: window.legal(2)):
        with pytest.raises(PermissionError):
            ask()
    with pytest.raises(AttributeError):
        window.record()  # type: ignore[attr-defined]


async def test_bots_of_every_level_finish_a_game(
    service: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    table, _, _ = await service.create("Host", {"seats": 4, "reaction_timer": 0})
    for seat, level in ((1, "easy"), (2, "medium"), (3, "hard")):
        await service.add_bot(table, seat, level, None)
    await service.start_game(table)
    rng = random.Random(4)
    end = time.monotonic() + 120  # the bots think in this process: slow on a busy machine
    while time.monotonic() < end:
        run = table.run
        assert run is not None
        if run.state.over:
            break
        if 0 in run.state.waiting:
            await play_random(service, table, 0, rng)
        await asyncio.sleep(0.005)
    assert table.run is not None and table.run.state.over
    assert not [r for r in caplog.records if r.levelname in ("WARNING", "ERROR")]


async def test_lookups_of_missing_tables_leave_nothing_behind(service: TableService) -> None:
    table, _, _ = await service.create("Mahshid", None)
    ids = [f"missing{i:05d}" for i in range(300)]
    found = await asyncio.gather(*(service.get(t) for t in ids + [table.id] * 3 + ids))
    assert found[300:303] == [table] * 3 and found.count(None) == 600
    assert service.tables._loading == {} and set(service.tables.held) == {table.id}
