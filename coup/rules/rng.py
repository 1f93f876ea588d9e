"""The game's own random generator: SplitMix64, fully specified here.

Records replay identically forever because every shuffle uses this generator, seeded
from the record's ``seed``, and nothing else. Its whole state is one integer, so
cloning a game costs nothing.
"""

from __future__ import annotations

import hashlib
from typing import Any, Final, TypeVar

_MASK: Final = (1 << 64) - 1
T = TypeVar("T")


def _in_c() -> Any:
    """The generator's shuffle in C (``_rng.c``) where the compiled core runs and it was
    built from the source beside it, else None."""
    from . import core

    module = core.c_extension("_rng")
    return None if module is None else module.shuffle


#: `shuffle` in machine words (the compiled core), or None: the loop below.
_SHUFFLE_IN_C: Final[Any] = _in_c()


def seed_state(seed: int) -> int:
    """The generator state for a game seed: the first 8 bytes of SHA-256(str(seed))."""
    return int.from_bytes(hashlib.sha256(str(seed).encode()).digest()[:8], "big")


def next64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: (new state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def shuffle(state: int, items: list[T]) -> int:
    """Fisher–Yates shuffle of `items` in place; returns the new generator state.

    Index j for position i is ``(output * (i + 1)) >> 64`` (Lemire's multiply-shift).
    The compiled core does the same in C (``_rng.c``), in machine words.
    """
    if _SHUFFLE_IN_C is not None and type(items) is list:
        return int(_SHUFFLE_IN_C(state & _MASK, items))
    mask = _MASK
    for i in range(len(items) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        j = ((z ^ (z >> 31)) * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state
