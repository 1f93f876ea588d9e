"""The reference the observation writers are checked against: a seat's vector built from
its view dict (``state.view(seat)``, what a person in that seat is shown), field by field
as ``coup/envs/observation.py`` describes them, at the offsets the layout declares
(`coup.envs.kernel.layout.Layout`). Slow and plain: numpy and the view, nothing cached,
nothing of the engine's state."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from coup.envs.kernel.layout import ALLEGIANCES, SLOT, Layout


def parse(text: str) -> tuple[str, str | None, int | None]:
    """(verb, character shown or None, absolute target seat or None) of a move's notation
    as the view shows it (another's kept cards, shown card or drafted card are hidden)."""
    words = text.split(" ")
    verb = words[0]
    if len(words) != 2 or verb == "keep":  # kept cards are not encoded
        return verb, None, None
    if words[1].isdigit():
        return verb, None, int(words[1])
    if words[1] in SLOT:  # an allegiance's side is not encoded: the seats show it
        return verb, words[1], None
    return verb, None, None


def encode(layout: Layout, view: Mapping[str, Any]) -> np.ndarray:
    """The vector of `view`, a ``state.view(seat)`` dict of a seated viewer."""
    n = layout.players
    me: int = view["seat"]
    at, seat_at, entry_at = layout.at, layout.seat_at, layout.entry_at
    phases = {name: i for i, name in enumerate(layout.phases)}
    actions = {name: i for i, name in enumerate(layout.actions)}
    verbs = {name: i for i, name in enumerate(layout.verbs)}
    v = np.zeros(layout.size, dtype=np.float64)  # halves add up for card counts

    def rel(seat: int) -> int:
        return (seat - me) % n

    def count(base: int, cards: Any) -> None:
        for card in cards:
            v[base + SLOT[card]] += 0.5

    players = view["players"]
    count(at["hand"], players[me]["cards"] or ())
    turn, waiting, passed, known = view["turn"], view["waiting"], view["passed"], view["known"]
    for p in players:
        seat = p["seat"]
        b = at["seats"] + layout.seat_size * rel(seat)
        coins = p["coins"]
        v[b + seat_at["alive"]] = 1.0 if p["alive"] else 0.0
        v[b + seat_at["influence"]] = p["influence"] * 0.5
        v[b + seat_at["coins"]] = min(coins, 12) / 12.0
        v[b + seat_at["can_assassinate"]] = 1.0 if coins >= 3 else 0.0
        v[b + seat_at["can_coup"]] = 1.0 if coins >= 7 else 0.0
        v[b + seat_at["must_coup"]] = 1.0 if coins >= 10 else 0.0
        count(b + seat_at["revealed"], p["revealed"])
        v[b + seat_at["turn"]] = 1.0 if seat == turn else 0.0
        v[b + seat_at["waiting"]] = 1.0 if seat in waiting else 0.0
        v[b + seat_at["passed"]] = 1.0 if seat in passed else 0.0
        if seat != me:
            count(b + seat_at["known"], known["hands"].get(str(seat), ()))
        if layout.reformation and p.get("allegiance") is not None:
            v[b + seat_at["allegiance"] + ALLEGIANCES.index(p["allegiance"])] = 1.0
    v[at["phase"] + phases[view["phase"]]] = 1.0
    settings = view["settings"]
    v[at["treasury"]] = view["treasury"] / max(settings["treasury"], 1)
    v[at["court"]] = view["court"] / (5 * settings["copies"])
    if layout.reformation:
        v[at["reserve"]] = min(view.get("reserve", 0), 12) / 12.0
    pending = view["pending"]
    if pending:
        v[at["pending.actor"] + rel(pending["actor"])] = 1.0
        v[at["pending.action"] + actions[pending["action"]]] = 1.0
        if pending["target"] is not None:
            v[at["pending.target"] + rel(pending["target"])] = 1.0
        if pending["claim"] is not None:
            v[at["pending.claim"] + SLOT[pending["claim"]]] = 1.0
        block = pending["block"]
        if block:
            v[at["block.seat"] + rel(block["seat"])] = 1.0
            v[at["block.claim"] + SLOT[block["claim"]]] = 1.0
        if pending["challenger"] is not None:
            v[at["challenger"] + rel(pending["challenger"])] = 1.0
        if pending["loser"] is not None:
            v[at["loser"] + rel(pending["loser"])] = 1.0
    private = view["private"]
    count(at["drawn"], private.get("drawn", ()))
    shown = private.get("shown")
    if shown:
        v[at["shown.card"] + SLOT[shown["card"]]] = 1.0
        v[at["shown.seat"] + rel(shown["seat"])] = 1.0
    count(at["known.court"], known["court"])
    b = at["history"]
    for entry in reversed(view["history"][-layout.history :] if layout.history else []):
        verb, character, target = parse(entry["move"])
        v[b + entry_at["present"]] = 1.0
        v[b + entry_at["mover"] + rel(entry["seat"])] = 1.0
        v[b + entry_at["verb"] + verbs[verb]] = 1.0
        if character is not None:
            v[b + entry_at["character"] + SLOT[character]] = 1.0
        if target is not None:
            v[b + entry_at["target"] + rel(target)] = 1.0
        b += layout.entry_size
    return np.minimum(v, 1.0).astype(np.float32)
