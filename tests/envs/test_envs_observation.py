"""The observation vector: documented layout, bounded, the view's and nothing else (the
kernel's writer against the reference encoder of the view dict, `observation_oracle`)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
from observation_oracle import encode

import coup
from coup.envs.observation import ObservationEncoder


def test_fields_tile_the_vector() -> None:
    for n in (2, 4, 10):
        encoder = ObservationEncoder(n)
        assert encoder.size == 339 + 49 * n
        end = 0
        for _, offset, size in encoder.fields:
            assert offset == end
            end += size
        assert end == encoder.size
    assert ObservationEncoder(4, history=0).size == 535 - 12 * 32
    for n in (2, 4, 10):  # Reformation: documented size, fields still tile the vector
        encoder = ObservationEncoder(n, reformation=True)
        assert encoder.size == 379 + 51 * n
        assert [off for _, off, _ in encoder.fields] == [
            sum(size for _, _, size in encoder.fields[:i]) for i in range(len(encoder.fields))
        ]


def test_reformation_fields_read_back() -> None:
    state = coup.new_game(players=3, seed=5, first=1, reformation=True)
    encoder = ObservationEncoder(3, reformation=True)
    fields = encoder.split(encoder.encode_state(state, 1))
    assert fields["phase"][11] == 1.0  # allegiance, the last phase
    assert not fields["seats"].reshape(3, 21)[:, 19:].any()  # nobody has chosen yet
    state.play(1, "allegiance reformist")
    fields = encoder.split(encoder.encode_state(state, 2))  # from seat 1: R, then L, R
    sides = fields["seats"].reshape(3, 21)[:, 19:]  # viewer first: seats 2, 0, 1
    assert sides.tolist() == [[1.0, 0.0], [0.0, 1.0], [0.0, 1.0]]
    state.play(1, "convert")  # 1 coin to the Reserve: seat 1 is loyalist now
    fields = encoder.split(encoder.encode_state(state, 2))
    assert fields["reserve"][0] == np.float32(1 / 12)
    assert fields["seats"].reshape(3, 21)[2, 19:].tolist() == [1.0, 0.0]
    history = fields["history"].reshape(12, 27 + 2 * 3)
    assert history[0, 1 + 3 + 19] == 1.0 and history[1, 1 + 3 + 18] == 1.0  # convert, allegiance


def test_fast_path_equals_the_view_path_and_is_bounded(
    config: tuple[int, dict[str, object]], random_states: Callable[..., Iterator[coup.State]]
) -> None:
    players, options = config
    encoder = ObservationEncoder(players, reformation=bool(options.get("reformation")))
    for state in random_states(players, 15, seed=2, **options):
        for seat in range(players):
            slow = encode(encoder.layout, state.view(seat))
            fast = encoder.encode_state(state, seat)
            assert fast.dtype == np.float32 and fast.shape == (encoder.size,)
            np.testing.assert_array_equal(fast, slow)
            assert fast.min() >= 0.0 and fast.max() <= 1.0


def test_hidden_cards_never_reach_the_vector(
    random_states: Callable[..., Iterator[coup.State]],
) -> None:
    """Redrawing everything a seat cannot know leaves its observation unchanged."""
    encoder = ObservationEncoder(4)
    rng = random.Random(3)
    for state in random_states(4, 10, seed=3, characters="inquisitor"):
        for seat in range(4):
            other_world = state.determinize(seat, rng)
            np.testing.assert_array_equal(
                encoder.encode_state(other_world, seat), encoder.encode_state(state, seat)
            )


def test_fields_read_back() -> None:
    state = coup.new_game(players=3, seed=5)
    encoder = ObservationEncoder(3)
    seat = state.waiting[0]
    fields = encoder.split(encoder.encode_state(state, seat))
    assert fields["hand"].sum() == 1.0  # two cards, 0.5 each
    assert fields["phase"][1] == 1.0  # action
    seats = fields["seats"].reshape(3, 19)
    assert seats[0, 11] == 1.0 and seats[0, 12] == 1.0  # the viewer's turn, waiting
    assert not fields["history"].any()
    state.play(seat, "income")
    fields = encoder.split(encoder.encode_state(state, seat))
    history = fields["history"].reshape(12, 24 + 2 * 3)
    assert history[0, 0] == 1.0 and history[0, 1] == 1.0  # newest entry, moved by viewer
    assert history[0, 1 + 3 + 0] == 1.0  # verb "income"
    assert not history[1:].any()


def test_history_cache_survives_jumping_between_games(
    random_states: Callable[..., Iterator[coup.State]],
) -> None:
    """The per-seat history cache must notice a different game, an older state, a copy."""
    encoder = ObservationEncoder(4, history=5)
    rng = random.Random(6)
    seen: list[coup.State] = []
    for state in random_states(4, 12, seed=6):
        seen.append(state.clone())
        for state_now in (state, rng.choice(seen), state.determinize(0, rng)):
            seat = rng.randrange(4)
            np.testing.assert_array_equal(
                encoder.encode_state(state_now, seat), encode(encoder.layout, state_now.view(seat))
            )


def test_each_history_entry_is_looked_up_once_for_every_viewer() -> None:
    """Observing seats one after the other extends the entries kept for the game and does
    not start again (a compiled core once did, every call: it compared a re-boxed copy of
    the last entry by identity and never found it the same). The blocks are the pure core's
    path; the compiled core's C writer reads the entries itself."""
    state = coup.new_game(players=4, seed=8)
    features = ObservationEncoder(4).features
    rng = random.Random(8)
    for _ in range(6):
        seat = state.waiting[0]
        state.play(seat, rng.choice(state.legal(seat)))
    window = features.window
    features.observe_blocks(state, 0)
    oldest, kept = window.position_blocks[0], len(window.position_blocks)
    for seat in (1, 2, 3, 0):
        features.observe_blocks(state, seat)
    assert window.position_blocks[0] is oldest and len(window.position_blocks) == kept
    seat = state.waiting[0]
    state.play(seat, state.legal(seat)[0])
    features.observe_blocks(state, 2)
    assert window.position_blocks[0] is oldest and len(window.position_blocks) > kept


def test_the_documented_fields_are_the_layouts() -> None:
    """docs/learning.md and ``coup/envs/observation.py`` list the vector's fields (the base
    game's) in the layout's order, with its seat block's and history entry's fields."""
    root = Path(__file__).resolve().parents[2]
    layout = ObservationEncoder(4).layout
    names = [name for name, _offset, _size in layout.fields]
    table = re.search(
        r"\| field \| size \| meaning \|\n\|[-|]+\|\n((?:\|.*\n)+)",
        (root / "docs" / "learning.md").read_text(),
    )
    assert table is not None
    documented = [
        name
        for row in table.group(1).splitlines()
        for name in re.findall(r"`([a-z_.]+)`", row.split("|")[1])
    ]
    assert documented == names
    module = (root / "coup" / "envs" / "observation.py").read_text()
    rows = re.search(r"=+  =+  =+\nfield .*\n=+  =+  =+\n(.*?)\n=+  =+  =+", module, re.DOTALL)
    assert rows is not None
    assert [
        line.split()[0] for line in rows.group(1).splitlines() if not line.startswith(" ")
    ] == names
    for name, _offset, _size in layout.seat_fields + layout.entry_fields:
        assert name in rows.group(1), f"observation.py does not name {name}"
