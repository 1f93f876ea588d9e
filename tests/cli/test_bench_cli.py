"""`coup bench`: the output is well formed (never how fast: speed is shown, not asserted)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest

from tools.bench import suite as bench

ENV = {**os.environ, "PYTHONIOENCODING": "utf-8"}


def run_bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "coup", "bench", *args],
        capture_output=True,
        text=True,
        timeout=240,
        env=ENV,
        check=False,
    )


def positive(x: object) -> bool:
    return isinstance(x, float) and math.isfinite(x) and x > 0


def test_bench_quick_prints_a_report() -> None:
    proc = run_bench("--quick", "--no-coupml", "--no-cores")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Traceback" not in out + proc.stderr
    for players in ("2", "4", "6"):
        assert any(line.split()[:1] == [players] for line in out.splitlines()), out
    for label in ("decisions/s", "games/s", "state.clone()", "state.determinize()", "µs"):
        assert label in out
    assert "coupml could not be measured: skipped (--no-coupml)" in out


def test_bench_quick_json_is_well_formed() -> None:
    proc = run_bench("--quick", "--no-coupml", "--no-envs", "--no-cores", "--json", "--games", "5")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert set(result["random_play"]) == {"2", "4", "6"}
    for row in result["random_play"].values():
        assert positive(row["decisions_per_s"])
        assert positive(row["games_per_s"])
        assert row["decisions_per_game"] >= 1
    for key in ("clone_us", "determinize_us", "view_us"):
        assert positive(result[key])
    assert result["coupml"] == {"error": "skipped (--no-coupml)"}
    assert "ratio" not in result
    assert result["envs"] == {"error": "skipped (--no-envs)"}
    assert result["cores"] == {"error": "skipped (--no-cores)"}
    assert result["core"] in ("compiled", "pure") and result["core_why"]


def test_the_cores_are_compared_side_by_side() -> None:
    from tools.bench import cores as bench_cores

    found = bench_cores.compare(1, 3, 1, seed=5, note=lambda text: None)
    assert found["compiled"]["core"] in ("compiled", "pure")  # pure where nothing was built
    assert found["pure"]["core"] == "pure"
    for name in ("compiled", "pure"):
        for key in ("decisions_per_s", "search_playouts_per_s", "search_steps_per_s"):
            assert positive(found[name][key])
    text = "\n".join(bench_cores.report(found))
    assert "compiled core against the pure one" in text and "ratio" in text


def test_bench_report_with_coupml_and_without_envs(monkeypatch: pytest.MonkeyPatch) -> None:
    import tools.bench

    monkeypatch.setitem(sys.modules, "tools.bench.envs", None)
    monkeypatch.delattr(tools.bench, "envs", raising=False)  # if another test imported it
    assert "error" in bench.env_rates(0.01)
    row = {"decisions_per_s": 300000.0, "games_per_s": 9000.0, "decisions_per_game": 33.3}
    results = {
        "python": "CPython 3.11",
        "machine": "Linux",
        "seed": 1,
        "repetitions": 3,
        "games_per_repetition": 10,
        "random_play": {"2": row, "4": row, "6": row},
        "clone_us": 1.5,
        "determinize_us": 20.0,
        "view_us": 10.0,
        "coupml": {
            "version": "0.1.1",
            **row,
            "decisions_per_s": 100000.0,
            "numpy_randomstate": {**row, "decisions_per_s": 50000.0},
        },
        "ratio": {
            "decisions_per_s": 3.0,
            "choices_per_s": 3.3,
            "games_per_s": 1.0,
            "goal": 3.0,
            "decisions_per_s_vs_numpy_driver": 6.0,
        },
        "envs": {"error": "tools.bench.envs is not available"},
        "cores": {"error": "skipped (--no-cores)"},
    }
    text = bench.report(results)
    assert "ours/coupml: 3.00x decisions/s" in text
    assert "meets the 3x goal" in text
    assert "(numpy RandomState.choice): 50,000 decisions/s; ours is 6.00x that" in text
    assert "learning environments not measured" in text
    assert "cores not compared: skipped (--no-cores)" in text
    results["envs"] = {"engine": 300000.0, "pettingzoo": 100000.0, "gymnasium": 200000.0}
    text = bench.report(results)
    assert "pettingzoo: 3.00x (above the 2x goal)" in text
    assert "gymnasium: 1.50x (meets the 2x goal)" in text
    results["coupml"] = {"error": "pip install coupml==0.1.1 failed: no network"}
    assert "coupml could not be measured: pip install" in bench.report(results)


@pytest.mark.parametrize("args", [["--repeat", "0"], ["--games", "-1"], ["--seed", "x"]])
def test_bench_bad_options(args: list[str]) -> None:
    assert bench.main(args) == 2
