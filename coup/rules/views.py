"""Per-seat views: everything a seat may know, and nothing else (JSON-ready dicts, shaped
as `shapes.View`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .board import SPECTATOR, Entry, hidden_from

if TYPE_CHECKING:
    from .board import Board
    from .moves import Move
    from .shapes import HistoryEntry, Known, Pending, PlayerView, Private, View, Viewer

_NO_PENDING: Final = ("action", "draft", "allegiance", "over")


def build_view(s: Board, seat: Viewer, legal: list[Move]) -> View[Viewer]:
    """What `seat` may know of game `s` (None: a spectator); `legal`: its legal moves now."""
    over = s.phase == "over"
    players: list[PlayerView] = [
        {
            "seat": i,
            "name": s.names[i],
            "coins": s.coins[i],
            "influence": len(s.hands[i]),
            "cards": list(s.hands[i]) if (i == seat or over) else None,
            "revealed": list(s.revealed[i]),
            "alive": s.alive_flags[i],
        }
        for i in range(s.n)
    ]
    if s.reformation:
        for p, allegiance in zip(players, s.allegiance, strict=True):
            p["allegiance"] = allegiance
    pending = _pending(s) if s.phase not in _NO_PENDING else None
    private: Private = {}
    if seat is not None and seat == s.actor and s.phase == "exchange":
        private["drawn"] = sorted(s.drawn)
    target, shown = s.target, s.shown  # both set while a card is examined
    if (
        s.phase == "examine"
        and seat is not None
        and seat in (s.actor, target)
        and target is not None
        and shown is not None
    ):
        private["shown"] = {"seat": target, "card": shown}
    viewer = SPECTATOR if seat is None else seat
    known: Known = {
        "court": list(s.known_court.get(viewer, ())),
        "hands": {str(t): list(c) for (v, t), c in s.known_hands.items() if v == viewer},
    }
    view: View[Viewer] = {
        "seat": seat,
        "players": players,
        "settings": s.settings.as_dict(),
        "treasury": s.treasury,
        "court": len(s.court),
        "turn": s.turn,
        "phase": s.phase,
        "pending": pending,
        "waiting": list(s.waiting),
        "passed": list(s.passed),
        "legal": [str(m) for m in legal],
        "private": private,
        "known": known,
        "history": [history_entry(e, seat) for e in s.history],
        "over": over,
        "winner": s.winner,
    }
    if s.reformation:
        view["reserve"] = s.reserve
    return view


def _pending(s: Board) -> Pending | None:
    """The action under way (None outside a turn's action: no actor or action yet)."""
    actor, action = s.actor, s.action
    if actor is None or action is None:
        return None
    block_seat, block_claim = s.block_seat, s.block_claim
    return {
        "actor": actor,
        "action": action,
        "target": s.target,
        "claim": s.claim,
        "block": None
        if block_seat is None or block_claim is None
        else {"seat": block_seat, "claim": block_claim},
        "challenger": s.challenger,
        "challenged": s.challenged,
        "loser": s.loser if s.phase == "lose" else None,
    }


def history_entry(e: Entry, seat: int | None) -> HistoryEntry:
    """The history entry `e` as `seat` sees it (None: a spectator)."""
    mover, move, forced, _draws, out, _audience = e
    text = str(move)
    if hidden_from(e, seat):
        text = move.verb
    entry: HistoryEntry = {"seat": mover, "move": text}
    if forced:
        entry["forced"] = True
    if out:
        entry["out"] = True
    return entry
