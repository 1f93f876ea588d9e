"""The environments' copy of numpy arrays (``coup.envs.arrays.copy_array``, the C copy of
``coup/envs/_copy.c`` where it was built) is ``ndarray.copy``: the same shape, dtype and
contents in a new array of its own, for every kind of array handed to it."""

from __future__ import annotations

import os

import numpy as np
import pytest

from coup.envs import arrays
from coup.envs.arrays import copy_array
from coup.envs.gymnasium import CoupEnv
from coup.envs.pettingzoo import raw_env


def test_the_c_copy_is_built_where_a_compiler_is() -> None:
    if os.environ.get("COUP_EXPECT_COMPILED") == "1":  # make test, where a C compiler is
        assert arrays.FAST_COPY
        from coup.envs import _copy

        assert copy_array is _copy.copy


class Tagged(np.ndarray):  # type: ignore[type-arg]
    """A subclass of ndarray: copied by its own copy(), keeping its class."""


def _cases() -> list[np.ndarray]:
    floats = np.arange(535, dtype=np.float32) / 7
    grid = np.arange(24, dtype=np.int64).reshape(4, 6)
    return [
        floats,
        np.array([0, 1, 1, 0], dtype=np.int8),
        np.array([True, False, True]),
        np.zeros(0, dtype=np.float32),
        grid,
        grid[:, ::2],  # strided: not C-contiguous
        grid.T,  # Fortran order
        np.frombuffer(bytearray(floats.tobytes()), np.float32),  # over a buffer, as the envs'
        np.frombuffer(floats.tobytes(), np.float32),  # read-only
        np.array([(1, 2.5)], dtype=[("a", "<i4"), ("b", ">f8")]),  # structured, big-endian
        np.array(["x", None, 3], dtype=object),  # references: not to be copied bytewise
        np.array(2.5, dtype=np.float32),  # zero dimensions
        floats.view(Tagged),
    ]


