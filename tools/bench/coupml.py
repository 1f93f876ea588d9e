"""The yardstick for `coup bench`: coupml (PyPI), measured the same way in its own venv.

coupml is installed into a throwaway virtual environment (cached under
``~/.cache/coup-bench``, or a temporary folder) and driven by a small script that plays
uniformly random legal moves — the same method `coup bench` uses on our engine — and
prints its decisions and games per second (CPU time) as JSON, one run per request, so
that `coup bench` can alternate its runs with ours. Nothing of coupml is imported here or
shipped with this project.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

#: The version compared against (pinned so that runs compare).
PACKAGE = "coupml==0.1.1"
#: Optional: coupml's README drives it with numpy's RandomState; measured too if present.
NUMPY = "numpy==2.4.6"

# coupml wants an object with numpy's RandomState interface (choice, shuffle, rand);
# this adapter gives it Python's `random`, the generator our side uses too.
DRIVER = r"""
import json, random, sys, time
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

try:
    import numpy
except ImportError:
    numpy = None

players, games, seed = (int(a) for a in sys.argv[1:4])
info = {"version": version("coupml"), "python": sys.version.split()[0], "numpy": bool(numpy)}
print(json.dumps(info), flush=True)
for rep, line in enumerate(sys.stdin):  # one run of `games` games per line read
    if line.strip() == "numpy":  # as coupml's README drives it
        rng = numpy.random.RandomState(seed + rep)
    else:
        rng = Rng(seed + rep)
    decisions = forced = 0
    start = time.process_time()
    for _ in range(games):
        game = Coup(players, rng)
        game.init_game()
        while not game.is_game_over():
            actions = game.get_legal_actions()
            if len(actions) == 1:
                forced += 1
            game.play_action(rng.choice(actions))
            decisions += 1
    elapsed = max(time.process_time() - start, 1e-9)
    print(json.dumps([decisions / elapsed, games / elapsed, decisions / games,
                      (decisions - forced) / elapsed]), flush=True)
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
    """The venv's python with coupml installed (installing it on first use), and numpy
    if it can be had (tried once)."""
    folder = venv_folder()
    python = folder / "bin" / "python"
    if not (python.exists() and _run([str(python), "-c", "import coupml"], 60).returncode == 0):
        _install_coupml(folder, python, log)
    marker = folder / ".numpy-tried"
    if not marker.exists() and _run([str(python), "-c", "import numpy"], 60).returncode != 0:
        if log is not None:
            log(f"installing {NUMPY} there too (optional, tried once) …")
        if _run([*pip_install(python), NUMPY], 300).returncode != 0 and log is not None:
            log("numpy could not be installed: coupml is measured with Python's random only")
        marker.touch()
    return python


def pip_install(python: Path) -> list[str]:
    return [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check"]


def _install_coupml(folder: Path, python: Path, log: Any) -> None:
    if log is not None:
        log(f"installing {PACKAGE} into {folder} …")
    made = _run([sys.executable, "-m", "venv", "--clear", str(folder)], 180)
    if made.returncode != 0:
        raise CoupmlUnavailable(f"could not create a venv: {_last_line(made.stderr)}")
    installed = _run([*pip_install(python), PACKAGE], 300)
    if installed.returncode != 0:
        raise CoupmlUnavailable(f"pip install {PACKAGE} failed: {_last_line(installed.stderr)}")


class Driver:
    """coupml playing in its venv, one run of `games` random games per `run()` call, so
    that its runs can alternate with ours (both then see the same machine load)."""

    def __init__(self, players: int, games: int, seed: int, log: Any = None) -> None:
        python = ensure_venv(log)
        self.folder = Path(tempfile.mkdtemp(prefix="coup-bench-"))
        script = self.folder / "coupml_driver.py"
        script.write_text(DRIVER, encoding="utf-8")
        args = [str(python), str(script), str(players), str(games), str(seed)]
        try:
            self.proc = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        except OSError as e:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise CoupmlUnavailable(f"could not start the coupml driver: {e.strerror}") from e
        try:
            self.info: dict[str, Any] = self._read()
        except CoupmlUnavailable:
            self.close()
            raise

    def _read(self) -> Any:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait(10)
            err = self.proc.stderr.read() if self.proc.stderr else ""
            raise CoupmlUnavailable(f"the coupml driver failed: {_last_line(err)}")
        try:
            return json.loads(line)
        except ValueError as e:
            raise CoupmlUnavailable(f"the coupml driver printed {line.strip()!r}") from e

    def run(self, numpy: bool = False) -> tuple[float, float, float, float]:
        """(decisions/s, games/s, decisions/game, choices/s) of one run, in CPU time;
        choices are decisions with more than one legal move (our engine plays the
        others itself and does not count them). `numpy`: drive coupml with numpy's
        RandomState, as its README does (if `info["numpy"]`)."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write("numpy\n" if numpy else "go\n")
            self.proc.stdin.flush()
        except OSError as e:
            raise CoupmlUnavailable(f"the coupml driver stopped: {e}") from e
        dps, gps, dpg, cps = self._read()
        return float(dps), float(gps), float(dpg), float(cps)

    def close(self) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        shutil.rmtree(self.folder, ignore_errors=True)
