"""The learning adapters on the compiled rules core and on the pure one: the same
observations and masks for the same seeds (`cores_observe.py`, which also checks each
against the slow path that builds them from the view dict and the legal moves)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from coup.rules import core

PLAYER = Path(__file__).with_name("cores_observe.py")


def observed(pure: bool) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != core.PURE_VARIABLE}
    if pure:
        env[core.PURE_VARIABLE] = "1"
    done = subprocess.run(
        [sys.executable, str(PLAYER)], capture_output=True, text=True, check=True, env=env
    )
    return done.stdout.splitlines()


def test_both_cores_give_learners_the_same_observations_and_masks() -> None:
    compiled = observed(pure=False)
    if json.loads(compiled[0]) != {"core": "compiled", "kernel": "compiled"}:
        pytest.skip("no compiled core here: nothing to compare the pure core with")
    pure = observed(pure=True)
    assert json.loads(pure[0]) == {"core": "pure", "kernel": "pure"}
    assert len(compiled) == len(pure) > 1
    for ours, theirs in zip(compiled[1:], pure[1:], strict=True):
        a, b = json.loads(ours), json.loads(theirs)
        assert a == b, f"the cores differ at table {a['table']}"


def chosen(pure: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != core.PURE_VARIABLE}
    if pure:
        env[core.PURE_VARIABLE] = "1"
    code = (
        "import json, coup.rules.core as c, coup.envs.kernel as k, coup.envs.kernel.stepper as s\n"
        "print(json.dumps({'core': c.CORE, 'kernel': k.KERNEL, 'why': k.WHY, "
        "'file': s.__file__}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
    )
    return dict(json.loads(done.stdout))


def test_the_kernel_runs_compiled_only_where_the_rules_do() -> None:
    pure = chosen(pure=True)
    assert pure["core"] == pure["kernel"] == "pure" and core.PURE_VARIABLE in pure["why"]
    assert pure["file"].endswith("stepper.py")
    found = chosen(pure=False)
    if found["core"] != "compiled":
        assert found["kernel"] == "pure", found["why"]
    if os.environ.get("COUP_EXPECT_COMPILED") == "1":  # make test, where a C compiler is
        assert found["core"] == found["kernel"] == "compiled", found["why"]
        assert not found["file"].endswith(".py")
