"""The Redis bus, on a real Redis: one channel per table, heard only by the processes
that watch it (hold sockets there), and `watch` returns once Redis confirmed it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from coup.bus.redis import RedisBus
from coup.bus.resp import Subscriber

pytestmark = pytest.mark.timeout(60)


@contextlib.asynccontextmanager
async def _sender_and_hearer(
    sender_url: str, hearer_url: str
) -> AsyncIterator[tuple[RedisBus, RedisBus, list[tuple[str, str]]]]:
    """Two processes' buses, started; what the second one hears."""
    sender, hearer = RedisBus(sender_url), RedisBus(hearer_url)
    heard: list[tuple[str, str]] = []

    async def listener(table_id: str, message: str) -> None:
        heard.append((table_id, message))

    hearer.listen(listener)
    await sender.start()
    await hearer.start()
    try:
        yield sender, hearer, heard
    finally:
        await sender.close()
        await hearer.close()


@pytest.fixture
async def buses(bus: str) -> AsyncIterator[tuple[RedisBus, RedisBus, list[tuple[str, str]]]]:
    """Two processes on one site's channels."""
    async with _sender_and_hearer(bus, bus) as pair:
        yield pair


async def _subscribers_become(sender: RedisBus, table_id: str, count: int) -> None:
    for _ in range(100):
        numsub = await sender._redis.pubsub_numsub(sender._table_channel(table_id))
        if numsub[0][1] == count:
            return
        await asyncio.sleep(0.02)


async def _settle(heard: list[tuple[str, str]], count: int) -> None:
    for _ in range(100):
        if len(heard) >= count:
            return
        await asyncio.sleep(0.02)


async def test_a_process_hears_only_the_tables_it_watches(buses) -> None:
    sender, hearer, heard = buses
    await hearer.watch("table-a")
    # Confirmed by Redis when watch() returns: a message published now is heard.
    subscribers = await sender._redis.pubsub_numsub(sender._table_channel("table-a"))
    assert subscribers[0][1] == 1
    await sender.publish("table-a", "p1 2")
    await sender.publish("table-b", "p1 7")  # nobody here holds table-b
    await sender.publish("table-a", "p1 3")
    await _settle(heard, 2)
    await asyncio.sleep(0.1)
    assert heard == [("table-a", "p1 2"), ("table-a", "p1 3")]


async def test_watches_are_counted_and_the_last_unwatch_stops_hearing(buses) -> None:
    sender, hearer, heard = buses
    await hearer.watch("table-c")  # two sockets of one table on this process
    await hearer.watch("table-c")
    await hearer.unwatch("table-c")  # one left: still heard
    await sender.publish("table-c", "p1 5")
    await _settle(heard, 1)
    assert heard == [("table-c", "p1 5")]
    await hearer.unwatch("table-c")  # the last one left
    await _subscribers_become(sender, "table-c", 0)
    await sender.publish("table-c", "p1 6")
    await asyncio.sleep(0.2)
    assert heard == [("table-c", "p1 5")]


async def test_sites_on_one_redis_do_not_hear_each_other(bus: str) -> None:
    async with _sender_and_hearer(bus + "-other-site", bus) as (other, mine, heard):
        await mine.watch("table-d")
        await other.publish("table-d", "x 1")
        await asyncio.sleep(0.2)
        assert heard == []


async def test_after_losing_redis_a_process_hears_its_tables_again(buses) -> None:
    sender, hearer, heard = buses
    await hearer.watch("table-e")
    resynced = asyncio.Event()

    async def resync() -> None:
        resynced.set()

    hearer.on_reconnect(resync)
    assert hearer._subscriber is not None and hearer._subscriber.transport is not None
    port = hearer._subscriber.transport.get_extra_info("sockname")[1]
    await sender._redis.execute_command("CLIENT", "KILL", "ADDR", f"127.0.0.1:{port}")
    await asyncio.wait_for(resynced.wait(), 10)  # resubscribed, then told to resync
    await _subscribers_become(sender, "table-e", 1)
    await sender.publish("table-e", "p1 9")
    await _settle(heard, 1)
    assert heard == [("table-e", "p1 9")]


