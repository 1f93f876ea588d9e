"""Small bounded runs of the scale tools against two processes on PostgreSQL + Redis:
the load test, the fuzzer and the soak (with its kill -9 check). The full-size runs
(1,000 tables, 100,000 messages, 10 minutes) are benchmarks, see docs/deploy.md."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(150)
ROOT = Path(__file__).resolve().parents[2]
POSTGRES = os.environ.get("COUP_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("COUP_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _loadtest(*args: str) -> dict:
    cmd = [sys.executable, "-m", "coup", "loadtest", "--db", POSTGRES, "--bus", REDIS,
           "--servers", "2", "--json", *args]  # fmt: skip
    done = subprocess.run(cmd, check=False, cwd=ROOT, capture_output=True, text=True, timeout=140)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines and "cannot cap CPU with a cgroup" in done.stderr:
        return {"_stderr_says_cgroup": True}
    assert lines, done.stderr[-3000:]
    report = json.loads(lines[-1])
    report["_rc"] = done.returncode
    return report


def test_load_two_processes() -> None:
    r = _loadtest("--tables", "6", "--players", "6", "--seconds", "6", "--think", "0.3")
    assert r["_rc"] == 0 and r["seats_failed"] == 0
    assert r["servers"] == 2 and r["moves"] > 0
    assert set(r["errors"]) <= {"stale"}


def test_load_a_table_per_process_each_capped() -> None:
    """`--spread table` (as hash routing by /ws/<table> does) and `--server-cpu` (each
    process in a CPU cgroup of its own, removed at the end)."""
    before = _cgroups()
    r = _loadtest("--tables", "4", "--players", "4", "--seconds", "4", "--think", "0.3",
                  "--spread", "table", "--server-cpu", "0.5")  # fmt: skip
    if r.get("_stderr_says_cgroup"):
        pytest.skip("no writable CPU cgroup here (root on Linux only)")
    assert r["_rc"] == 0 and r["seats_failed"] == 0 and r["moves"] > 0
    assert r["spread"] == "table" and r["server_cpu_cap"] == 0.5
    assert r["server_cpu_percent"] <= 2 * 50 + 10  # two processes, half a core each
    assert set(r["services_cpu_percent"]) == {"postgres", "redis"}
    assert _cgroups() == before


def _cgroups() -> set[str]:
    found = set()
    for root in (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/cpu")):
        if root.is_dir():
            found |= {p.name for p in root.iterdir() if p.name.startswith("coup-load-")}
    return found


def test_fuzz_two_processes() -> None:
    r = _loadtest("--fuzz", "1500")
    assert r["messages"] >= 1500
    assert r["unanswered"] == 0 and r["wrong"] == [], r["wrong"]
    assert r["records_broken"] == [] and r["games_checked"] > 0
    assert r["servers_alive"] and r["server_log_problems"] == []
    assert r["_rc"] == 0


def test_soak_kill_restart_loses_nothing() -> None:
    r = _loadtest("--soak", "--tables", "6", "--players", "4", "--seconds", "8", "--think", "0.2")
    assert r["lost_count"] == 0, r["lost"]
    assert r["tables_checked_after_kill"] == 6
    assert r["errors_other_than_stale"] == {} and r["seats_failed"] == 0
    assert r["_rc"] == 0


def test_bench_store_compares_the_two_ways_to_write_a_move() -> None:
    cmd = [sys.executable, "-m", "coup", "bench", "--store", POSTGRES, "--quick", "--json"]
    done = subprocess.run(cmd, check=False, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    r = json.loads(done.stdout)
    assert set(r["per_move"]) == {"one_statement", "transaction"}
    assert all(m["cpu_ms"] > 0 and m["wall_ms"] > 0 for m in r["per_move"].values())
    bad = subprocess.run(
        [sys.executable, "-m", "coup", "bench", "--store", "sqlite:///nowhere.db"],
        check=False, cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert bad.returncode == 2 and "postgresql://" in bad.stderr
