"""Per-seat views: everything a seat may know, and nothing else (JSON-ready dicts)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from .board import SPECTATOR, Entry, hidden_from

if TYPE_CHECKING:
    from .board import Board
    from .moves import Move

_NO_PENDING: Final = ("action", "draft", "allegiance", "over")


def build_view(s: Board, seat: int | None, legal: list[Move]) -> dict[str, Any]:
    """What `seat` may know of game `s` (None: a spectator); `legal`: its legal moves now."""
    over = s.phase == "over"
    players = [
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
    pending = None
    if s.phase not in _NO_PENDING:
        pending = {
            "actor": s.actor,
            "action": s.action,
            "target": s.target,
            "claim": s.claim,
            "block": None
            if s.block_seat is None
            else {"seat": s.block_seat, "claim": s.block_claim},
            "challenger": s.challenger,
            "challenged": s.challenged,
            "loser": s.loser if s.phase == "lose" else None,
        }
    private: dict[str, Any] = {}
    if seat is not None and seat == s.actor and s.phase == "exchange":
        private["drawn"] = sorted(s.drawn)
    if s.phase == "examine" and seat is not None and seat in (s.actor, s.target):
        private["shown"] = {"seat": s.target, "card": s.shown}
    viewer = SPECTATOR if seat is None else seat
    known: dict[str, Any] = {
        "court": list(s.known_court.get(viewer, ())),
        "hands": {str(t): list(c) for (v, t), c in s.known_hands.items() if v == viewer},
    }
    view = {
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


def history_entry(e: Entry, seat: int | None) -> dict[str, Any]:
    mover, move, forced, _draws, out, _audience = e
    text = str(move)
    if hidden_from(e, seat):
        text = move.verb
    entry: dict[str, Any] = {"seat": mover, "move": text}
    if forced:
        entry["forced"] = True
    if out:
        entry["out"] = True
    return entry
