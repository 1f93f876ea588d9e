"""docs/deploy.md's nginx lines ask of the proxy what the server itself takes (read back
from the examples): body sizes, connections and requests per address, time limits, HSTS;
its *Security* section names the server's limits."""

from __future__ import annotations

import re
from pathlib import Path

from coup.server.address_limits import SOCKETS_PER_ADDRESS
from coup.server.gate import BODY_SECONDS, CONNECTIONS_PER_ADDRESS, HEAD_SECONDS
from coup.server.protocol import MAX_HTTP_BODY
from coup.server.rate_limits import BUDGETS
from coup.server.replay_job import MAX_RECORD, MAX_REPLAY_MOVES

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


def directive(config: str, name: str) -> list[str]:
    found = re.findall(rf"^\s*{name}\s+([^;]+);", config, re.MULTILINE)
    assert found, name
    return [f.strip() for f in found]


def test_the_proxy_limits_each_address_as_the_server_does() -> None:
    config = nginx()
    zone = directive(config, "limit_conn_zone")[0]
    assert "$binary_remote_addr" in zone
    name = re.search(r"zone=(\w+):", zone).group(1)  # type: ignore[union-attr]
    assert directive(config, "limit_conn") == [f"{name} {CONNECTIONS_PER_ADDRESS}"]
    req_zone = directive(config, "limit_req_zone")[0]
    rate = re.search(r"rate=(\d+)r/s", req_zone).group(1)  # type: ignore[union-attr]
    assert int(rate) == BUDGETS["get"].refill
    burst = re.search(r"burst=(\d+)", directive(config, "limit_req")[0]).group(1)  # type: ignore[union-attr]
    assert int(burst) == BUDGETS["get"].burst
    assert directive(config, "client_header_timeout") == [f"{HEAD_SECONDS:.0f}s"]
    assert directive(config, "client_body_timeout") == [f"{BODY_SECONDS:.0f}s"]
    hsts = directive(config, "add_header")
    assert any(h.startswith("Strict-Transport-Security") for h in hsts)
    age = re.search(r"max-age=(\d+)", " ".join(hsts)).group(1)  # type: ignore[union-attr]
    assert int(age) >= 365 * 24 * 3600
    sizes = directive(config, "client_max_body_size")
    assert set(sizes) == {"8k", "256k"}


def test_the_security_section_names_the_limits() -> None:
    text = DEPLOY.read_text()
    security = text.split("## Security", 1)[1].split("\n## ", 1)[0]
    for figure in (
        f"{CONNECTIONS_PER_ADDRESS} open per address",
        f"{HEAD_SECONDS:.0f} s from the connection",
        f"{BODY_SECONDS:.0f} s after its head",
        f"{SOCKETS_PER_ADDRESS} open at once",
        f"{MAX_REPLAY_MOVES:,} moves",
        "pip-audit",
    ):
        assert figure in security, figure
