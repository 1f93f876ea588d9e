"""The build: `coup.rules` and the learning kernel compiled to C with mypyc where they can
be, else pure Python.

All metadata is in pyproject.toml; this file only adds the compiled rules core (the modules
compiled by mypyc and the game's generator in hand-written C), the learning adapters'
compiled kernel (``coup/envs/kernel``: its modules, compiled against the rules', and the C
writer of observation vectors). If mypyc or a C compiler is missing, or the compile fails,
the package installs without them and the pure-Python modules run (`coup/rules/core.py` and
`coup/envs/kernel/compiled.py` choose at import time). `COUP_PURE=1` at build time skips
the compile.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
RULES = ROOT / "coup" / "rules"
KERNEL = ROOT / "coup" / "envs" / "kernel"


def _load(name: str, path: Path) -> Any:
    """A module of the package loaded by path (the package itself is not importable here)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # outside its package it only defines things
    return module


def _say(text: str) -> None:
    print(f"coup build: {text}", file=sys.stderr)


def compiled_packages() -> list[Any]:
    """The rules and the kernel compiled by mypyc (one library each, the kernel's compiled
    against the rules'), and the hand-written C beside each."""
    core = _load("_coup_rules_core", RULES / "core.py")
    kernel = _load("_coup_envs_kernel_compiled", KERNEL / "compiled.py").described(core)
    packages = [core.RULES, kernel]
    if core.wants_pure():
        _say(f"{core.PURE_VARIABLE} is set: installing the pure-Python modules")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError as e:
        _say(f"mypyc is not available ({e}): installing the pure-Python modules")
        return []
    groups = []
    for package in packages:
        group = package.library_group()
        leaf = group.rsplit(".", 1)[1] + "__mypyc"
        for old in package.folder.glob(f"{package.prefix}_*__mypyc*"):  # earlier sources
            if not old.name.startswith(leaf):
                old.unlink()
        folder = package.folder.relative_to(ROOT).as_posix()
        groups.append(([f"{folder}/{name}.py" for name in package.modules], group))
    try:
        # the adapters' numpy is an optional extra, absent from a fresh environment at
        # install time; the compiled modules never use it (coup/envs names it for types only)
        extensions = mypycify(
            ["--ignore-missing-imports"] + [path for paths, _group in groups for path in paths],
            opt_level="3",
            separate=groups,
        )
    except (Exception, SystemExit) as e:  # noqa: BLE001 - any failure: ship the pure modules
        _say(f"mypyc could not compile them ({e}): installing the pure-Python modules")
        return []
    # the hand-written C (the game's generator in machine words, the observation writer),
    # used by the compiled modules only; each carries its source's digest, so that one
    # built from another source is not used
    for package in packages:
        folder = package.folder.relative_to(ROOT).as_posix()
        for source in package.c_sources:
            digest = f'"{package.c_source_digest(source)}"'
            extensions.append(
                Extension(
                    f"{package.package}.{Path(source).stem}",
                    [f"{folder}/{source}"],
                    define_macros=[("COUP_C_SOURCE", digest)],
                )
            )
    for extension in extensions:
        extension.optional = True  # no C compiler: warn and install the pure modules
    return list(extensions)


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
            _say(f"the compiled modules could not be built ({e}): the pure ones are used")


setup(ext_modules=compiled_packages(), cmdclass={"build_ext": BuildExt})
