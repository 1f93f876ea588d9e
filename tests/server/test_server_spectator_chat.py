"""Spectator chat (docs/protocol.md): off until the host turns it on; limited per address
(however many sockets it opens) and per table; seated players' names, and names that
look like them, are theirs. A person cannot sit under a seated player's look-alike."""

from __future__ import annotations

from coup.server.chat import WATCHER_BURST, WATCHERS_BURST
from coup.server.protocol import ProtocolError
from coup.server.service import TableService


async def refused(call: object) -> str:
    try:
        await call  # type: ignore[misc]
    except ProtocolError as e:
        return e.code
    raise AssertionError("not refused")


async def test_spectator_lines_are_limited_per_address_and_per_table(
    service: TableService,
) -> None:
    table, _, _ = await service.create("Host", None)
    assert await refused(service.watcher_chat(table, "Dara", "hi", "203.0.113.7")) == "chat_off"
    await service.change_settings(table, {"spectator_chat": True})
    for i in range(WATCHER_BURST):  # one address, any number of sockets: one budget
        await service.watcher_chat(table, f"Dara{i}", "hi", "203.0.113.7")
    code = await refused(service.watcher_chat(table, "Dara", "hi", "203.0.113.7"))
    assert code == "rate_limited"
    for i in range(WATCHERS_BURST - WATCHER_BURST):  # another address, until the table's
        await service.watcher_chat(table, "Ziba", "hi", "2001:db8::/64")
    code = await refused(service.watcher_chat(table, "Omid", "hi", "198.51.100.1"))
    assert code == "rate_limited"
    assert len(table.chat) == WATCHERS_BURST


async def test_seated_names_and_their_look_alikes_are_taken(service: TableService) -> None:
    table, _, _ = await service.create("Host", None)
    await service.change_settings(table, {"spectator_chat": True})
    await service.join(table, "Sepideh", None)
    for name in ("Host", "ＨＯＳＴ", "Ηost", "host", "sepideh", "Sеpideh"):  # Greek Eta, Cyrillic e
        assert await refused(service.join(table, name, None)) == "name_taken"
        assert await refused(service.watcher_chat(table, name, "hi", "a")) == "name_taken"
    assert [s.name for s in table.seats if s is not None] == ["Host", "Sepideh"]
    await service.join(table, "Hosta", None)
    await service.watcher_chat(table, "Dara", "hi", "a")
