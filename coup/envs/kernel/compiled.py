"""Which learning kernel runs: the compiled one or the pure-Python modules.

The kernel is built as the rules core is (``coup/rules/core.py``): `setup.py` compiles the
modules of `MODULES` with mypyc into one library, ``coup.envs.kernel.kernel_<digest>__mypyc``,
and builds the hand-written C of `C_SOURCES` beside them. It is compiled against the
compiled rules (it reads their states' fields natively), so it runs compiled only where
they do, and its digest covers theirs. ``COUP_PURE=1`` runs the pure modules of both.

Imported first by ``coup/envs/kernel/__init__.py``; never compiled itself. ``KERNEL`` says
which kernel runs and ``WHY`` why.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from coup.rules.core import CompiledPackage

#: The modules compiled by mypyc, in dependency order (``__init__`` and this one are not).
MODULES: tuple[str, ...] = (
    "layout",
    "c_writer",
    "history",
    "features",
    "stepper",
    "agents",
    "solo",
)
#: Hand-written C built with them, used only by the compiled kernel: the observation writer.
C_SOURCES: tuple[str, ...] = ("_observe.c",)

HERE = Path(__file__).resolve().parent


def described(core: ModuleType) -> CompiledPackage:
    """The kernel as a package built by `core` (``coup.rules.core``, or that file loaded by
    ``setup.py``), compiled against its compiled rules."""
    package = core.CompiledPackage(
        "coup.envs.kernel", HERE, MODULES, C_SOURCES, "kernel", below=core.RULES
    )
    return cast("CompiledPackage", package)


KERNEL = "pure"
WHY = "not chosen (loaded outside the coup.envs.kernel package, as setup.py does)"
if __package__ == "coup.envs.kernel":
    from coup.rules import core as _core

    PACKAGE = described(_core)
    KERNEL, WHY = PACKAGE.choose()

__all__ = ["C_SOURCES", "KERNEL", "MODULES", "WHY", "described"]