async def test_many_sockets_connecting_at_once_all_get_their_tables(buses) -> None:
    """A process that 300 tables' sockets reach at the same moment subscribes to every
    one of them (no subscription lost to a race on the shared pub/sub connection)."""
    sender, hearer, heard = buses
    tables = [f"rush-{i}" for i in range(300)]
    await asyncio.gather(*(hearer.watch(t) for t in tables for _ in range(2)))
    channels = [sender._table_channel(t) for t in tables]
    counts = dict(await sender._redis.pubsub_numsub(*channels))
    missing = [c for c in channels if counts.get(c.encode(), 0) != 1]
    assert missing == []
    for t in tables:
        await sender.publish(t, "p1 1")
    await _settle(heard, len(tables))
    assert sorted(t for t, _ in heard) == sorted(tables)


async def test_a_process_drops_its_own_messages_unread_and_hears_the_others(buses) -> None:
    """With a table's sockets on one process, it is the only one watching the table and
    hears each of its own messages back: those are dropped as they are read."""
    sender, hearer, heard = buses
    hearer.ignore_own("p2 ")
    await hearer.watch("table-f")
    await hearer.publish("table-f", "p2 5 {}")  # its own
    await sender.publish("table-f", "p1 6")
    await hearer.publish("table-f", "p2 7")
    await sender.publish("table-f", 'p1 8 {"x": "\u00e9"}')
    await _settle(heard, 2)
    await asyncio.sleep(0.1)
    assert heard == [("table-f", "p1 6"), ("table-f", 'p1 8 {"x": "\u00e9"}')]
    assert hearer._subscriber is not None and hearer._subscriber.dropped == 2


def test_what_redis_pushes_is_read_whole_however_the_bytes_arrive() -> None:
    confirmed: list[str] = []
    subscriber = Subscriber(lambda: b"me ", confirmed.append)
    subscriber._unanswered = {"c:t": 2}  # two SUBSCRIBEs sent (watch, unwatch, watch)
    stream = (
        b"*3\r\n$9\r\nsubscribe\r\n$3\r\nc:t\r\n:1\r\n"
        b"*3\r\n$11\r\nunsubscribe\r\n$3\r\nc:t\r\n:0\r\n"
        b"*3\r\n$9\r\nsubscribe\r\n$3\r\nc:t\r\n:1\r\n"
        b"*3\r\n$7\r\nmessage\r\n$3\r\nc:t\r\n$6\r\nme 1 2\r\n"
        b"*3\r\n$7\r\nmessage\r\n$3\r\nc:t\r\n$9\r\nyou 3\r\n{}\r\n"
    )
    for size in (1, 2, 7, len(stream)):
        confirmed.clear()
        subscriber._unanswered = {"c:t": 2}
        subscriber.heard.clear()
        for i in range(0, len(stream), size):
            subscriber.data_received(stream[i : i + size])
        assert confirmed == ["c:t"]  # once the last SUBSCRIBE is answered, not the first
        assert list(subscriber.heard) == [(b"c:t", b"you 3\r\n{}")]


async def test_what_a_stopping_process_published_last_is_still_heard(bus: str) -> None:
    """Publishes are written without waiting for Redis's reply; closing the bus waits
    for the replies, so that a stopping process's last messages (it left) get out."""
    hearer = RedisBus(bus)
    heard: list[tuple[str, str]] = []

    async def listener(table_id: str, message: str) -> None:
        heard.append((table_id, message))

    hearer.listen(listener)
    await hearer.start()
    try:
        await hearer.watch("table-g")
        sender = RedisBus(bus)
        await sender.start()
        for i in range(200):
            await sender.publish("table-g", f"p1 left {i}")
        await sender.close()
        assert sender._publisher.replies == sender._publisher.sent == 200
        await _settle(heard, 200)
        assert [m for _, m in heard] == [f"p1 left {i}" for i in range(200)]
    finally:
        await hearer.close()
