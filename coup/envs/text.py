"""A short text picture of a game, as a spectator sees it (for ``render()``)."""

from __future__ import annotations

import coup


def describe(state: coup.State) -> str:
    """A few lines of text describing `state` as a spectator sees it."""
    view = state.view(None)
    lines = []
    for p in view["players"]:
        mark = "*" if p["seat"] == view["turn"] else " "
        face_up = ",".join(p["revealed"]) or "-"
        status = "" if p["alive"] else " (out)"
        lines.append(
            f"{mark} seat {p['seat']}: {p['coins']:>2} coins, {p['influence']} influence, "
            f"face up: {face_up}{status}"
        )
    last = view["history"][-1] if view["history"] else None
    if last:
        lines.append(f"last move: seat {last['seat']} {last['move']}")
    if view["over"]:
        lines.append(f"game over: seat {view['winner']} wins")
    else:
        lines.append(f"phase {view['phase']}, waiting {view['waiting']}")
    return "\n".join(lines)


def render(state: coup.State, mode: str | None) -> str | None:
    """What an environment's ``render()`` gives: the text for ``"ansi"``, printed for
    ``"human"`` (then None), nothing without a render mode."""
    if mode is None:
        return None
    text = describe(state)
    if mode == "human":
        print(text)
        return None
    return text
