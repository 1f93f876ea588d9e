"""The compiled rules core and the pure-Python one: chosen as documented, same games.

`make test` runs the whole suite on the compiled core (where a C compiler built it) and the
rules and record tests again with ``COUP_PURE=1``; this file checks the choice itself and
that both cores play the same seeds to the same views, legal moves, determinized worlds and
records (`cores_play.py`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from coup.rules import core

PLAYER = Path(__file__).with_name("cores_play.py")


def run(code: list[str], pure: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != core.PURE_VARIABLE}
    if pure:
        env[core.PURE_VARIABLE] = "1"
    return subprocess.run(
        [sys.executable, *code], capture_output=True, text=True, check=True, env=env
    )


def loaded(pure: bool) -> dict[str, Any]:
    code = (
        "import json, coup, coup.rules.state as s, coup.rules.core as c\n"
        "print(json.dumps({'core': c.CORE, 'why': c.WHY, 'file': s.__file__}))"
    )
    return dict(json.loads(run(["-c", code], pure).stdout))


def compiled_available() -> bool:
    return bool(loaded(pure=False)["core"] == "compiled")


def test_the_environment_variable_forces_the_pure_modules() -> None:
    found = loaded(pure=True)
    assert found["core"] == "pure" and found["file"].endswith("state.py")
    assert core.PURE_VARIABLE in found["why"]


def test_the_compiled_core_runs_where_it_was_built() -> None:
    found = loaded(pure=False)
    if os.environ.get("COUP_EXPECT_COMPILED") == "1":  # make test, where a C compiler is
        assert found["core"] == "compiled", found["why"]
    if found["core"] != "compiled":
        pytest.skip(f"no compiled core here: {found['why']}")
    assert not found["file"].endswith(".py")


def test_both_cores_play_the_same_seeds_to_the_same_views_and_records() -> None:
    if not compiled_available():
        pytest.skip("no compiled core here: nothing to compare the pure core with")
    compiled = run([str(PLAYER)], pure=False).stdout.splitlines()
    pure = run([str(PLAYER)], pure=True).stdout.splitlines()
    assert json.loads(compiled[0]) == {"core": "compiled"}
    assert json.loads(pure[0]) == {"core": "pure"}
    assert len(compiled) == len(pure) > 1
    for ours, theirs in zip(compiled[1:], pure[1:], strict=True):
        a, b = json.loads(ours), json.loads(theirs)
        table = a["table"]
        assert a["table"] == b["table"]
        for i, (x, y) in enumerate(zip(a["steps"], b["steps"], strict=False)):
            assert x == y, f"{table}: the cores differ at decision {i}"
        assert len(a["steps"]) == len(b["steps"]), f"{table}: games of different lengths"
        for key in ("record", "final", "replayed", "verified"):
            assert a[key] == b[key], f"{table}: {key} differs"


def test_copies_and_pickles_keep_every_setting_and_the_game() -> None:
    import copy
    import pickle

    import coup

    state = coup.new_game(players=3, seed=4, characters="inquisitor", copies=4, treasury=40,
                          first=2, reformation=True)  # fmt: skip
    state.play(2, "allegiance reformist")
    for twin in (copy.copy(state.settings), pickle.loads(pickle.dumps(state.settings))):
        assert twin == state.settings and twin.reformation
    assert pickle.loads(pickle.dumps(state.deal)) == state.deal
    again = pickle.loads(pickle.dumps(state))
    assert again.view(None) == state.view(None) and again.record() == state.record()
