"""Server processes for the load tools: one `coup serve` on SQLite, or N on PostgreSQL and
Redis, all on loopback ports, with a fresh database (and Redis channel) of their own that
is dropped at the end."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import os
import secrets
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from tools.load.process import ServerProcess, WorkerProcess


def loopback(url: str) -> bool:
    """Whether `url` points at this machine (the load tools never aim elsewhere)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def admin_sql(url: str, sql: str) -> None:
    """Run one statement on the PostgreSQL at `url`, outside a transaction (for CREATE
    and DROP DATABASE)."""
    import asyncpg  # type: ignore[import-untyped]

    async def go() -> None:
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(go())


def make_database(base: str, prefix: str) -> tuple[str, str]:
    """A new, empty database on the server of `base`: (its name, its URL)."""
    name = f"{prefix}_{secrets.token_hex(5)}"
    admin_sql(base, f"CREATE DATABASE {name}")
    return name, base.rsplit("/", 1)[0] + "/" + name


def drop_database(base: str, name: str) -> None:
    admin_sql(base, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def fresh_channel(bus: str, prefix: str) -> str:
    """`bus` (a redis:// URL) with a channel prefix of its own, so that its messages reach
    no other site on the same Redis."""
    return bus + ("&" if "?" in bus else "?") + f"channel={prefix}-{secrets.token_hex(5)}"


@dataclass
class Fleet:
    """`count` server processes sharing one database and one bus."""

    db: str  # "sqlite" or a postgresql:// URL whose database is used to make a fresh one
    bus: str = "memory://"
    count: int = 1
    args: list[str] = field(default_factory=list)
    cpu: float = 0.0  # if > 0: each process capped at this many cores (a Linux cgroup)
    workers: int = 0  # with Redis: `coup worker` processes (one bot process each)
    worker_cpu: float = 0.0  # if > 0: each worker (with its pool) capped at this many cores
    checkout: Path | None = None  # the servers run this source tree (None: this one)
    servers: list[ServerProcess] = field(default_factory=list)
    worker_processes: list[WorkerProcess] = field(default_factory=list)
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="coup-load-")))
    db_url: str = ""
    _made_db: str | None = None
    _cgroups: list[Path] = field(default_factory=list)
    _server_groups: list[Path] = field(default_factory=list)

    @property
    def urls(self) -> list[str]:
        return [s.base for s in self.servers]

    @property
    def pids(self) -> list[int]:
        return [s.pid for s in self.servers]

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
            self._made_db, self.db_url = make_database(self.db, "coup_load")
            if os.environ.get("COUP_LOAD_ASYNC_COMMIT"):  # experiment: no fsync wait per commit
                admin_sql(self.db, f"ALTER DATABASE {self._made_db} SET synchronous_commit = off")
        bus = self.bus
        if bus.startswith("redis"):
            if not loopback(bus):
                raise ValueError("the load tools only use a Redis on this machine")
            bus = fresh_channel(bus, "coup-load")
        if self.workers and not bus.startswith("redis"):
            raise ValueError("coup worker processes take their work from Redis: --bus redis://")
        for i in range(self.workers):
            worker = WorkerProcess(bus, "--processes", "1", log=self.workdir / f"worker{i}.log")
            worker.checkout = self.checkout
            proc = worker.spawn()
            if self.worker_cpu > 0:  # before its pool starts: its processes stay in the group
                group = cpu_cgroup(self.worker_cpu)
                self._cgroups.append(group)
                (group / "cgroup.procs").write_text(str(proc.pid))
            self.worker_processes.append(worker)
        for worker in self.worker_processes:
            worker.wait_ready(60)
        if self.cpu > 0:
            self._server_groups = [cpu_cgroup(self.cpu) for _ in range(self.count)]
            self._cgroups += self._server_groups
        self.servers = [
            ServerProcess(
                self.db_url,
                "--no-address-limits",
                *self.args,
                bus=bus,
                log=self.workdir / f"server{i}.log",
                checkout=self.checkout,
            )
            for i in range(self.count)
        ]
        self._spawn_all()

    def _spawn_all(self) -> None:
        for i, server in enumerate(self.servers):
            proc = server.spawn()
            if self._server_groups:
                (self._server_groups[i] / "cgroup.procs").write_text(str(proc.pid))
        for server in self.servers:
            server.wait_ready(60)

    def kill_all(self) -> None:
        """kill -9 every process (the soak's durability check), then start them again."""
        for server in self.servers:
            server.kill()
        self._spawn_all()

    def alive(self) -> bool:
        return all(s.alive() for s in self.servers)

    def problems(self) -> list[str]:
        return [line for s in self.servers for line in s.problems()]

    def stop(self) -> None:
        for server in self.servers:
            server.stop()
        for worker in self.worker_processes:
            worker.stop()
        if self._made_db is not None:
            with contextlib.suppress(Exception):
                drop_database(self.db, self._made_db)
            self._made_db = None
        for group in self._cgroups:
            with contextlib.suppress(OSError):
                group.rmdir()
        self._cgroups, self._server_groups = [], []


def server_args(args: argparse.Namespace) -> list[str]:
    """The servers' own options that the load's options imply."""
    delay = args.bot_delay or ("0" if not args.bot_tables else None)
    extra = ["--bot-delay", delay] if delay else []
    if args.ws_compression:
        extra.append("--ws-compression")
    if args.no_ws_compression:
        extra.append("--no-ws-compression")
    if args.workers is not None and not args.bus.startswith("redis"):
        extra += ["--workers", str(args.workers)]
    return extra


def start_fleet(args: argparse.Namespace) -> Fleet | None:
    """The servers (and workers) the options ask for, started; None after saying why."""
    try:
        redis = args.bus.startswith("redis")
        return Fleet(
            args.db, args.bus, args.servers, server_args(args), cpu=args.server_cpu,
            workers=(1 if args.workers is None else args.workers) if redis else 0,
            worker_cpu=args.worker_cpu, checkout=args.server_checkout,
        ).start()  # fmt: skip
    except (ValueError, RuntimeError, OSError) as exc:
        print(f"coup loadtest: {exc}", file=sys.stderr)
        return None


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
