"""`make serve` installs `coup` without its dev extras: everything `coup serve`, `coup
play`, `coup replay` and `coup loadtest` import must come with the plain install.

The test environment has the dev extras too (Playwright brings greenlet, for one), so
importing cannot show a missing dependency; instead the distributions that the plain
install pulls in (the base requirements, followed through their own) must hold every
third-party module those commands import. (Without this, `make serve` on a fresh clone
once failed: SQLAlchemy 2.1 no longer brings greenlet unless asked for `[asyncio]`.)
"""

from __future__ import annotations

import ast
import re
import sys
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# coup tournament --plot (matplotlib) and coup bench's learning adapters are extras;
# coup loadtest runs tools/load from the checkout with the same install.
PLAIN = ["coup/server", "coup/store", "coup/bus", "coup/rules", "coup/bots", "tools/load",
         "coup/cli/__init__.py", "coup/cli/serve.py", "coup/cli/replay.py", "coup/cli/play.py",
         "coup/cli/play_screen.py"]  # fmt: skip
# Imported for us by a library, not by our code.
IMPLIED = {"sqlalchemy.ext.asyncio": "greenlet"}
REQ = re.compile(r"^\s*([A-Za-z0-9_.-]+)\s*(?:\[([^\]]*)\])?")


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _installed_by(dist: str, extras: set[str], seen: set[str]) -> None:
    """Add `dist` and what it requires (with `extras`) to `seen`."""
    key = _norm(dist)
    if key in seen:
        return
    seen.add(key)
    for req in metadata.requires(dist) or []:
        spec, _, marker = req.partition(";")
        wanted = re.findall(r"extra\s*==\s*[\"']([^\"']+)[\"']", marker)
        if wanted and not any(_norm(w) in extras for w in wanted):
            continue
        m = REQ.match(spec)
        assert m is not None, req
        sub = {_norm(e) for e in (m.group(2) or "").split(",") if e.strip()}
        try:
            _installed_by(m.group(1), sub, seen)
        except metadata.PackageNotFoundError:
            pass  # a requirement for another platform or Python


def _third_party_imports() -> set[str]:
    found: set[str] = set()
    for part in PLAIN:
        path = ROOT / part
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            for node in ast.walk(ast.parse(file.read_text())):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                for name in names:
                    found.add(name)
                    found.update(v for k, v in IMPLIED.items() if name.startswith(k))
    return {
        n.split(".")[0]
        for n in found
        if n.split(".")[0] not in sys.stdlib_module_names
        and n.split(".")[0] not in ("coup", "tools")
    }


def test_the_plain_install_brings_every_module_the_commands_import() -> None:
    plain: set[str] = set()
    _installed_by("coup", set(), plain)
    providers = metadata.packages_distributions()
    missing = {
        module: providers.get(module, ["?"])
        for module in _third_party_imports()
        if not any(_norm(d) in plain for d in providers.get(module, []))
    }
    assert missing == {}, f"not installed by `pip install -e .`: {missing}"
