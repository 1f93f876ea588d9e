"""What processes of this machine use, read from /proc: resident memory and CPU time
(the load tools' report of the servers, PostgreSQL and Redis)."""

from __future__ import annotations

import os
from pathlib import Path


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int, *, children: bool = False) -> float:
    """User + system CPU time of a process so far (and of its children that ended)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])
        if children:
            ticks += int(fields[13]) + int(fields[14])
        return ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


SERVICES = {"postgres": "postgres", "redis-server": "redis"}


def services_cpu() -> dict[str, float]:
    """CPU seconds so far of this machine's PostgreSQL and Redis processes (they share the
    cores with the servers and the load generator). A PostgreSQL backend that ends is
    counted in its parent's children's time, so a closed connection is not lost."""
    out = dict.fromkeys(SERVICES.values(), 0.0)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                name = SERVICES.get((entry / "comm").read_text().strip())
            except OSError:
                continue
            if name is not None:
                out[name] += cpu_seconds(int(entry.name), children=True)
    return out


def rss_total(pids: list[int]) -> int:
    return sum(rss_kib(pid) for pid in pids)
