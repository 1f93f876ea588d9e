"""coup.rules is the game and nothing else (README, "Layout"; docs/layout.md): it imports only the standard library
and nothing of coup's other layers, and holds no learning code. The learning adapters'
kernel (coup.envs.kernel) sits above it: the standard library and coup.rules only, so that
it compiles beside the rules and runs pure without numpy."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

COUP = Path(__file__).resolve().parents[2] / "coup"
RULES = COUP / "rules"
KERNEL = COUP / "envs" / "kernel"


def imported_modules(folder: Path) -> set[str]:
    """Top-level names of the modules `folder`'s files import (a relative import that
    leaves the folder counts as ``coup``)."""
    names: set[str] = set()
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level == 0 and node.module:
                    names.add(node.module)
                elif node.level > 1:
                    names.add("coup")
    return names


def outside_the_standard_library(names: set[str]) -> set[str]:
    return {name for name in names if name.split(".")[0] not in sys.stdlib_module_names}


def test_rules_imports_only_the_standard_library() -> None:
    outside = outside_the_standard_library(imported_modules(RULES))
    assert outside == set(), f"coup.rules imports {outside}"


def test_rules_holds_no_learning_code() -> None:
    kernel = {"features", "layout", "writer", "stepper", "agents", "solo", "_observe"}
    sources = [p for p in RULES.iterdir() if p.suffix in (".py", ".c", ".pyi")]
    assert {p.stem for p in sources} & kernel == set()
    for path in sources:
        text = path.read_text().lower()
        for word in ("observation", "pettingzoo", "gymnasium", "openspiel", "numpy", "coup.envs"):
            assert word not in text, f"{path.name} names {word}"


def test_the_kernel_imports_only_the_standard_library_and_the_rules() -> None:
    outside = {
        name
        for name in outside_the_standard_library(imported_modules(KERNEL))
        if name != "coup.rules" and not name.startswith("coup.rules.")
    }
    assert outside == set(), f"coup.envs.kernel imports {outside}"


def test_importing_coup_loads_nothing_but_the_standard_library() -> None:
    code = (
        "import json, sys, coup, coup.rules.narrate\n"
        "mods = [m for m in sys.modules if not m.startswith('_')]\n"
        "third = {m.split('.')[0] for m in mods} - set(sys.stdlib_module_names) - {'coup'}\n"
        "layers = [m for m in mods if m.startswith('coup.') and not m.startswith('coup.rules')]\n"
        "print(json.dumps([sorted(third), layers]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    third, layers = json.loads(out.stdout)
    assert third == [] and layers == []


def test_the_kernel_loads_nothing_but_the_standard_library_and_the_rules() -> None:
    code = (
        "import json, sys, coup.envs.kernel.agents, coup.envs.kernel.solo\n"
        "mods = [m for m in sys.modules if not m.startswith('_')]\n"
        "third = {m.split('.')[0] for m in mods} - set(sys.stdlib_module_names) - {'coup'}\n"
        "print(json.dumps(sorted(third)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []
