"""coup.rules is the pure core: it imports only the standard library and nothing of coup's
other layers (README, "Layout")."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "coup" / "rules"


def imported_modules() -> set[str]:
    names: set[str] = set()
    for path in RULES.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def test_rules_imports_only_the_standard_library() -> None:
    outside = {m for m in imported_modules() if m not in sys.stdlib_module_names}
    assert outside == set(), f"coup.rules imports {outside}"


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
