"""The plain-numpy training example runs end to end and draws its curve."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_numpy.py"


def test_train_numpy_example_writes_a_png(tmp_path: Path) -> None:
    png = tmp_path / "curve.png"
    args = ["--episodes", "64", "--batch", "16", "--report", "2", "--random-games", "20"]
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), *args, "--png", str(png)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "win rate" in done.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
