"""The compiled core's C writer of observation vectors (``coup/envs/kernel/_observe.c``) writes,
float for float, what the cached blocks of ``coup.envs.kernel.features`` join: over random games
of every table shape and history window, every seat, copies and redrawn worlds included;
and it refuses a buffer it cannot write into, writing nothing."""

from __future__ import annotations

import os
import random

import pytest

import coup
from coup.envs.kernel import KERNEL
from coup.envs.kernel import writer as writer_module
from coup.envs.kernel.features import Features
from coup.rules.core import wants_pure

needs_writer = pytest.mark.skipif(
    writer_module.WRITER is None, reason="no C writer: the pure core joins the blocks"
)

TABLES = [
    (players, history, options)
    for players in (2, 3, 4, 6, 10)
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


@needs_writer
@pytest.mark.parametrize(("players", "history", "options"), TABLES)
def test_the_writer_writes_what_the_blocks_join(
    players: int, history: int, options: dict[str, object]
) -> None:
    features = Features(players, history, bool(options.get("reformation")))
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
                    out[:] = b"\xff" * len(out)
                    features.write(world, seat, out, 4)
                    blocks = features.observe_blocks(world, seat)
                    assert bytes(out[4:-4]) == blocks, (world.phase, seat)
                    assert out[:4] == out[-4:] == b"\xff" * 4  # nothing outside its place
                    looked += 1
            if state.over:
                break
            seat = state.waiting[0]
            state.play(seat, rng.choice(state.legal(seat)))
    assert looked > 100


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
def test_a_writer_is_made_only_for_a_layout_it_can_write() -> None:
    from coup.envs.kernel.layout import SLOT, table_size
    from coup.envs.kernel.writer import WRITER

    features = Features(3, 12)
    table = table_size(False)
    good = (3, 12, False, features.size, 19, table, features.pending_size, features.entry)
    names = (dict(SLOT), features.phases, features.action_index, features.verbs)
    sides, quiet, private = {"loyalist": 0, "reformist": 1}, ("action",), ("keep",)
    WRITER(*good, *names, sides, quiet, private)  # the layout Features uses
    with pytest.raises(ValueError, match="sizes"):
        WRITER(*good[:4], 21, *good[5:], *names, sides, quiet, private)
    with pytest.raises(ValueError, match="slots"):
        WRITER(*good, {**SLOT, "duke": 5}, *names[1:], sides, quiet, private)
    with pytest.raises(ValueError, match="verbs"):
        WRITER(*good, *names[:3], {**features.verbs, "pass": 99}, sides, quiet, private)
