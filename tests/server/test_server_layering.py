"""The server holds only the server: it imports nothing from the commands (`coup.cli`) or
from the tools that drive and measure a server from outside (`tools/`, not shipped). Inside,
the table service is one door: only the app that wires it imports it, and no file of
coup/server imports another that imports it back, even only for typing."""

from __future__ import annotations

import ast
from pathlib import Path

COUP = Path(__file__).resolve().parents[2] / "coup"
SERVING = ["server", "store", "bus", "work"]
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


def _server_arrows() -> dict[str, set[str]]:
    """coup/server's files and the files of coup/server each imports (also for typing)."""
    files = {p.stem for p in (COUP / "server").glob("*.py")}
    arrows: dict[str, set[str]] = {}
    for path, names in _imports("server").items():
        stem = Path(path).stem
        found = {n.split(".")[2] for n in names if n.startswith("coup.server.")}
        arrows[stem] = (found & files) - {stem}
    return arrows


def test_only_the_app_wires_the_table_service() -> None:
    """The websocket, the routes and the service's own parts get what they need (a
    protocol, a way to commit, the bus), never the service (docs/server.md)."""
    users = {stem for stem, targets in _server_arrows().items() if "service" in targets}
    assert users == {"app"}


def test_no_circle_between_the_server_s_files() -> None:
    arrows = _server_arrows()
    done: set[str] = set()

    def walk(stem: str, path: list[str]) -> None:
        if stem in path:
            raise AssertionError(" -> ".join([*path[path.index(stem) :], stem]))
        if stem in done:
            return
        for target in sorted(arrows.get(stem, ())):
            walk(target, [*path, stem])
        done.add(stem)

    for stem in sorted(arrows):
        walk(stem, [])
