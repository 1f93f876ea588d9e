"""The observation vector is written twice from one layout (``coup.envs.kernel.layout``):
by the pure-Python writer (the cached blocks of ``coup.envs.kernel.features``) and, where
the compiled kernel runs, by the C writer (``coup/envs/kernel/_observe.c``). Both write,
float for float, what the reference encoder builds from the seat's view dict
(`observation_oracle`): over random games of every table shape, 2 to 6 and 10 seats, both
variants, with and without Reformation, history windows of 0, 1 and 12 moves, every seat
at every step, copies and redrawn worlds included. The C writer refuses a buffer it cannot
write into, writing nothing, and a layout that does not fit the vector."""

from __future__ import annotations

import os
import random

import numpy as np
import pytest
from observation_oracle import encode

import coup
from coup.envs.kernel import KERNEL
from coup.envs.kernel import c_writer as writer_module
from coup.envs.kernel.features import Features
from coup.envs.kernel.layout import ALLEGIANCES, QUIET_PHASES, SLOT, Layout
from coup.rules.board import PRIVATE_VERBS
from coup.rules.core import wants_pure

needs_writer = pytest.mark.skipif(
    writer_module.WRITER is None, reason="no C writer: the pure kernel joins the blocks"
)

TABLES = [
    (players, history, options)
    for players in (2, 3, 4, 5, 6, 10)
    for history in (0, 1, 12)
    for options in (
        {},
        {"characters": "inquisitor"},
        {"reformation": True},
        {"reformation": True, "characters": "inquisitor"},
    )
]


def test_the_compiled_kernel_has_its_writer_built_from_the_source_beside_it() -> None:
    if KERNEL != "compiled" or wants_pure():
        assert Features(4, 12).writer is None  # the pure kernel: no C at all
        return
    if os.environ.get("COUP_EXPECT_COMPILED") == "1":  # make test, where a C compiler is
        from coup.envs.kernel import _observe, compiled

        assert _observe.SOURCE == compiled.PACKAGE.c_source_digest("_observe.c")
        assert Features(4, 12).writer is not None


@pytest.mark.parametrize(("players", "history", "options"), TABLES)
def test_both_writers_write_what_the_view_shows(
    players: int, history: int, options: dict[str, object]
) -> None:
    features = Features(players, history, bool(options.get("reformation")))
    layout = features.layout
    rng = random.Random(players * 100 + history)
    out = bytearray(4 * features.size + 8)
    looked = 0
    for game in range(3):
        state = coup.new_game(players=players, seed=game * 7 + players, **options)  # type: ignore[arg-type]
        while True:
            worlds = [state]
            if rng.random() < 0.1:  # another world of the same game, then a copy of this one
                worlds += [state.determinize(rng.randrange(players), rng), state.clone()]
            for world in worlds:
                for seat in range(players):
                    expected = encode(layout, world.view(seat)).tobytes()
                    assert features.observe_blocks(world, seat) == expected, (world.phase, seat)
                    if features.writer is not None:
                        out[:] = b"\xff" * len(out)
                        features.write(world, seat, out, 4)
                        assert bytes(out[4:-4]) == expected, (world.phase, seat)
                        assert out[:4] == out[-4:] == b"\xff" * 4  # nothing outside its place
                    looked += 1
            if state.over:
                break
            seat = state.waiting[0]
            state.play(seat, rng.choice(state.legal(seat)))
    assert looked > 100


def test_every_value_lies_in_the_unit_interval_and_the_fields_tile_the_vector() -> None:
    for players in (2, 4, 10):
        for reformation in (False, True):
            layout = Layout(players, 12, reformation)
            for fields, size in (
                (layout.fields, layout.size),
                (layout.seat_fields, layout.seat_size),
                (layout.entry_fields, layout.entry_size),
            ):
                assert [offset for _, offset, _ in fields] == [
                    sum(length for _, _, length in fields[:i]) for i in range(len(fields))
                ]
                assert sum(length for _, _, length in fields) == size
            state = coup.new_game(players=players, seed=players, reformation=reformation)
            vector = np.frombuffer(Features(players, 12, reformation).observe(state, 0), "f4")
            assert vector.shape == (layout.size,) and 0.0 <= vector.min() <= vector.max() <= 1.0


@needs_writer
def test_the_writer_refuses_a_buffer_it_cannot_write_into() -> None:
    features = Features(3, 12)
    state = coup.new_game(players=3, seed=1)
    size = 4 * features.size
    for target, at in ((bytearray(size - 4), 0), (bytearray(size), 4), (bytearray(size + 8), 2)):
        before = bytes(target)
        with pytest.raises(ValueError, match="no room|aligned"):
            features.write(state, 0, target, at)
        assert bytes(target) == before
    with pytest.raises(TypeError, match="bytearray"):
        features.write(state, 0, memoryview(bytearray(size)), 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no seat"):
        features.write(state, 3, bytearray(size), 0)


@needs_writer
def test_a_writer_is_made_only_for_a_layout_that_fits_the_vector() -> None:
    writer = writer_module.WRITER
    layout = Layout(3, 12)
    offsets = layout.offsets()
    names = (
        dict(SLOT),
        {name: i for i, name in enumerate(layout.phases)},
        {name: i for i, name in enumerate(layout.actions)},
        {name: i for i, name in enumerate(layout.verbs)},
        {side: i for i, side in enumerate(ALLEGIANCES)},
    )
    rest = (QUIET_PHASES, PRIVATE_VERBS)

    def make(size: int, places: dict[str, tuple[int, int]], *others: object) -> object:
        return writer(3, 12, False, size, places, *(others or names), *rest)

    make(layout.size, offsets)  # the layout the kernel uses
    wrong = {
        "a field past the end": {**offsets, "history": (layout.size - 1, offsets["history"][1])},
        "a field of another size": {**offsets, "pending.actor": (offsets["pending.actor"][0], 4)},
        "a seat field past its block": {**offsets, "seat.known": (layout.seat_size - 2, 5)},
        "an entry field past its entry": {**offsets, "entry.target": (layout.entry_size, 3)},
        "a negative offset": {**offsets, "hand": (-1, 5)},
        "a field missing": {k: v for k, v in offsets.items() if k != "loser"},
    }
    for why, places in wrong.items():
        with pytest.raises(ValueError, match="offsets"):
            make(layout.size, places)
            pytest.fail(why)
    with pytest.raises(ValueError, match="offsets"):
        make(layout.size - 1, offsets)  # the history does not fit a shorter vector
    with pytest.raises(ValueError, match="slots"):
        make(layout.size, offsets, {**SLOT, "duke": 5}, *names[1:])
    with pytest.raises(ValueError, match="verbs"):
        make(layout.size, offsets, *names[:3], {**names[3], "pass": 99}, names[4])
