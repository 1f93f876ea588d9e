"""Fixtures for the server tests: real `coup serve` processes on loopback ports."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """One `coup serve` process; `kill()` is a kill -9, `start()` starts it again."""

    def __init__(self, db: str, *args: str, log: Path | None = None) -> None:
        self.db = db
        self.log = log or Path(f"/tmp/coup-test-server-{os.getpid()}-{id(self)}.log")
        self.args = list(args)
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        cmd = [sys.executable, "-m", "coup", "serve", "--port", str(self.port), "--db", self.db]
        self.proc = subprocess.Popen(
            [*cmd, "--bot-delay", "0", *self.args],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=self.log.open("ab"),
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.log.read_text(errors="replace")[-2000:]
                raise RuntimeError(f"coup serve exited: {err}")
            try:
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("coup serve did not start")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("server") / "coup.db"
    proc = ServerProcess(f"sqlite:///{db}", log=db.parent / "server.log").start()
    yield proc
    proc.stop()
    problems = [
        line
        for line in proc.log.read_text(errors="replace").splitlines()
        if "Traceback" in line or "ERROR" in line
    ]
    assert not problems, proc.log.read_text(errors="replace")[-4000:]


@pytest.fixture(scope="session")
def base(server: ServerProcess) -> str:
    return server.base


def postgres_url() -> str:
    return os.environ.get("COUP_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


@pytest.fixture
def server_process() -> type[ServerProcess]:
    """The ServerProcess class, for tests that start (and kill) their own servers."""
    return ServerProcess
