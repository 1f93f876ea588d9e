"""Each viewer's history of the game at a table, kept as JSON text (`views.game_texts`)."""

from __future__ import annotations

from typing import Any

from coup.rules.views import history_entry
from coup.server.protocol import dumps


class HistoryTexts:
    """Each viewer's history of a game as JSON, one entry encoded once.

    A game's history only grows, and a state is a copy of the one before with its
    entries (the same objects) plus the new ones, so the text kept for a viewer holds
    while the state's entry at its length is the one it ended with; anything else (a
    new game, a table read again from the store) encodes the history anew."""

    def __init__(self) -> None:
        self.texts: dict[int | None, tuple[int, object, str]] = {}  # seat -> (length, last, text)

    def text(self, history: list[Any], seat: int | None) -> str:
        n = len(history)
        kept = self.texts.get(seat)
        count, text = 0, ""
        if kept is not None and 0 < kept[0] <= n and history[kept[0] - 1] is kept[1]:
            count, _, text = kept
        if count < n:
            new = ",".join([dumps(history_entry(e, seat)) for e in history[count:]])
            text = f"{text},{new}" if text else new
            self.texts[seat] = (n, history[-1], text)
        return f"[{text}]"
