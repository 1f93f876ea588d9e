"""The build: `coup.rules` compiled to C with mypyc where it can be, else pure Python.

All metadata is in pyproject.toml; this file only adds the compiled rules core (the modules
compiled by mypyc and the hand-written C beside them: the writer of observation vectors and
the game's generator) and the learning environments' C copy of numpy arrays
(coup/envs/_copy.c, built against numpy). If mypyc or a C compiler is missing, or the
compile fails, the package installs without it and `coup.rules` runs its pure-Python
modules (`coup/rules/core.py` chooses at import time).
`COUP_PURE=1` at build time skips the rules core's compile (the array copy is built still).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

RULES = Path(__file__).resolve().parent / "coup" / "rules"


def _core() -> Any:
    """coup/rules/core.py, loaded by path (the package itself is not importable here)."""
    spec = importlib.util.spec_from_file_location("_coup_rules_core", RULES / "core.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # outside its package it only defines things
    return module


def _say(text: str) -> None:
    print(f"coup build: {text}", file=sys.stderr)


def compiled_rules() -> list[Any]:
    core = _core()
    if core.wants_pure():
        _say(f"{core.PURE_VARIABLE} is set: installing the pure-Python rules core")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as e:
        _say(f"mypyc is not available ({e}): installing the pure-Python rules core")
        return []
    group = core.library_group(RULES)
    for old in RULES.glob("core_*__mypyc*"):  # libraries of earlier sources (in-place builds)
        if not old.name.startswith(group.rsplit(".", 1)[1] + "__mypyc"):
            old.unlink()
    try:
        extensions = mypycify(
            [f"coup/rules/{name}.py" for name in core.MODULES],
            opt_level="3",
            group_name=group,
        )
    except (Exception, SystemExit) as e:  # noqa: BLE001 - any failure: ship the pure core
        _say(f"mypyc could not compile coup.rules ({e}): installing the pure-Python core")
        return []
    # the hand-written C (the observation writer, the generator in machine words), used by
    # the compiled core only; each carries its source's digest, so that one built from
    # another source is not used
    for source in core.C_SOURCES:
        digest = f'"{core.c_source_digest(source)}"'
        extensions.append(
            Extension(
                f"coup.rules.{Path(source).stem}",
                [f"coup/rules/{source}"],
                define_macros=[("COUP_C_SOURCE", digest)],
            )
        )
    for extension in extensions:
        extension.optional = True  # no C compiler: warn and install the pure core
    return list(extensions)


def array_copy() -> list[Any]:
    """The learning environments' fast copy of numpy arrays (coup/envs/_copy.c), where
    numpy's headers are at build time (pyproject.toml's build requirements bring numpy);
    without it the environments use ``ndarray.copy``."""
    try:
        import numpy
    except ImportError as e:
        _say(f"numpy is not available ({e}): the environments copy arrays with ndarray.copy")
        return []
    return [
        Extension(
            "coup.envs._copy",
            ["coup/envs/_copy.c"],
            include_dirs=[numpy.get_include()],
            optional=True,
        )
    ]


class BuildExt(build_ext):
    """build_ext that always compiles (an editable install otherwise keeps an extension
    built before its C source changed) and says so when the compiled core could not be
    built."""

    def finalize_options(self) -> None:
        super().finalize_options()
        self.force = True

    def run(self) -> None:
        try:
            super().run()
        except Exception as e:  # noqa: BLE001
            _say(f"the compiled rules core could not be built ({e}): the pure core is used")


setup(ext_modules=compiled_rules() + array_copy(), cmdclass={"build_ext": BuildExt})
