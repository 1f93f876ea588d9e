"""The other processes' spectator counts (coup/server/remote_spectators.py): a count overtaken by
a later one on the bus is ignored, and a store read that was answered after a newer bus
message does not put the older count back (CI once read 2 spectators where 3 watched)."""

from __future__ import annotations

from coup.server.bus_message import decode, watchers
from coup.server.catchup import _seq
from coup.server.remote_spectators import RemoteSpectators


def test_a_later_count_overtaken_on_the_bus_is_kept() -> None:
    w = RemoteSpectators()
    w.hear("p0", 2, seq=7)  # the second spectator's message arrives first
    w.hear("p0", 1, seq=6)  # then the first one's, late
    assert w.total() == 2


def test_a_store_read_does_not_undo_a_message_heard_while_it_ran() -> None:
    w = RemoteSpectators()
    mark = w.mark()  # p1 begins to store its own count and read the others'
    w.hear("p0", 1, seq=1)  # p0 stored 1 and said so, after the read saw nothing
    w.stored({"p1": 2}, mark, me="p1")  # the read's answer: p0 has no row yet
    assert w.counts == {"p0": 1}
    # a read begun after the message is at least as new: it is taken
    mark = w.mark()
    w.stored({"p0": 0, "p1": 2}, mark, me="p1")
    assert w.counts == {"p0": 0}


def test_a_store_read_forgets_a_dead_process_and_never_counts_our_own() -> None:
    w = RemoteSpectators()
    w.hear("p0", 3, seq=1)
    w.hear("p2", 1, seq=1)
    mark = w.mark()
    w.stored({"p1": 5, "p2": 1}, mark, me="p1")
    assert w.counts == {"p2": 1}
    assert w.total() == 1


def test_numbered_counts_travel_in_both_kinds_of_message() -> None:
    origin, version, payload = decode(watchers("p0", 4, 9))
    assert (origin, version, payload) == ("p0", None, {"watchers": 4, "wseq": 9})
    assert _seq(payload) == 9
    assert _seq({"watchers": 4}) is None  # from a process that does not number them
    w = RemoteSpectators()
    w.hear("p0", 4, _seq(payload))
    w.hear("p0", 1, None)  # taken as it comes
    assert w.total() == 1
