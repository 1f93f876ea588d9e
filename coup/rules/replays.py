"""Replaying a `coup-record/1` record (docs/records.md): the state after its moves, the
fair-shuffle check, and the `coup replay --json` object."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from .moves import IllegalMoveError, InvalidMoveError, Move
from .records import FORMAT, InvalidRecordError, commitment, read_seed
from .settings import SettingsError, check_deal, parse_settings
from .state import State

if TYPE_CHECKING:
    from .shapes import FinalPlayer, FinalState


def replay(
    record: object,
    *,
    use_deal: bool = True,
    use_draws: bool = True,
    observe: Callable[[State], None] | None = None,
) -> State:
    """The state after a record's last move; raises InvalidRecordError saying why not.
    `record` is a `Record` as read (from JSON, say): anything else is refused, as it says.

    `use_deal` / `use_draws` False ignore the record's deal / pinned draws and take them
    from the seed instead (how a fair-shuffle record is verified). `observe` is called
    with the state once at the start and after every recorded move.
    """
    if not isinstance(record, dict):
        raise InvalidRecordError("a record is a JSON object")
    if record.get("format") != FORMAT:
        raise InvalidRecordError(f"format must be {FORMAT!r}, not {record.get('format')!r}")
    names = record.get("players")
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
        raise InvalidRecordError("players must be a list of names")
    seed = read_seed(record.get("seed", 0))
    try:
        settings = parse_settings(len(names), record.get("settings"))
        deal = None
        if use_deal and record.get("deal") is not None:
            deal = check_deal(settings, record["deal"])
    except SettingsError as bad_settings:
        raise InvalidRecordError(str(bad_settings)) from None
    moves = record.get("moves", [])
    if not isinstance(moves, list):
        raise InvalidRecordError("moves must be a list")
    s = State.start(settings, tuple(names), seed, deal)
    if observe:
        observe(s)
    for i, entry in enumerate(moves):
        if not isinstance(entry, dict):
            raise InvalidRecordError("each move must be an object with seat and move", i)
        seat, text = entry.get("seat"), entry.get("move")
        if type(seat) is not int or not isinstance(text, str):
            raise InvalidRecordError(
                "each move needs an integer seat and a move string", i, seat, text
            )
        who = names[seat] if 0 <= seat < len(names) else None
        draws = entry.get("draw", []) if use_draws else []
        if not isinstance(draws, list) or not all(isinstance(c, str) for c in draws):
            raise InvalidRecordError("draw must be a list of characters", i, seat, text, who)
        try:
            move = Move.parse(text)
            s._pins = list(draws)
            s.play(seat, move)
        except InvalidMoveError as bad_move:
            raise InvalidRecordError(f"not a move: {bad_move}", i, seat, text, who) from None
        except IllegalMoveError as illegal:
            raise InvalidRecordError(f"illegal: {illegal}", i, seat, text, who) from None
        if s._pins:
            left = ", ".join(s._pins)
            s._pins = []
            raise InvalidRecordError(f"pinned draws not drawn: {left}", i, seat, text, who)
        if observe:
            observe(s)
    return s


def final_state_json(s: State) -> FinalState:
    """The `coup replay --json` object (docs/records.md); `reserve` and each player's
    `allegiance` only in Reformation games."""
    players: list[FinalPlayer] = [
        {
            "seat": i,
            "name": s.names[i],
            "coins": s.coins[i],
            "influence": sorted(s.hands[i]),
            "revealed": sorted(s.revealed[i]),
            "alive": s.alive_flags[i],
        }
        for i in range(s.n)
    ]
    out: FinalState = {
        "over": s.over,
        "winner": s.winner,
        "turn": s.turn,
        "treasury": s.treasury,
        "court": len(s.court),
        "players": players,
        "waiting": [{"seat": w, "legal": [str(m) for m in s.legal(w)]} for w in s.waiting],
    }
    if s.reformation:
        out["reserve"] = s.reserve
        for player, allegiance in zip(players, s.allegiance, strict=True):
            player["allegiance"] = allegiance
    return out


def verify(record: Mapping[str, Any]) -> tuple[bool, str]:
    """Check a record's fair-shuffle commitment: (verified, why). `record` is a
    `coup-record/1` object as read (a `Record` with the keys a reader ignores).

    Verified means: SHA-256(str(seed)) equals the commitment, and replaying from the seed
    alone (ignoring the written deal and pinned draws) gives the same deal and draws.
    """
    promised = record.get("commitment")
    if not isinstance(promised, str):
        return False, "the record carries no commitment"
    try:
        seed = read_seed(record.get("seed"))
    except InvalidRecordError:
        return False, "the record carries no valid seed"
    if commitment(seed) != promised.lower():
        return False, "the seed does not match the commitment"
    played = replay(record)
    try:
        fresh = replay(record, use_deal=False, use_draws=False)
    except InvalidRecordError as e:
        return False, f"the seed does not reproduce the game: {e}"
    a, b = played.record(), fresh.record()
    if a["deal"] != b["deal"]:
        return False, "the deal is not the one the seed makes"
    if a["moves"] != b["moves"]:
        return False, "the draws are not the ones the seed makes"
    return True, "verified"


__all__ = ["final_state_json", "replay", "verify"]
