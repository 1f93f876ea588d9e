"""How many spectators the other processes hold of one table.

Two sources tell it, and either can be late:
- a process's bus message carries its count and a sequence number it stamps when it
  reads the count; two messages of one process can overtake each other (publishes travel
  on a pool's connections), so a count older than the last one heard is ignored;
- a read of the store (when this process stores its own count, or catches up) gives every
  live process's stored count; a process stores its count before it sends the message, but
  the read's answer can arrive after that message did, so the store's count of a process
  is taken only if no message of that process arrived while the read ran.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class RemoteSpectators:
    counts: dict[str, int] = field(default_factory=dict)  # other process -> spectators
    seqs: dict[str, int] = field(default_factory=dict)  # process -> its last sequence number
    heard: dict[str, int] = field(default_factory=dict)  # process -> tick of its last message
    tick: int = 0

    def total(self) -> int:
        return sum(self.counts.values())

    def hear(self, origin: str, count: int, seq: int | None) -> None:
        """A bus message of `origin`: it holds `count` spectators (as of its `seq`;
        None from a process that does not number its counts: taken as it comes)."""
        if seq is not None:
            if seq <= self.seqs.get(origin, 0):
                return
            self.seqs[origin] = seq
        self.tick += 1
        self.counts[origin] = count
        self.heard[origin] = self.tick

    def mark(self) -> int:
        """Call before reading the store; hand the mark to `stored`."""
        return self.tick

    def stored(self, counts: dict[str, int], mark: int, me: str) -> None:
        """The live processes' counts as a store read begun at `mark` found them (a
        process missing from them is dead or holds none)."""
        for origin in set(self.counts) | set(counts):
            if origin == me or self.heard.get(origin, 0) > mark:
                continue  # our own, or a message that may be newer than the read
            if origin in counts:
                self.counts[origin] = counts[origin]
            else:
                self.counts.pop(origin, None)
