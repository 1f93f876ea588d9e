"""Server processes for the load tools: one `coup serve` on SQLite, or N on PostgreSQL and
Redis, all on loopback ports, with a fresh database (and Redis channel) of their own that
is dropped at the end."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import httpx


def loopback(url: str) -> bool:
    """Whether `url` points at this machine (the load tools never aim elsewhere)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _admin(url: str, sql: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    async def go() -> None:
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(go())


@dataclass
class Fleet:
    """`count` server processes sharing one database and one bus."""

    db: str  # "sqlite" or a postgresql:// URL whose database is used to make a fresh one
    bus: str = "memory://"
    count: int = 1
    args: list[str] = field(default_factory=list)
    procs: list[subprocess.Popen[bytes]] = field(default_factory=list)
    ports: list[int] = field(default_factory=list)
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="coup-load-")))
    db_url: str = ""
    cpu: float = 0.0  # if > 0: each process capped at this many cores (a Linux cgroup)
    _made_db: str | None = None
    _cgroups: list[Path] = field(default_factory=list)

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{p}" for p in self.ports]

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def logs(self) -> list[Path]:
        return [self.workdir / f"server{i}.log" for i in range(self.count)]

    def start(self) -> Fleet:
        """Make the database, start the processes and wait until they answer; on any
        failure, undo what was done and raise."""
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self) -> None:
        if self.db == "sqlite":
            if self.count != 1:
                raise ValueError("SQLite serves one process; use --db postgresql://... for more")
            self.db_url = f"sqlite:///{self.workdir / 'coup.db'}"
        else:
            if not loopback(self.db):
                raise ValueError("the load tools only use a database on this machine")
            name = f"coup_load_{secrets.token_hex(5)}"
            _admin(self.db, f"CREATE DATABASE {name}")
            self._made_db = name
            if os.environ.get("COUP_LOAD_ASYNC_COMMIT"):  # experiment: no fsync wait per commit
                _admin(self.db, f"ALTER DATABASE {name} SET synchronous_commit = off")
            self.db_url = self.db.rsplit("/", 1)[0] + "/" + name
        bus = self.bus
        if bus.startswith("redis"):
            if not loopback(bus):
                raise ValueError("the load tools only use a Redis on this machine")
            bus += ("&" if "?" in bus else "?") + f"channel=coup-load-{secrets.token_hex(5)}"
        self.bus_url = bus
        if self.cpu > 0:
            self._cgroups = [cpu_cgroup(self.cpu) for _ in range(self.count)]
        self.ports = [free_port() for _ in range(self.count)]
        for i in range(self.count):
            self._spawn(i)
        self.wait_ready()

    def _spawn(self, i: int) -> None:
        cmd = [sys.executable, "-m", "coup", "serve", "--port", str(self.ports[i]),
               "--db", self.db_url, "--bus", self.bus_url, "--http-rate", "0", *self.args]  # fmt: skip
        log = self.logs()[i].open("ab")
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log)
        if self._cgroups:
            (self._cgroups[i] / "cgroup.procs").write_text(str(proc.pid))
        if i < len(self.procs):
            self.procs[i] = proc
        else:
            self.procs.append(proc)

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        for i, url in enumerate(self.urls):
            while True:
                if self.procs[i].poll() is not None:
                    tail = self.logs()[i].read_text(errors="replace")[-2000:]
                    raise RuntimeError(f"coup serve exited: {tail}")
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError("coup serve did not start")
                time.sleep(0.1)

    def kill_all(self) -> None:
        """kill -9 every process (the soak's durability check), then start them again."""
        for proc in self.procs:
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        for i in range(self.count):
            self._spawn(i)
        self.wait_ready()

    def alive(self) -> bool:
        return all(p.poll() is None for p in self.procs)

    def problems(self) -> list[str]:
        out = []
        for log in self.logs():
            if log.exists():
                text = log.read_text(errors="replace")
                out += [
                    line for line in text.splitlines() if "Traceback" in line or "ERROR" in line
                ]
        return out

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if self._made_db is not None:
            with contextlib.suppress(Exception):
                _admin(self.db, f"DROP DATABASE IF EXISTS {self._made_db} WITH (FORCE)")
            self._made_db = None
        for group in self._cgroups:
            with contextlib.suppress(OSError):
                group.rmdir()
        self._cgroups = []


CGROUPS = Path("/sys/fs/cgroup")


def cpu_cgroup(cores: float) -> Path:
    """A new Linux cgroup whose processes share at most `cores` of CPU time (cgroup v2's
    cpu.max or v1's CFS quota); needs root. The load tools use it to give every server
    process its own fixed share of a small machine, so that what a second process adds
    is measured apart from what the database and the load generator take."""
    name = f"coup-load-{secrets.token_hex(4)}"
    period = 100_000
    quota = max(1000, int(cores * period))
    try:
        if (CGROUPS / "cgroup.controllers").exists():  # v2
            with contextlib.suppress(OSError):
                (CGROUPS / "cgroup.subtree_control").write_text("+cpu")
            group = CGROUPS / name
            group.mkdir()
            (group / "cpu.max").write_text(f"{quota} {period}")
        else:  # v1
            group = CGROUPS / "cpu" / name
            group.mkdir()
            (group / "cpu.cfs_period_us").write_text(str(period))
            (group / "cpu.cfs_quota_us").write_text(str(quota))
    except OSError as exc:
        raise RuntimeError(f"cannot cap CPU with a cgroup (root on Linux only): {exc}") from exc
    return group