@pytest.mark.parametrize("maker", ["copy_array", "copier"])
@pytest.mark.parametrize("array", _cases(), ids=lambda a: f"{a.dtype}-{a.shape}")
def test_copy_array_and_a_copier_are_ndarray_copy(array: np.ndarray, maker: str) -> None:
    copy = copy_array if maker == "copy_array" else arrays.copier()
    expected = array.copy()
    got = copy(array)
    assert type(got) is type(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    assert got.flags.c_contiguous and got.flags.writeable and got.flags.owndata
    assert got is not array
    if array.dtype == object:
        assert list(got.reshape(-1)) == list(array.reshape(-1))
        return
    assert got.tobytes() == expected.tobytes()
    if got.size and array.dtype.names is None:
        before = array.copy()
        got.reshape(-1)[0] = got.reshape(-1)[-1] + 1  # changing the copy changes nothing else
        assert np.array_equal(array, before)


def test_object_arrays_keep_their_references() -> None:
    item = ["a list, referenced"]
    array = np.array([item, None], dtype=object)
    copied = copy_array(array)
    del array
    assert copied[0] is item


def test_copy_array_refuses_what_has_no_copy() -> None:
    with pytest.raises((AttributeError, TypeError)):  # the C copy; ndarray.copy
        copy_array(3)


def test_the_environments_hand_out_copies_of_their_buffers() -> None:
    env = raw_env(4)
    env.reset(seed=3)
    first = env.last()[0]
    assert first is not None
    kept = first["observation"].copy()
    legal = np.flatnonzero(first["action_mask"])
    env.step(int(legal[0]))
    assert np.array_equal(first["observation"], kept)  # not rewritten by the step
    assert first["observation"].base is None and first["action_mask"].base is None

    game = CoupEnv(4, opponents="random")
    obs, info = game.reset(seed=3)
    masks = game.action_masks()
    obs2, _, _, _, info2 = game.step(int(np.flatnonzero(masks)[0]))
    for handed in (obs, info["action_mask"], masks, obs2, info2["action_mask"]):
        assert handed.base is None and handed.flags.writeable
    assert masks.dtype == np.bool_ and np.array_equal(masks, info["action_mask"].astype(bool))


# -- a copier: copies taken back once nobody holds them (the C Copier where FAST_COPY; else
# copier() is copy_array, and nothing is taken back) ------------------------------------------
def test_a_copy_somebody_holds_is_never_written_again() -> None:
    copy = arrays.copier()
    source = np.zeros(535, np.float32)
    held: list[tuple[object, bytes]] = []
    view_holder = copy(source)
    view = view_holder[10:20]  # a view keeps its base
    del view_holder
    buffer = memoryview(copy(source))  # so does a buffer
    in_a_dict = {"observation": copy(source)}  # and any container
    for step in range(1, 40):
        source[:] = step
        got = copy(source)
        assert np.all(got == step)
        if step % 3 == 0:
            held.append((got, got.tobytes()))
    for array, contents in held:
        assert array.tobytes() == contents  # kept, so never rewritten
    assert not view.any() and not np.frombuffer(buffer, np.float32).any()
    assert not in_a_dict["observation"].any()


def test_a_copy_let_go_comes_back_with_the_new_contents() -> None:
    copy = arrays.copier()
    source = np.arange(60, dtype=np.int8)
    for step in range(100):
        source[0] = step
        got = copy(source)
        assert got[0] == step and np.array_equal(got[1:], np.arange(1, 60))
        del got
    if arrays.FAST_COPY:
        recycled, made = copy.counts()  # type: ignore[attr-defined]
        assert made <= 3 and recycled + made == 100


def test_a_weak_reference_keeps_a_copy_from_coming_back() -> None:
    import weakref

    copy = arrays.copier()
    source = np.ones(8, np.float32)
    first = copy(source)
    watched = weakref.ref(first)
    del first
    for _ in range(10):
        source += 1
        copy(source)
    kept = watched()
    assert kept is None or np.all(kept == 1)  # gone, or as it was: never rewritten


def test_a_copy_changed_in_place_is_not_handed_out_as_a_copy() -> None:
    copy = arrays.copier()
    source = np.arange(12, dtype=np.float32)
    changes = [
        lambda a: setattr(a, "shape", (3, 4)),
        lambda a: setattr(a, "dtype", np.int32),
        lambda a: a.setflags(write=False),
        lambda a: a.resize(24, refcheck=False),
    ]
    for change in changes:
        for _ in range(4):  # every copy the copier keeps changed, then let go
            got = copy(source)
            change(got)
            del got
        again = copy(source)
        assert again.shape == (12,) and again.dtype == np.float32
        assert again.flags.writeable and again.flags.owndata
        assert np.array_equal(again, source)


def test_a_copier_of_many_arrays_copies_each() -> None:
    copy = arrays.copier()
    sources = [np.full(5, i, np.int8) for i in range(9)]  # more than it keeps copies of
    for _ in range(3):
        for i, source in enumerate(sources):
            got = copy(source)
            assert np.all(got == i) and got.shape == (5,)


def test_a_copier_refuses_bad_calls_and_keeps_working() -> None:
    copy = arrays.copier()
    with pytest.raises((AttributeError, TypeError)):
        copy(3)
    if arrays.FAST_COPY:
        with pytest.raises(TypeError):
            copy()  # type: ignore[call-arg]
        with pytest.raises(TypeError):
            copy(np.zeros(2), np.zeros(2))  # type: ignore[call-arg]
        with pytest.raises(TypeError):
            type(copy)(1)
    assert np.array_equal(copy(np.arange(3)), np.arange(3))


def test_the_environments_observations_kept_stay_as_handed_out() -> None:
    """PettingZoo (copy=True) and Gymnasium hand out new arrays at every step: every one
    kept stays as it was handed out, while the ones let go are taken back."""
    import random

    env = raw_env(4)
    env.reset(seed=5)
    rng = random.Random(5)
    kept: list[tuple[np.ndarray, bytes]] = []
    for step in range(400):
        if not env.agents:
            env.reset()
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert obs is not None
        if step % 7 == 0:
            kept += [(obs["observation"], obs["observation"].tobytes())]
            kept += [(obs["action_mask"], obs["action_mask"].tobytes())]
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    for array, contents in kept:
        assert array.tobytes() == contents
    if arrays.FAST_COPY:
        recycled, made = env._core.copier.counts()
        assert recycled > made

    game = CoupEnv(4, opponents="random")
    obs, info = game.reset(seed=5)
    held = [(obs, obs.tobytes()), (info["action_mask"], info["action_mask"].tobytes())]
    for _ in range(300):
        masks = game.action_masks()
        obs, _, terminated, truncated, info = game.step(int(rng.choice(np.flatnonzero(masks))))
        if rng.random() < 0.2:
            held += [(obs, obs.tobytes()), (masks, masks.tobytes())]
        if terminated or truncated:
            game.reset()
    for array, contents in held:
        assert array.tobytes() == contents
