"""New numpy arrays from the environments' buffers: `copy_array(a)` is ``a.copy()``, and
a `Copier` makes the same copies, taking back those nobody holds any more.

The environments hand out copies of the arrays over the kernel's buffers (an
observation vector and its masks) at every step unless told not to (``copy=False``).
``coup/envs/_copy.c``, built by ``setup.py`` against numpy's headers, makes such a copy in
about half the time of ``ndarray.copy`` (one allocation and a memcpy, not numpy's general
machinery); where it was not built, `copy_array` is ``numpy.ndarray.copy`` itself.

Each environment copies through its own `copier()`: called with an array, it returns
``array.copy()``, but an array it handed out before, once its only reference is the
copier's own (nobody keeps it, nor a view, buffer or weak reference of it), is written
with the new contents and handed out again instead of a new one being made. Whoever keeps
an observation keeps it unchanged, exactly as with new arrays; a loop that lets each go
before the next saves an allocation and a deallocation per array (where the C copy is not
built, `copier()` is `copy_array`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def _built() -> Any:
    try:
        from coup.envs import _copy
    except ImportError:  # not built (no C compiler, or numpy missing at build time)
        return None
    return _copy


_C = _built()
#: ``a.copy()`` for a numpy array `a`: a new array of the same shape, dtype and contents.
copy_array: Callable[[Any], Any] = np.ndarray.copy if _C is None else _C.copy
#: Whether `copy_array` is the C copy (``coup/envs/_copy.c``) and `copier` recycles.
FAST_COPY = _C is not None


def copier() -> Callable[[Any], Any]:
    """A copier of one environment's arrays: ``copier(a)`` is ``a.copy()``, in an array
    it handed out before when nobody holds that one any more (`copy_array` where the C copy
    is not built)."""
    return copy_array if _C is None else _C.Copier()
