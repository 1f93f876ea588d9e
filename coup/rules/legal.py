"""Legal moves for a seat, phase by phase (docs/rules.md: "Your turn", "The order of a turn",
"Reformation")."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Final

from .cards import ALLEGIANCES, CHARACTERS, blockers_of
from .moves import Move
from .reformation import CONVERT_OTHER_COST, CONVERT_SELF_COST, may_oppose

if TYPE_CHECKING:
    from .board import Board

# The moves, made once (`Final`: a compiled core reads them without a dictionary look-up).
MAX_SEATS: Final = 10
INCOME: Final = Move("income")
FOREIGN_AID: Final = Move("foreign_aid")
TAX: Final = Move("tax")
EXCHANGE: Final = Move("exchange")
PASS: Final = Move("pass")
CHALLENGE: Final = Move("challenge")
RETURN: Final = Move("return")
SWAP: Final = Move("swap")
COUP: Final = [Move("coup", s) for s in range(MAX_SEATS)]
ASSASSINATE: Final = [Move("assassinate", s) for s in range(MAX_SEATS)]
STEAL: Final = [Move("steal", s) for s in range(MAX_SEATS)]
EXAMINE: Final = [Move("examine", s) for s in range(MAX_SEATS)]
BLOCK: Final = {c: Move("block", c) for c in CHARACTERS}
REVEAL: Final = {c: Move("reveal", c) for c in CHARACTERS}
LOSE: Final = {c: Move("lose", c) for c in CHARACTERS}
SHOW: Final = {c: Move("show", c) for c in CHARACTERS}
DRAFT: Final = {c: Move("draft", c) for c in CHARACTERS}
ALLEGIANCE: Final = [Move("allegiance", a) for a in ALLEGIANCES]
CONVERT_SELF: Final = Move("convert")
EMBEZZLE: Final = Move("embezzle")
CONVERT: Final = [Move("convert", s) for s in range(MAX_SEATS)]

_KEEPS: Final[dict[tuple[int, tuple[str, ...]], list[Move]]] = {}


def keep_moves(pool: tuple[str, ...], size: int) -> list[Move]:
    """Every distinct choice of `size` cards from `pool`, as `keep` moves."""
    pool = tuple(sorted(pool))
    key = (size, pool)
    moves = _KEEPS.get(key)
    if moves is None:
        moves = [Move("keep", combo) for combo in dict.fromkeys(combinations(pool, size))]
        _KEEPS[key] = moves
    return moves


def _distinct(cards: tuple[str, ...], table: dict[str, Move]) -> list[Move]:
    if len(cards) == 2 and cards[0] != cards[1]:
        return [table[cards[0]], table[cards[1]]]
    return [table[c] for c in dict.fromkeys(cards)]


def legal_moves(s: Board, seat: int) -> list[Move]:
    """Moves for a seat known to be in `s.waiting`."""
    phase = s.phase
    if phase == "action":
        return _actions(s, seat)
    if phase == "react":
        moves = [PASS]
        if s.claim is not None or s.action == "embezzle":
            moves.append(CHALLENGE)
        if s.action == "foreign_aid" or seat == s.target:
            moves += [BLOCK[c] for c in blockers_of(s.action, s.variant)]  # type: ignore[arg-type]
        return moves
    if phase == "lose":
        return _distinct(s.hands[seat], LOSE)
    if phase == "challenge_block":
        return [PASS, CHALLENGE]
    if phase == "prove":
        claim = s.claim if s.challenged == "action" else s.block_claim
        hand = s.hands[seat]
        reveal = [REVEAL[claim]] if claim is not None and claim in hand else []
        return reveal + _distinct(hand, LOSE)
    if phase == "block":
        return [PASS] + [BLOCK[c] for c in blockers_of(s.action, s.variant)]  # type: ignore[arg-type]
    if phase == "exchange":
        hand = s.hands[seat]
        return keep_moves(hand + s.drawn, len(hand))
    if phase == "show":
        return _distinct(s.hands[seat], SHOW)
    if phase == "examine":
        return [RETURN, SWAP]
    if phase == "draft":
        return [DRAFT[c] for c in s.settings.in_play]
    if phase == "allegiance":
        return ALLEGIANCE[:]
    return []


def _actions(s: Board, seat: int) -> list[Move]:
    if s.reformation:
        return _reformation_actions(s, seat)
    n, alive = s.n, s.alive_flags
    coins = s.coins[seat]
    bracket = 3 if coins >= 10 else 2 if coins >= 7 else 1 if coins >= 3 else 0
    if s.n_alive == n:  # the common case, computed once per table shape
        key = (s.variant, n, seat, bracket)
        moves = _ALL_ALIVE.get(key)
        if moves is None:
            targets = [(seat + i) % n for i in range(1, n)]
            moves = _ALL_ALIVE[key] = _action_list(s.variant, targets, coins)
        return moves
    targets = [t % n for t in range(seat + 1, seat + n) if alive[t % n]]
    return _action_list(s.variant, targets, coins)


_ALL_ALIVE: Final[dict[tuple[str, int, int, int], list[Move]]] = {}


def _action_list(variant: str, targets: list[int], coins: int) -> list[Move]:
    if coins >= 10:
        return [COUP[t] for t in targets]
    moves = [INCOME, FOREIGN_AID]
    if coins >= 7:
        moves += [COUP[t] for t in targets]
    moves.append(TAX)
    if coins >= 3:
        moves += [ASSASSINATE[t] for t in targets]
    moves += [STEAL[t] for t in targets]
    moves.append(EXCHANGE)
    if variant == "inquisitor":
        moves += [EXAMINE[t] for t in targets]
    return moves


def _reformation_actions(s: Board, seat: int) -> list[Move]:
    """The base actions against the targets the same-allegiance restriction allows, then
    conversion (self, then each other living player) and embezzlement (Reserve > 0)."""
    n, alive = s.n, s.alive_flags
    coins = s.coins[seat]
    others = [t % n for t in range(seat + 1, seat + n) if alive[t % n]]
    moves = _action_list(s.variant, [t for t in others if may_oppose(s, seat, t)], coins)
    if coins >= 10:
        return moves
    if coins >= CONVERT_SELF_COST:
        moves.append(CONVERT_SELF)
    if coins >= CONVERT_OTHER_COST:
        moves += [CONVERT[t] for t in others]
    if s.reserve > 0:
        moves.append(EMBEZZLE)
    return moves
