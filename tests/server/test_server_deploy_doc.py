"""docs/deploy.md's nginx example asks of the proxy what the server itself takes: its body
sizes are the server's limits (read back from the example)."""

from __future__ import annotations

import re
from pathlib import Path

from coup.server.protocol import MAX_HTTP_BODY
from coup.server.replay_job import MAX_RECORD

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def nginx() -> str:
    text = DEPLOY.read_text()
    blocks = re.findall(r"```nginx\n(.*?)```", text, re.DOTALL)
    assert blocks
    return "\n".join(blocks)


def locations(config: str) -> dict[str, str]:
    """Each `location` block's text, by its path (`= /api/replay` for an exact one)."""
    found: dict[str, str] = {}
    for match in re.finditer(r"location\s+([^{]+?)\s*\{(.*?)\n    \}", config, re.DOTALL):
        found[match.group(1).strip()] = match.group(2)
    return found


def kib(value: str) -> int:
    number, unit = re.fullmatch(r"(\d+)([kKmM]?)", value).groups()  # type: ignore[union-attr]
    return int(number) * {"": 1, "k": 1024, "m": 1024 * 1024}[unit.lower()]


def body_size(block: str) -> int:
    sizes = re.findall(r"client_max_body_size\s+(\w+);", block)
    assert len(sizes) == 1, block
    return kib(sizes[0])


def test_the_proxys_body_sizes_are_the_servers() -> None:
    blocks = locations(nginx())
    assert body_size(blocks["/"]) == MAX_HTTP_BODY
    assert body_size(blocks["= /api/replay"]) == MAX_RECORD
