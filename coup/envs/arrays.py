"""New numpy arrays from the environments' buffers: `copy_array(a)` is ``a.copy()``.

The environments hand out copies of the arrays over the rules core's buffers (an
observation vector and its masks) at every step unless told not to (``copy=False``).
``coup/envs/_copy.c``, built by ``setup.py`` against numpy's headers, makes such a copy in
about half the time of ``ndarray.copy`` (one allocation and a memcpy, not numpy's general
machinery); where it was not built, `copy_array` is ``numpy.ndarray.copy`` itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def _copier() -> Callable[[Any], Any] | None:
    try:
        from coup.envs._copy import copy
    except ImportError:  # not built (no C compiler, or numpy missing at build time)
        return None
    return copy


_FAST = _copier()
#: ``a.copy()`` for a numpy array `a`: a new array of the same shape, dtype and contents.
copy_array: Callable[[Any], Any] = np.ndarray.copy if _FAST is None else _FAST
#: Whether `copy_array` is the C copy (``coup/envs/_copy.c``).
FAST_COPY = _FAST is not None
