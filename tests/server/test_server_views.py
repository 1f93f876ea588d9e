"""A view's game part is the engine's `state.view(seat)`, byte for byte, although the
server keeps each viewer's history encoded and adds only the new entries each move."""

from __future__ import annotations

import random

import coup
from coup.server.protocol import dumps
from coup.server.table import GameRun, Table
from coup.server.views import game_texts

SEATS: list[int | None] = [None, 0, 1, 2, 3, 4, 5]


def _table(state: coup.State, number: int = 1) -> Table:
    table = Table("t", {}, [None] * 6)
    table.run = GameRun(number, state, {}, [f"m{i}" for i in range(6)], [], [], 1)
    return table


def _engine(state: coup.State) -> dict[int | None, str]:
    return {seat: dumps(state.view(seat)) for seat in SEATS}


def test_every_seat_reads_the_engine_view_at_every_move_of_whole_games() -> None:
    for seed, reformation in [(1, False), (2, False), (3, True), (4, True)]:
        rng = random.Random(seed)
        state = coup.new_game(6, seed=seed, reformation=reformation)
        table = _table(state)
        positions = 0
        while True:
            assert game_texts(table, set(SEATS)) == _engine(state)
            if state.history:  # kept for the next move
                assert table.history_texts.texts[0][0] == len(state.history)
            positions += 1
            if state.over:
                break
            nxt = state.clone()  # as the service plays a move: on a copy, then swapped in
            seat = nxt.waiting[0]
            nxt.play(seat, rng.choice(nxt.legal(seat)))
            state = nxt
            table.run = GameRun(1, state, {}, table.run.members, [], [], positions)
        assert positions > 10


def test_a_new_game_or_a_state_read_again_is_encoded_anew() -> None:
    rng = random.Random(7)
    state = coup.new_game(6, seed=7)
    for _ in range(30):
        seat = state.waiting[0]
        state.play(seat, rng.choice(state.legal(seat)))
    table = _table(state)
    assert game_texts(table, set(SEATS)) == _engine(state)

    again = coup.replay(state.record())  # the same game rebuilt: other entry objects
    table.run = GameRun(1, again, {}, table.run.members, [], [], 2)
    assert game_texts(table, set(SEATS)) == _engine(again)

    fresh = coup.new_game(6, seed=8)  # the next game: a shorter history
    table.run = GameRun(2, fresh, {}, table.run.members, [], [], 3)
    assert game_texts(table, set(SEATS)) == _engine(fresh)
    assert game_texts(table, {0}) == {0: dumps(fresh.view(0))}
