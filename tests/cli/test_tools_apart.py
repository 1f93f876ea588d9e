"""The measuring and load tools (`tools/`) stay apart from the product: the wheel does not
ship them, nothing in `coup/` imports them, and `coup bench` and `coup loadtest` reach
them from a checkout wherever they are called, and say so in one line where there is none.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import setuptools

import coup
import coup.cli

ROOT = Path(__file__).resolve().parents[2]


def test_the_wheel_ships_coup_and_not_the_tools() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    find = config["packages"]["find"]
    finder = (
        setuptools.find_namespace_packages
        if find.get("namespaces", True)
        else setuptools.find_packages
    )
    packages = finder(str(ROOT), include=find["include"], exclude=find.get("exclude", ()))
    assert {"coup", "coup.rules", "coup.server", "coup.cli"} <= set(packages)
    assert (ROOT / "tools" / "__init__.py").is_file()
    assert [p for p in packages if p.split(".")[0] != "coup"] == []
    assert set(config["package-data"]) == {"coup"}


def test_nothing_in_coup_imports_the_tools() -> None:
    found = {}
    for path in sorted((ROOT / "coup").rglob("*.py")):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
        tools = sorted(n for n in names if n == "tools" or n.startswith("tools."))
        if tools:
            found[str(path.relative_to(ROOT))] = tools
    assert found == {}


@pytest.mark.parametrize("command", ["bench", "loadtest"])
def test_the_tool_commands_run_from_the_checkout_wherever_called(
    command: str, tmp_path: Path
) -> None:
    if Path(coup.__file__).resolve().parents[1] != ROOT:
        pytest.skip("coup is installed from a wheel here, not run from this checkout")
    proc = subprocess.run(
        [sys.executable, "-m", "coup", command, "--help"],
        cwd=tmp_path,  # not the checkout: `tools` is found beside the `coup` that runs
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(f"usage: coup {command}")


def test_without_a_checkout_the_tool_commands_say_so(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(coup.cli, "CHECKOUT", tmp_path)  # as under site-packages: no tools/
    for command in ("bench", "loadtest"):
        assert coup.cli.main([command, "--help"]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err == f"coup {command}: needs the source checkout (tools/ is not installed)\n"
