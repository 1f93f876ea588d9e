"""The end screen's facts, from a record: who went out when, what each player claimed and
whether it was true, who challenged and who was right, and the bluff timeline.

`tell(record)` returns a JSON-ready dict (documented in docs/protocol.md, "The story"):

- ``eliminated``: seats in the order they went out (the winner is not in it);
- ``stats``: per seat ``claims`` (actions and blocks that name a character), ``bluffs``
  (claims made without that character in hand), ``caught`` (bluffs challenged),
  ``challenges`` made and ``challenges_won`` (the claimant did not prove it), ``blocks``,
  ``coins`` (all coins received: income, aid, tax, steals);
- ``turns``: one row per turn: its first entry in the history, the actor, its action, the face-down hands when the action
  was announced, and each claim of the turn (``character``, ``kind`` action|block|
  embezzle, ``bluff``, ``challenger``, ``caught``); an ``embezzle`` claim (Reformation)
  says the claimant does *not* hold ``character`` (the Duke).

A claim is a bluff when the claimant's face-down cards lacked the character at the moment
of the claim; it is caught when it was challenged and not proved (a truthful player may
also decline to prove: then ``caught`` is true and ``bluff`` false).
"""

from __future__ import annotations

from typing import Any

from coup.review.walk import Walk, walk
from coup.rules.cards import claim_of

ACTIONS = frozenset(
    {"income", "foreign_aid", "coup", "tax", "assassinate", "steal", "exchange", "examine"}
    | {"convert", "embezzle"}  # Reformation
)
STATS = ("claims", "bluffs", "caught", "challenges", "challenges_won", "blocks", "coins")


def tell(record: Any) -> dict[str, Any]:
    """The story of a recorded game; raises InvalidRecordError for a bad record."""
    return tell_walk(walk(record))


def tell_walk(w: Walk) -> dict[str, Any]:
    final = w.final
    n = final.players
    stats = [dict.fromkeys(STATS, 0) for _ in range(n)]
    turns: list[dict[str, Any]] = []
    eliminated: list[int] = []
    claim: dict[str, Any] | None = None  # the claim a challenge would be about
    proving: tuple[int, dict[str, Any]] | None = None  # challenged claimant, its claim
    variant = final.settings.characters
    for j, (seat, move, _forced, _draws, out, _aud) in enumerate(final.history):
        verb = move.verb
        if proving is not None and seat == proving[0] and verb in ("reveal", "lose"):
            claimant, challenged = proving
            proving = None
            if verb == "lose":
                challenged["caught"] = True
                stats[challenged["challenger"]]["challenges_won"] += 1
                if challenged["bluff"]:
                    stats[claimant]["caught"] += 1
        if verb in ACTIONS:
            hands = _hands_before(w, j)
            turns.append(
                {"entry": j, "seat": seat, "action": str(move), "hands": hands, "claims": []}
            )
            claim = proving = None
            character = claim_of(verb, variant)
            if character is not None:
                claim = _claim(stats, hands, seat, character, "action")
                turns[-1]["claims"].append(claim)
            elif verb == "embezzle":  # a claim of *no* Duke
                claim = _claim(stats, hands, seat, "duke", "embezzle")
                turns[-1]["claims"].append(claim)
        elif verb == "block":
            stats[seat]["blocks"] += 1
            claim = _claim(stats, _hands_before(w, j), seat, str(move.arg), "block")
            if turns:
                turns[-1]["claims"].append(claim)
        elif verb == "challenge" and claim is not None:
            stats[seat]["challenges"] += 1
            claim["challenger"] = seat
            if claim["kind"] == "embezzle":  # decided from the hand at once: no proof
                claim["caught"] = claim["bluff"]
                stats[seat]["challenges_won"] += int(claim["bluff"])
                stats[claim["seat"]]["caught"] += int(claim["bluff"])
            else:
                proving = (claim["seat"], claim)
        if out:
            eliminated.append(seat)
    _count_coins(w, stats)
    return {
        "players": list(final.names),
        "winner": final.winner,
        "over": final.over,
        "eliminated": eliminated,
        "stats": [{"seat": i, "name": final.names[i], **stats[i]} for i in range(n)],
        "turns": turns,
    }


def _claim(
    stats: list[dict[str, int]], hands: list[list[str]], seat: int, character: str, kind: str
) -> dict[str, Any]:
    held = character in hands[seat]
    bluff = held if kind == "embezzle" else not held
    stats[seat]["claims"] += 1
    if bluff:
        stats[seat]["bluffs"] += 1
    return {
        "seat": seat,
        "character": character,
        "kind": kind,
        "bluff": bluff,
        "challenger": None,
        "caught": False,
    }


def _hands_before(w: Walk, entry: int) -> list[list[str]]:
    """The face-down hands just before history entry ``entry``.

    A recorded move starts from a kept state; a forced move (one the engine played) comes
    after a recorded one in the same stretch, so the cards lost since are taken out.
    """
    k = w.before(entry)
    hands = [list(h) for h in w.states[k].hands]
    for seat, move, _forced, _draws, _out, _aud in w.final.history[w.starts[k] : entry]:
        if move.verb == "lose" and move.arg in hands[seat]:
            hands[seat].remove(str(move.arg))
    return [sorted(h) for h in hands]


def _count_coins(w: Walk, stats: list[dict[str, int]]) -> None:
    for before, after in zip(w.states, w.states[1:], strict=False):
        for seat, (a, b) in enumerate(zip(before.coins, after.coins, strict=True)):
            if b > a:
                stats[seat]["coins"] += b - a
