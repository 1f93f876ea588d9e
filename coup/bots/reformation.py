"""The heuristic's Reformation play: embezzle, and convert to hide or to reach a target.

- *Embezzle* (a claim of holding no Duke) when it holds no Duke and the Reserve pays at
  least as well as a tax, or pays more than income while its own Duke claim would not be
  believed (caught on the Duke, every Duke in sight, or it does not bluff).
- *Hide among allies*: when opponents of the other allegiance threaten it (7+ coins, or
  3+ with the Assassin claimed) and turning to their side would put all of them out of
  reach without uniting the table, it converts itself (1 coin).
- *Lift the restriction*: with the coins for a coup and one to spare, when the leader is
  of its own allegiance (out of reach), it converts itself to reach them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from coup.bots.knowledge import Knowledge


class Claimant(Protocol):
    """What this play asks of the bot: would it claim a character now (held or bluffed)?"""

    def can_claim(self, know: Knowledge, character: str) -> bool: ...


def reformation_action(bot: Claimant, know: Knowledge, legal: list[str]) -> str | None:
    """A conversion or an embezzlement when one suits the heuristic now, else None."""
    if not know.reformation:
        return None
    if "embezzle" in legal and "duke" not in know.cards:
        doubted = "duke" in know.caught(know.seat) or not bot.can_claim(know, "duke")
        if know.reserve >= 3 or (know.reserve >= 2 and doubted):
            return "embezzle"
    if "convert" not in legal:
        return None
    mine = know.allegiance[know.seat]
    others = know.opponents()
    threats = [
        s
        for s in others
        if know.allegiance[s] != mine
        and (know.coins_of(s) >= 7 or (know.coins_of(s) >= 3 and "assassin" in know.claims(s)))
    ]
    allies = [s for s in others if know.allegiance[s] == mine]
    if threats and know.coins < 7 and allies:
        # After converting, every threat shares its allegiance and the table stays split
        # (its old allies are still of the other one).
        return "convert"
    leader = max(others, key=lambda s: (know.influence(s), know.coins_of(s), -s))
    if know.coins >= 8 and leader in allies and len(allies) < len(others):
        return "convert"  # the restriction keeps it from the leader: change sides
    return None
