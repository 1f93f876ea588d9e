"""Fixtures for the browser tests: the real server in a subprocess and Debian's Chromium."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from browser_driver import CHROMIUM, CHROMIUM_ARGS

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 20.0) -> None:
    import urllib.request

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"coup serve exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1) as res:
                if res.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("coup serve did not become healthy")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start `coup serve` on a free port with a fresh SQLite file and fast bots."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed")
    tmp = tmp_path_factory.mktemp("coup-web")
    port = _free_port()
    exe = ROOT / ".venv" / "bin" / "coup"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "coup"]
    cmd += [
        "serve",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{tmp / 'coup.db'}",
        "--bot-delay",
        "0.05,0.15",
    ]
    url = f"http://127.0.0.1:{port}"
    with open(tmp / "server.log", "wb") as log:
        proc = subprocess.Popen(
            cmd,
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            _wait_healthy(url, proc)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


@pytest.fixture(scope="session")
def browser(server: str) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
