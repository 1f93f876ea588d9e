"""Which rules core runs: the compiled one or the pure-Python modules.

At install time `setup.py` compiles the modules of `MODULES` to C with mypyc. The
extension modules sit beside their sources (``state.py`` and ``state.cpython-311-….so``) and
share one library, ``coup.rules.core_<digest>__mypyc``, named after the SHA-256 of the
sources it was built from. Python's import system prefers an extension module to a source
file, so this module, imported first by ``coup/rules/__init__.py``, decides:

* ``COUP_PURE=1`` in the environment: the pure-Python modules, always;
* else the compiled core if its library for *these* sources is there and loads;
* else (no compiler at install time, or sources edited since the build) the pure modules.

It is never compiled itself, and like all of ``coup.rules`` it needs only the standard
library. ``CORE`` says which core runs and ``WHY`` why.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: The modules compiled by mypyc, in dependency order (``__init__`` and this one are not).
MODULES: tuple[str, ...] = (
    "cards",
    "rng",
    "moves",
    "settings",
    "board",
    "reformation",
    "turn",
    "legal",
    "views",
    "determinize",
    "records",
    "state",
    "replays",
    "narrate",
    "layout",
    "writer",
    "features",
    "stepper",
    "agents",
    "solo",
)
#: Hand-written C built with them, used only by the compiled core (`c_extension`): the
#: observation writer and the game's generator in machine words.
C_SOURCES: tuple[str, ...] = ("_observe.c", "_rng.c")
#: Set to 1 (or true/yes) to run the pure-Python modules even where the compiled core is.
PURE_VARIABLE = "COUP_PURE"

HERE = Path(__file__).resolve().parent


def source_digest(folder: Path = HERE) -> str:
    """SHA-256 over the compiled modules' names and sources, and the C sources (hex)."""
    digest = hashlib.sha256()
    for name in MODULES:
        digest.update(name.encode() + b"\0")
        digest.update((folder / f"{name}.py").read_bytes())
        digest.update(b"\0")
    for source in C_SOURCES:
        digest.update(source.encode() + b"\0")
        digest.update((folder / source).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def c_source_digest(name: str, folder: Path = HERE) -> str:
    """SHA-256 of one C source (hex): its extension is built carrying it."""
    return hashlib.sha256((folder / name).read_bytes()).hexdigest()


def c_extension(name: str) -> ModuleType | None:
    """The hand-written C module `name` (``"_observe"``, ``"_rng"``) where the compiled
    core runs and the module was built from the C source beside it (it carries the
    source's SHA-256 as ``SOURCE``), else None: the pure-Python code is used instead."""
    if CORE != "compiled":
        return None
    try:
        module = importlib.import_module(f"{__package__}.{name}")
    except ImportError:
        return None
    try:
        source = c_source_digest(f"{name}.c")
    except OSError:  # no source beside the build: trust it
        return module
    return module if getattr(module, "SOURCE", None) == source else None


def library_group(folder: Path = HERE) -> str:
    """The mypyc group of these sources; its library module is ``<group>__mypyc``."""
    return f"coup.rules.core_{source_digest(folder)[:16]}"


def _extension(folder: Path, name: str) -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = folder / f"{name}{suffix}"
        if path.is_file():
            return path
    return None


class _PureFinder:
    """Finds the compiled modules' sources, so that the extension modules beside them are
    not imported (an entry of `sys.meta_path`)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != __package__ or name not in MODULES:
            return None
        return importlib.util.spec_from_file_location(fullname, HERE / f"{name}.py")


def wants_pure() -> bool:
    """Does the environment ask for the pure-Python core?"""
    return os.environ.get(PURE_VARIABLE, "").strip().lower() in ("1", "true", "yes", "on")


def _choose() -> tuple[str, str]:
    if wants_pure():
        return "pure", f"{PURE_VARIABLE} is set"
    shims = [name for name in MODULES if _extension(HERE, name) is not None]
    if not shims:
        return "pure", "no compiled core was built (no C compiler or no mypyc at install time)"
    try:
        group = library_group()
    except OSError as e:  # a source missing beside its extension: trust the build
        return "compiled", f"compiled (sources unreadable: {e.strerror})"
    if _extension(HERE, _leaf(group)) is None:
        return "pure", "the compiled core was built from other sources: reinstall to rebuild"
    if len(shims) != len(MODULES):
        missing = ", ".join(sorted(set(MODULES) - set(shims)))
        return "pure", f"the compiled core is incomplete (missing {missing})"
    try:
        importlib.import_module(f"{group}__mypyc")
    except ImportError as e:
        return "pure", f"the compiled core does not load: {e}"
    return "compiled", f"compiled with mypyc ({group})"


def _leaf(group: str) -> str:
    return group.rsplit(".", 1)[1] + "__mypyc"


CORE: str = "pure"
WHY: str = "not chosen (loaded outside the coup.rules package, as setup.py does)"
if __package__ == "coup.rules":
    CORE, WHY = _choose()
    if CORE == "pure" and not any(isinstance(f, _PureFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PureFinder())

__all__ = [
    "CORE",
    "C_SOURCES",
    "MODULES",
    "PURE_VARIABLE",
    "WHY",
    "c_extension",
    "c_source_digest",
    "library_group",
    "source_digest",
    "wants_pure",
]  # fmt: skip
