"""This server process as the table service's parts know it: its id (in bus messages,
presence and spectator rows), its counters, and whether it is closing.

Every part gets this one small object, never the service: the counters are logged every
30 s when `COUP_CLUSTER_STATS` is set (`presence.py`), and a closing process stops telling
the others and arming clocks.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field

COUNTERS = ("conflicts", "claims", "refreshes", "rebuilds", "applied", "missed", "plain_in",
            "sent_moves", "sent_plain")  # fmt: skip


@dataclass
class ThisProcess:
    id: str = field(default_factory=lambda: secrets.token_hex(8))
    stats: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNTERS, 0))
    log_stats: bool = field(default_factory=lambda: bool(os.environ.get("COUP_CLUSTER_STATS")))
    closing: bool = False
