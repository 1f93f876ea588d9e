"""`coup loadtest` side by side (`--against`, tools/load/versus.py) and its CPU per move,
on SQLite: a bounded run with this checkout on both sides."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(150)
ROOT = Path(__file__).resolve().parents[2]


def test_two_checkouts_take_turns_and_medians_come_back() -> None:
    cmd = [sys.executable, "-m", "coup", "loadtest", "--tables", "2", "--players", "3",
           "--seconds", "3", "--think", "0.2", "--against", str(ROOT), "--rounds", "2",
           "--json"]  # fmt: skip
    done = subprocess.run(cmd, check=False, cwd=ROOT, capture_output=True, text=True, timeout=140)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.splitlines()[-1])
    assert [len(report["runs"][side]) for side in ("this", "against")] == [2, 2]
    order = [line.split(",")[1].split(":")[0].strip() for line in done.stderr.splitlines()
             if line.startswith("round")]  # fmt: skip
    assert order == ["against", "this", "this", "against"]  # swapped every round
    for side in ("this", "against"):
        for run in report["runs"][side]:
            assert run["moves"] > 0 and run["seats_failed"] == 0
            assert run["server_cpu_ms_per_move"] > 0
        assert report["medians"][side]["server CPU, ms a move"] > 0


def test_a_bad_checkout_is_refused(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "coup", "loadtest", "--against", str(tmp_path)]
    done = subprocess.run(cmd, check=False, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "not a checkout" in done.stderr
