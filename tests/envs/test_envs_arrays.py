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


@pytest.mark.parametrize("array", _cases(), ids=lambda a: f"{a.dtype}-{a.shape}")
def test_copy_array_is_ndarray_copy(array: np.ndarray) -> None:
    expected = array.copy()
    got = copy_array(array)
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
