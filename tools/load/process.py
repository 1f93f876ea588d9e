"""One `coup serve` in a subprocess on a loopback port: what the load tools and the
tests start, kill -9 and start again."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """`coup serve --db DB [--bus BUS] ARGS` on a fixed free port (so that it can be
    started again where its clients expect it), its stderr appended to `log`."""

    def __init__(
        self,
        db: str,
        *args: str,
        bus: str | None = None,
        log: Path | None = None,
        port: int | None = None,
        checkout: Path | None = None,
    ) -> None:
        self.db, self.bus, self.args = db, bus, list(args)
        # the source tree it runs (another checkout's code, with its own .venv if it has
        # one: `coup loadtest --against`); None: this one
        self.checkout = checkout
        self.log = log or Path(tempfile.mkdtemp(prefix="coup-serve-")) / "server.log"
        self.port = port or free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def root(self) -> Path:
        return self.checkout or Path(__file__).resolve().parents[2]

    @property
    def python(self) -> str:
        venv = self.root / ".venv" / "bin" / "python"
        return str(venv) if self.checkout is not None and venv.exists() else sys.executable

    def command(self) -> list[str]:
        cmd = [self.python, "-m", "coup", "serve", "--port", str(self.port), "--db", self.db]
        if self.bus is not None:
            cmd += ["--bus", self.bus]
        return [*cmd, *self.args]

    def spawn(self) -> subprocess.Popen[bytes]:
        """Start the process without waiting for it to answer."""
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                self.command(),
                cwd=self.root,
                stdout=subprocess.DEVNULL,
                stderr=log,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        return self.proc

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.proc is None or self.proc.poll() is not None:
                tail = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
                raise RuntimeError(f"coup serve exited: {tail}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.base + "/healthz", timeout=2).status_code == 200:
                    return
            if time.monotonic() > deadline:
                raise RuntimeError("coup serve did not start")
            time.sleep(0.1)

    def start(self) -> ServerProcess:
        self.spawn()
        self.wait_ready()
        return self

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        """kill -9: no clean shutdown, like a crash."""
        if self.alive():
            assert self.proc is not None
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def stop(self) -> None:
        if self.alive():
            assert self.proc is not None
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def problems(self) -> list[str]:
        """Log lines with a traceback or an error (there should be none)."""
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return [line for line in text.splitlines() if "Traceback" in line or "ERROR" in line]


class WorkerProcess(ServerProcess):
    """`coup worker --bus BUS ARGS`: the bots' and the coach's work for the servers on
    that Redis (no port; ready once it has told Redis it is alive: give it a moment)."""

    def __init__(self, bus: str, *args: str, log: Path | None = None) -> None:
        super().__init__("", *args, bus=bus, log=log)

    def command(self) -> list[str]:
        return [self.python, "-m", "coup", "worker", "--bus", str(self.bus), *self.args]

    def wait_ready(self, timeout: float = 30) -> None:
        """Wait until the worker's pool processes are up (its children exist)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc is None or self.proc.poll() is not None:
                raise RuntimeError(f"coup worker exited; see {self.log}")
            if self.children():
                time.sleep(0.5)  # their imports, and the worker's first word to Redis
                return
            time.sleep(0.05)
        raise RuntimeError(f"coup worker did not start in {timeout:.0f} s; see {self.log}")

    def start(self) -> WorkerProcess:
        self.spawn()
        self.wait_ready()
        return self

    def children(self) -> list[int]:
        """Its pool's processes (Linux's /proc)."""
        out: list[int] = []
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{self.pid}/task"):
                with open(f"/proc/{self.pid}/task/{task}/children") as f:
                    out += [int(p) for p in f.read().split()]
        return out
