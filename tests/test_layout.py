"""The house plan in docs/layout.md holds for the code: every package folder has its line,
each imports only the layers its line allows, nothing imports `tools/`, and no two files
import each other in a circle (imports for type checking only do not count)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYOUT = ROOT / "docs" / "layout.md"
ROW = re.compile(r"^\| `(?P<folder>[a-z_/]+)/` \| (?P<job>[^|]+) \| (?P<may>[^|]+) \|$")


def layout() -> dict[str, set[str]]:
    """folder -> the folders (as written in the table) its files may import."""
    table: dict[str, set[str]] = {}
    for line in LAYOUT.read_text(encoding="utf-8").splitlines():
        if m := ROW.match(line.strip()):
            may = m["may"].strip()
            table[m["folder"]] = (
                set()
                if may.startswith("the standard library")
                else set(re.findall(r"`([a-z_/]+)/`", may))
            )
    return table


def python_folders() -> set[str]:
    found = set()
    for top in ("coup", "tools"):
        for path in (ROOT / top).rglob("*.py"):
            if "__pycache__" not in path.parts:
                found.add(path.parent.relative_to(ROOT).as_posix())
    return found - {"coup"}  # the package's face: coup/__init__.py and __main__.py


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {
    module_name(p): p
    for top in ("coup", "tools")
    for p in (ROOT / top).rglob("*.py")
    if "__pycache__" not in p.parts
}


def _type_only(tree: ast.Module) -> set[int]:
    """ids of the import nodes under `if TYPE_CHECKING:`."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    return skip


def imports(path: Path) -> Iterator[str]:
    """The project modules `path` imports at run time (type-only imports left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_only(tree)
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            # a name that is a module is that module; any other name is its package's
            names = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names
            ]
        else:
            continue
        for name in names:
            while name and name not in MODULES:
                name = name.rpartition(".")[0]
            if name:
                yield name


def folder_of(module: str) -> str:
    path = MODULES[module]
    return path.parent.relative_to(ROOT).as_posix()


def test_every_package_folder_has_its_line() -> None:
    assert python_folders() <= set(layout()), python_folders() - set(layout())
    assert set(layout()) - {"coup/web"} <= python_folders()


def test_each_folder_imports_only_what_its_line_allows() -> None:
    table = layout()
    wrong = []
    for module, path in MODULES.items():
        folder = folder_of(module)
        if folder == "coup":
            continue
        allowed = table[folder] | {folder}
        for target in imports(path):
            there = folder_of(target)
            if there == "coup":  # the face re-exports coup/rules
                there = "coup/rules"
            if not any(there == a or there.startswith(a + "/") for a in allowed):
                wrong.append(f"{module} -> {target}")
    assert wrong == []


def test_no_circle_between_files() -> None:
    graph = {m: {t for t in imports(p) if t != m} for m, p in MODULES.items()}
    circles = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                circles.append(path[path.index(t) :] + [t] if t in path else [m, t])
            elif t not in state:
                visit(t, [*path, t])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert circles == []
