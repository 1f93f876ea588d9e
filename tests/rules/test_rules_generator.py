"""The game's generator (``coup.rules.rng``): SplitMix64 seeded from SHA-256 of the seed,
and the Fisher-Yates shuffle every deal and reshuffle of the Court uses. The compiled core
shuffles in C (``coup/rules/_rng.c``); both must be the specification, written out here
once more, for every state and length."""

from __future__ import annotations

import hashlib
import os
import random

import pytest

from coup.rules import core, rng

MASK = (1 << 64) - 1


def reference_shuffle(state: int, items: list[object]) -> int:
    """SplitMix64 and Lemire's index, as docs/records.md specifies them."""
    for i in range(len(items) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        j = (z * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state


def shufflers() -> list[object]:
    found: list[object] = [rng.shuffle]
    if core.CORE == "compiled":
        from coup.rules import _rng

        found.append(_rng.shuffle)
    return found


STATES = [0, 1, MASK, MASK - 0x9E3779B97F4A7C15, 1 << 63, (1 << 63) - 1, 0x9E3779B97F4A7C15]


@pytest.mark.parametrize("shuffle", shufflers(), ids=lambda f: f.__module__ or "c")
def test_a_shuffle_is_the_specified_one(shuffle: object) -> None:
    draw = random.Random(14)
    states = STATES + [draw.getrandbits(64) for _ in range(400)]
    for state in states:
        for length in (0, 1, 2, 3, 15, 16, 31, 64):
            items = list(range(length))
            expected = items[:]
            after = reference_shuffle(state, expected)
            assert shuffle(state, items) == after  # type: ignore[operator]
            assert items == expected, (state, length)


def test_a_deal_is_the_one_records_name() -> None:
    seed_state = int.from_bytes(hashlib.sha256(b"42").digest()[:8], "big")
    assert rng.seed_state(42) == seed_state
    deck = [c for c in ("ambassador", "assassin", "captain", "contessa", "duke") for _ in range(3)]
    expected = deck[:]
    assert rng.shuffle(seed_state, deck) == reference_shuffle(seed_state, expected)
    assert deck == expected


def test_the_compiled_core_shuffles_in_c_built_from_the_source_beside_it() -> None:
    if core.CORE != "compiled":
        assert rng._SHUFFLE_IN_C is None  # the pure core: no C at all
        return
    if os.environ.get("COUP_EXPECT_COMPILED") == "1":  # make test, where a C compiler is
        from coup.rules import _rng

        assert _rng.SOURCE == core.c_source_digest("_rng.c")
        assert rng._SHUFFLE_IN_C is _rng.shuffle


def test_the_c_shuffle_refuses_what_it_cannot_shuffle() -> None:
    if core.CORE != "compiled":
        pytest.skip("no C shuffle on the pure core")
    from coup.rules import _rng

    items = [1, 2, 3]
    for bad in [(-1, items), (1 << 64, items), (1.5, items), (1, (1, 2, 3)), (1,)]:
        with pytest.raises((TypeError, OverflowError)):
            _rng.shuffle(*bad)  # type: ignore[arg-type]
    assert items == [1, 2, 3]  # refused: nothing moved
    # the module's own shuffle takes any list of any int state, as the pure one does
    assert rng.shuffle(-5, items) == reference_shuffle(-5 & MASK, [1, 2, 3])
