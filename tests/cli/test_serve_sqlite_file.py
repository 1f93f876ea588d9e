"""`coup serve` on an SQLite file: a second process on the same file is refused with one
line (the first keeps serving), and so is a path that names a directory; both exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx

from tools.load.process import ServerProcess, free_port

ROOT = Path(__file__).resolve().parents[2]


def serve(db: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "coup", "serve", "--port", str(free_port()), "--db", db]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)


def test_a_second_server_on_the_same_file_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "coup.db"
    first = ServerProcess(f"sqlite:///{db}").start()
    try:
        made = httpx.post(first.base + "/api/tables", json={"name": "Mahshid"}).json()
        second = serve(f"sqlite:///{db}")
        assert second.returncode == 2
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and str(db) in lines[0] and "another coup serve" in lines[0]
        assert "Traceback" not in second.stderr
        assert httpx.get(f"{first.base}/api/tables/{made['table']}").status_code == 200
    finally:
        first.stop()


def test_a_directory_is_not_a_database(tmp_path: Path) -> None:
    for where, why in ((tmp_path, "is a directory"), (tmp_path / "no" / "x.db", "does not exist")):
        done = serve(f"sqlite:///{where}")
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, done.stderr[-2000:]
        assert str(where) in lines[0] and why in lines[0]
