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
library. ``CORE`` says which core runs and ``WHY`` why. `CompiledPackage` is the same
choice for any package built this way; a package compiled against this one's compiled
modules (the learning adapters' kernel) names it as the package `below` it.
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
)
#: Hand-written C built with them, used only by the compiled core (`c_extension`): the
#: game's generator in machine words.
C_SOURCES: tuple[str, ...] = ("_rng.c",)
#: Set to 1 (or true/yes) to run the pure-Python modules even where the compiled core is.
PURE_VARIABLE = "COUP_PURE"

HERE = Path(__file__).resolve().parent


def wants_pure() -> bool:
    """Does the environment ask for the pure-Python core?"""
    return os.environ.get(PURE_VARIABLE, "").strip().lower() in ("1", "true", "yes", "on")


def _extension(folder: Path, name: str) -> Path | None:
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = folder / f"{name}{suffix}"
        if path.is_file():
            return path
    return None


class CompiledPackage:
    """A package whose `modules` (in `folder`) mypyc compiles into one library, with
    hand-written C modules (`c_sources`) beside them: which of its cores runs.

    The library is ``<package>.<prefix>_<digest>__mypyc``, the digest being the SHA-256 of
    the modules' and C sources (and of the package `below` it, when it was compiled against
    that one's compiled modules: then it runs compiled only where `below` does)."""

    def __init__(
        self,
        package: str,
        folder: Path,
        modules: tuple[str, ...],
        c_sources: tuple[str, ...],
        prefix: str,
        below: CompiledPackage | None = None,
    ) -> None:
        self.package = package
        self.folder = folder
        self.modules = modules
        self.c_sources = c_sources
        self.prefix = prefix
        self.below = below
        #: "compiled" or "pure", and why: set by `choose`
        self.core = "pure"
        self.why = f"not chosen (loaded outside the {package} package, as setup.py does)"

    def source_digest(self) -> str:
        """SHA-256 over the compiled modules' names and sources, the C sources and the
        package below's digest (hex)."""
        digest = hashlib.sha256()
        for name in self.modules:
            digest.update(name.encode() + b"\0")
            digest.update((self.folder / f"{name}.py").read_bytes())
            digest.update(b"\0")
        for source in self.c_sources:
            digest.update(source.encode() + b"\0")
            digest.update((self.folder / source).read_bytes())
            digest.update(b"\0")
        if self.below is not None:
            digest.update(self.below.source_digest().encode())
        return digest.hexdigest()

    def c_source_digest(self, name: str) -> str:
        """SHA-256 of one C source (hex): its extension is built carrying it."""
        return hashlib.sha256((self.folder / name).read_bytes()).hexdigest()

    def library_group(self) -> str:
        """The mypyc group of these sources; its library module is ``<group>__mypyc``."""
        return f"{self.package}.{self.prefix}_{self.source_digest()[:16]}"

    def choose(self) -> tuple[str, str]:
        """Decide which core runs (`core`, `why`); where it is the pure one, make sure the
        modules' sources are imported, not the extension modules beside them."""
        self.core, self.why = self._choose()
        if self.core == "pure" and not any(
            isinstance(f, _PureFinder) and f.package == self.package for f in sys.meta_path
        ):
            sys.meta_path.insert(0, _PureFinder(self.package, self.folder, self.modules))
        return self.core, self.why

    def _choose(self) -> tuple[str, str]:
        if wants_pure():
            return "pure", f"{PURE_VARIABLE} is set"
        if self.below is not None and self.below.core != "compiled":
            return "pure", f"{self.below.package} runs its pure modules, which this needs then"
        shims = [name for name in self.modules if _extension(self.folder, name) is not None]
        if not shims:
            return "pure", "no compiled core was built (no C compiler or no mypyc at install time)"
        try:
            group = self.library_group()
        except OSError as e:  # a source missing beside its extension: trust the build
            return "compiled", f"compiled (sources unreadable: {e.strerror})"
        if _extension(self.folder, group.rsplit(".", 1)[1] + "__mypyc") is None:
            return "pure", "the compiled core was built from other sources: reinstall to rebuild"
        if len(shims) != len(self.modules):
            missing = ", ".join(sorted(set(self.modules) - set(shims)))
            return "pure", f"the compiled core is incomplete (missing {missing})"
        try:
            importlib.import_module(f"{group}__mypyc")
        except ImportError as e:
            return "pure", f"the compiled core does not load: {e}"
        return "compiled", f"compiled with mypyc ({group})"

    def c_extension(self, name: str) -> ModuleType | None:
        """The hand-written C module `name` where the compiled core runs and the module was
        built from the C source beside it (it carries the source's SHA-256 as ``SOURCE``),
        else None: the pure-Python code is used instead."""
        if self.core != "compiled":
            return None
        try:
            module = importlib.import_module(f"{self.package}.{name}")
        except ImportError:
            return None
        try:
            source = self.c_source_digest(f"{name}.c")
        except OSError:  # no source beside the build: trust it
            return module
        return module if getattr(module, "SOURCE", None) == source else None


class _PureFinder:
    """Finds a package's compiled modules' sources, so that the extension modules beside
    them are not imported (an entry of `sys.meta_path`)."""

    def __init__(self, package: str, folder: Path, modules: tuple[str, ...]) -> None:
        self.package = package
        self.folder = folder
        self.modules = modules

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != self.package or name not in self.modules:
            return None
        return importlib.util.spec_from_file_location(fullname, self.folder / f"{name}.py")


#: The rules, as a package built this way.
RULES = CompiledPackage("coup.rules", HERE, MODULES, C_SOURCES, "core")


def c_extension(name: str) -> ModuleType | None:
    """The rules' hand-written C module `name` (``"_rng"``), or None (`CompiledPackage`)."""
    return RULES.c_extension(name)


def c_source_digest(name: str) -> str:
    """SHA-256 of one of the rules' C sources (hex): its extension is built carrying it."""
    return RULES.c_source_digest(name)


CORE: str = RULES.core
WHY: str = RULES.why
if __package__ == "coup.rules":
    CORE, WHY = RULES.choose()

__all__ = [
    "CORE",
    "C_SOURCES",
    "MODULES",
    "PURE_VARIABLE",
    "RULES",
    "WHY",
    "CompiledPackage",
    "c_extension",
    "c_source_digest",
    "wants_pure",
]  # fmt: skip
