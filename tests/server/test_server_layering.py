"""The server holds only the server: it imports nothing from the commands (`coup.cli`) or
from the tools that drive and measure a server from outside (`tools/`, not shipped)."""

from __future__ import annotations

import ast
from pathlib import Path

COUP = Path(__file__).resolve().parents[2] / "coup"
SERVING = ["server", "store", "bus"]
TOOLS = ("coup.cli", "tools")


def _imports(package: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted((COUP / package).rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
        found[str(path.relative_to(COUP))] = names
    return found


def test_the_server_imports_nothing_from_the_commands_or_the_tools() -> None:
    bad = {
        path: sorted(n for n in names if n.startswith(TOOLS))
        for package in SERVING
        for path, names in _imports(package).items()
        if any(n.startswith(TOOLS) for n in names)
    }
    assert bad == {}


def test_the_tools_live_outside_the_server() -> None:
    server = {p.stem for p in (COUP / "server").glob("*.py")}
    assert not server & {"loadtest", "fuzz", "soak", "fleet", "process", "procstat", "client"}
    assert not server & {"main"}, "`coup serve` is a command: coup/cli/serve.py"
