"""Who a request comes from, as the per-address limits count it, and which peers are
trusted proxies.

An IPv4 address is one client. An IPv6 client usually holds a whole /64 (its router hands
out addresses from it at will), so IPv6 addresses are counted by their /64: otherwise one
host would have more addresses than any table of limits has room for. An IPv4 address
written as IPv6 (`::ffff:203.0.113.7`) is that IPv4 address.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import Any

#: The prefix length by which IPv6 clients are counted.
IPV6_PREFIX = 64
#: uvicorn's default: only a proxy on this machine may say who the client is.
LOCAL_PROXIES = "127.0.0.1,::1"


def address_key(host: str | None) -> str:
    """The key one client's limits are counted under: its IPv4 address, its IPv6 /64;
    a host that is no IP address (a test client, a unix socket) counts as itself."""
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return str(ip)


def client_key(scope: Mapping[str, Any]) -> str:
    """An ASGI request's client key (after uvicorn took the trusted proxy's word for it)."""
    client = scope.get("client")
    return address_key(client[0] if client else None)


class Proxies:
    """The peers trusted to say who the client is (`--forwarded-allow-ips`): addresses and
    networks separated by commas, or `*` for any."""

    def __init__(self, spec: str = LOCAL_PROXIES) -> None:
        self.spec = spec
        self.anyone = False
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for item in (part.strip() for part in spec.split(",")):
            if item == "*":
                self.anyone = True
            elif item:
                try:
                    self.networks.append(ipaddress.ip_network(item, strict=False))
                except ValueError:
                    raise ValueError(f"not an IP address or network: {item!r}") from None

    def trusted(self, host: str | None) -> bool:
        if self.anyone:
            return True
        if not host:
            return False
        try:
            ip = ipaddress.ip_address(host.split("%", 1)[0])
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in network for network in self.networks)
