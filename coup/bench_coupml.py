"""The yardstick for `coup bench`: coupml (PyPI), measured the same way in its own venv.

coupml is installed into a throwaway virtual environment (cached under
``~/.cache/coup-bench``, or a temporary folder) and driven by a small script that plays
uniformly random legal moves — the same method `coup bench` uses on our engine — and
prints its decisions and games per second as JSON. Nothing of coupml is imported here or
shipped with this project.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

#: The version compared against (pinned so that runs compare).
PACKAGE = "coupml==0.1.1"

# coupml wants an object with numpy's RandomState interface (choice, shuffle, rand);
# this adapter gives it Python's `random`, the generator our side uses too.
DRIVER = r"""
import json, random, statistics, sys, time
from importlib.metadata import version
from coupml import Coup

class Rng:
    def __init__(self, seed):
        self.r = random.Random(seed)
    def choice(self, items):
        return self.r.randrange(items) if isinstance(items, int) else self.r.choice(items)
    def shuffle(self, items):
        self.r.shuffle(items)
    def rand(self):
        return self.r.random()

players, games, repetitions, seed = (int(a) for a in sys.argv[1:5])
runs = []
for rep in range(repetitions):
    rng = Rng(seed + rep)
    decisions = 0
    start = time.perf_counter()
    for _ in range(games):
        game = Coup(players, rng)
        game.init_game()
        while not game.is_game_over():
            game.play_action(rng.choice(game.get_legal_actions()))
            decisions += 1
    elapsed = time.perf_counter() - start
    runs.append((decisions / elapsed, games / elapsed, decisions / games))
print(json.dumps({
    "version": version("coupml"),
    "python": sys.version.split()[0],
    "players": players,
    "decisions_per_s": statistics.median(r[0] for r in runs),
    "games_per_s": statistics.median(r[1] for r in runs),
    "decisions_per_game": statistics.median(r[2] for r in runs),
}))
"""


class CoupmlUnavailable(Exception):
    """coupml could not be installed or run; the message says why."""


def venv_folder() -> Path:
    """Where the throwaway venv lives: the user's cache if writable, else a temp folder."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "coup-bench"
    try:
        cache.mkdir(parents=True, exist_ok=True)
        if os.access(cache, os.W_OK):
            return cache / "coupml-venv"
    except OSError:
        pass
    return Path(tempfile.gettempdir()) / "coup-bench-coupml-venv"


def _run(cmd: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired as e:
        raise CoupmlUnavailable(f"{Path(cmd[0]).name} timed out after {timeout:g} s") from e
    except OSError as e:
        raise CoupmlUnavailable(f"could not run {cmd[0]}: {e.strerror}") from e


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip() if lines else "no output"


def ensure_venv(log: Any = None) -> Path:
    """The venv's python with coupml installed (installing it on first use)."""
    folder = venv_folder()
    python = folder / "bin" / "python"
    if python.exists():
        check = _run([str(python), "-c", "import coupml"], 60)
        if check.returncode == 0:
            return python
    if log is not None:
        log(f"installing {PACKAGE} into {folder} …")
    made = _run([sys.executable, "-m", "venv", "--clear", str(folder)], 180)
    if made.returncode != 0:
        raise CoupmlUnavailable(f"could not create a venv: {_last_line(made.stderr)}")
    pip = [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", PACKAGE]
    installed = _run(pip, 300)
    if installed.returncode != 0:
        raise CoupmlUnavailable(f"pip install {PACKAGE} failed: {_last_line(installed.stderr)}")
    return python


def measure(
    players: int, games: int, repetitions: int, seed: int, log: Any = None
) -> dict[str, Any]:
    """coupml's random-play speed: decisions/s, games/s (medians), decisions/game."""
    python = ensure_venv(log)
    with tempfile.NamedTemporaryFile("w", suffix="_coupml_driver.py", delete=False) as f:
        f.write(DRIVER)
        driver = f.name
    try:
        args = [str(python), driver, str(players), str(games), str(repetitions), str(seed)]
        proc = _run(args, 900)
    finally:
        os.unlink(driver)
    if proc.returncode != 0:
        raise CoupmlUnavailable(f"the coupml driver failed: {_last_line(proc.stderr)}")
    try:
        result: dict[str, Any] = json.loads(_last_line(proc.stdout))
    except ValueError as e:
        raise CoupmlUnavailable(f"the coupml driver printed no JSON: {e}") from e
    return result
