"""The history window of the pure observation writer: the last moves, newest first, as
float32 blocks of the layout's history entries (`coup.envs.kernel.layout`).

Each move's block is cached per (mover, viewer, hidden), and the entries of the game seen
last are kept with their blocks for every viewer, so that observing the seats one after
the other looks each entry up once. Standard library and `coup.rules` only; compiled with
the rest of the kernel.
"""

from __future__ import annotations

from array import array
from typing import cast

from coup.rules.board import PRIVATE_VERBS, Entry
from coup.rules.moves import Move

from .layout import SLOT, Layout


class HistoryBlocks:
    """The history window of vectors of `layout`; `entries` may be shared by the
    windows of several games (`share`)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.n = layout.players
        self.window = layout.history
        self.verbs = {name: i for i, name in enumerate(layout.verbs)}
        #: per move, its entry's block by (mover, viewer, hidden): `_entry_blocks`
        self.entries: dict[Move, list[bytes]] = {}
        #: the history entries from `positions_start` on of the game seen last, and per
        #: entry its block for every viewer, so that each entry is looked up once
        self.positions_start = 0
        self.positions: list[object] = []
        self.position_blocks: list[list[bytes]] = []
        # zeros for the window's empty places, by how many there are
        size = layout.entry_size
        self.padding: list[bytes] = [bytes(4 * k * size) for k in range(self.window + 1)]

    def share(self, other: HistoryBlocks) -> None:
        """Use the cache of entry blocks of `other` (another game of the same layout)."""
        self.entries = other.entries

    def add(self, history: list[Entry], me: int, parts: list[bytes]) -> None:
        """Add the window's blocks to `parts`, newest first, as `me` sees them."""
        length = len(history)
        first = max(length - self.window, 0)
        start = self._positions(history, first)
        blocks = self.position_blocks
        for k in range(length - 1, first - 1, -1):
            parts.append(blocks[k - start][me])
        if length < self.window:
            parts.append(self.padding[self.window - length])

    def _positions(self, history: list[Entry], first: int) -> int:
        """Make `position_blocks` hold the entries of `history` from `first` on; return the
        position of its first item (`positions_start`)."""
        length = len(history)
        boxed = cast("list[object]", history)
        seen = self.positions
        start = self.positions_start
        end = start + len(seen)
        if not seen or start > first or end > length or boxed[end - 1] is not seen[-1]:
            # another game, an older state or a copy: start again at `first`
            seen.clear()
            self.position_blocks.clear()
            start = self.positions_start = first
            end = first
        elif end - start > 4 * self.window + 64:  # a long game: forget the oldest entries
            drop = end - start - self.window
            del seen[:drop]
            del self.position_blocks[:drop]
            start = self.positions_start = start + drop
        for k in range(end, length):
            mover, move, _forced, _draws, _out, audience = history[k]
            seen.append(boxed[k])
            self.position_blocks.append(self._entry_blocks(move, mover, audience))
        return start

    def _entry_blocks(self, move: Move, mover: int, audience: int | None) -> list[bytes]:
        """The block of one history entry for each viewer."""
        n = self.n
        table = self.entries.get(move)
        if table is None:
            table = self.entries[move] = [b""] * (2 * n * n)
        private = move.verb in PRIVATE_VERBS
        blocks: list[bytes] = []
        for me in range(n):
            hidden = private and me != mover and me != audience
            i = (mover * n + me) * 2 + (1 if hidden else 0)
            block = table[i]
            if not block:
                block = table[i] = self._entry(move, mover, me, hidden)
            blocks.append(block)
        return blocks

    def _entry(self, move: Move, mover: int, me: int, hidden: bool) -> bytes:
        """One history entry: present, mover, verb, character slot, target (an allegiance's
        side is not encoded: the seats' allegiances show it)."""
        n = self.n
        at = self.layout.entry_at
        v = [0.0] * self.layout.entry_size
        v[at["present"]] = 1.0
        v[at["mover"] + (mover - me) % n] = 1.0
        v[at["verb"] + self.verbs[move.verb]] = 1.0
        arg = move.arg
        if not hidden and arg is not None and not isinstance(arg, tuple):
            if isinstance(arg, int):
                v[at["target"] + (arg - me) % n] = 1.0
            elif arg in SLOT:
                v[at["character"] + SLOT[arg]] = 1.0
        return array("f", v).tobytes()

    def clear(self) -> None:
        """Forget the cached blocks (they are rebuilt as needed)."""
        self.entries.clear()
        self.positions.clear()
        self.position_blocks.clear()
