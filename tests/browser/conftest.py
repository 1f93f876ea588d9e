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


class ServerProcess:
    """`coup serve` in a subprocess: a fixed port and database, so it can be killed and
    started again on the same table (the page must reconnect and lose nothing)."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        self.folder = folder
        self.port = port or _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        exe = ROOT / ".venv" / "bin" / "coup"
        cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "coup"]
        cmd += ["serve", "--port", str(self.port), "--db", f"sqlite:///{self.folder / 'coup.db'}"]
        cmd += ["--bot-delay", "0.05,0.15"]
        with open(self.folder / "server.log", "ab") as log:
            self.proc = subprocess.Popen(
                cmd,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        _wait_healthy(self.url, self.proc)

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, like a crash."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


def _need_chromium() -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start `coup serve` on a free port with a fresh SQLite file and fast bots."""
    _need_chromium()
    proc = ServerProcess(tmp_path_factory.mktemp("coup-web"))
    proc.start()
    try:
        yield proc.url
    finally:
        proc.stop()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of the test's own, which the test may kill and restart."""
    _need_chromium()
    proc = ServerProcess(tmp_path)
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[object]:
    # Module scope, not session: Playwright's sync API keeps an event loop running in
    # this thread while it is open, and the asyncio tests that run later need none.
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()
