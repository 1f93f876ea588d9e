"""The end screen's statistics, checked by hand on one game with caught and uncaught bluffs.

tests/golden/story-bluffs.json, three players, dealt
  Mahshid (0): Duke, Contessa   Sepideh (1): Captain, Assassin   Bahareh (2): Ambassador, Duke

 1. Mahshid: tax (true Duke); nobody challenges.                     Mahshid 2 -> 5
 2. Sepideh: tax — a bluff; Mahshid challenges, Sepideh loses Assassin (caught).
 3. Bahareh: steal from Mahshid — a bluff (no Captain); Mahshid blocks as Captain — also a
    bluff; nobody challenges the block: two bluffs, neither caught.
 4. Mahshid: income.                                                 Mahshid 5 -> 6
 5. Sepideh: steal from Bahareh (true Captain); Bahareh challenges and loses Ambassador;
    Sepideh reveals Captain and draws Ambassador; Bahareh lets the steal go.
                                                                     Sepideh 2 -> 4, Bahareh 2 -> 0
 6. Bahareh: tax (true Duke).                                        Bahareh 0 -> 3
 7. Mahshid: income.                                                 Mahshid 6 -> 7
 8. Sepideh: assassinate Mahshid — a bluff (she holds Ambassador); Mahshid blocks as
    Contessa (true); Sepideh challenges the block and loses her last card: out first.
 9. Bahareh: income.                                                 Bahareh 3 -> 4
10. Mahshid: coup on Bahareh, who loses her Duke and is out. Mahshid wins.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import coup
from coup.review.story import tell

GOLDEN = Path(__file__).parent.parent / "golden"


def record(name: str = "story-bluffs") -> Any:
    return json.loads((GOLDEN / f"{name}.json").read_text())


def test_the_order_of_elimination_and_the_winner() -> None:
    story = tell(record())
    assert story["winner"] == 0 and story["over"]
    assert story["eliminated"] == [1, 2]


def test_each_players_statistics_are_the_hand_counted_ones() -> None:
    stats = {s["name"]: {k: v for k, v in s.items() if k not in ("seat", "name")}
             for s in tell(record())["stats"]}  # fmt: skip
    # claims: tax, block Captain, block Contessa; one bluff (the Captain block), never caught;
    # challenged Sepideh's tax and won; coins: tax 3 + income 1 + income 1.
    assert stats["Mahshid"] == {"claims": 3, "bluffs": 1, "caught": 0, "challenges": 1,
                                "challenges_won": 1, "blocks": 2, "coins": 5}  # fmt: skip
    # claims: tax (bluff, caught), steal (true, proved), assassinate (bluff, blocked, not
    # caught); challenged the Contessa and lost; coins: the steal's 2.
    assert stats["Sepideh"] == {"claims": 3, "bluffs": 2, "caught": 1, "challenges": 1,
                                "challenges_won": 0, "blocks": 0, "coins": 2}  # fmt: skip
    # claims: steal (bluff, blocked, not caught), tax (true); challenged the true Captain
    # and lost; coins: tax 3 + income 1.
    assert stats["Bahareh"] == {"claims": 2, "bluffs": 1, "caught": 0, "challenges": 1,
                                "challenges_won": 0, "blocks": 0, "coins": 4}  # fmt: skip


def test_the_bluff_timeline_has_one_row_per_turn_with_the_real_hands() -> None:
    turns = tell(record())["turns"]
    assert [(t["seat"], t["action"]) for t in turns] == [
        (0, "tax"), (1, "tax"), (2, "steal 0"), (0, "income"), (1, "steal 2"),
        (2, "tax"), (0, "income"), (1, "assassinate 0"), (2, "income"), (0, "coup 2"),
    ]  # fmt: skip
    assert turns[0]["hands"] == [["contessa", "duke"], ["assassin", "captain"],
                                 ["ambassador", "duke"]]  # fmt: skip
    # Turn 6: Sepideh holds the Ambassador she drew, Bahareh only her Duke.
    assert turns[5]["hands"] == [["contessa", "duke"], ["ambassador"], ["duke"]]
    # Turn 9: Sepideh is out.
    assert turns[8]["hands"][1] == []

    def claims(row: int) -> list[tuple[int, str, str, bool, int | None, bool]]:
        return [(c["seat"], c["character"], c["kind"], c["bluff"], c["challenger"], c["caught"])
                for c in turns[row]["claims"]]  # fmt: skip

    assert claims(0) == [(0, "duke", "action", False, None, False)]
    assert claims(1) == [(1, "duke", "action", True, 0, True)]
    assert claims(2) == [(2, "captain", "action", True, None, False),
                         (0, "captain", "block", True, None, False)]  # fmt: skip
    assert claims(3) == []
    assert claims(4) == [(1, "captain", "action", False, 2, False)]
    assert claims(7) == [(1, "assassin", "action", True, None, False),
                         (0, "contessa", "block", False, 1, False)]  # fmt: skip


def test_a_truthful_claimant_who_declines_to_prove_is_caught_but_no_bluffer() -> None:
    s = coup.new_game(players=3, seed=3, deal=record()["deal"])
    for seat, move in [(0, "tax"), (1, "challenge"), (0, "lose contessa")]:
        s.play(seat, move)
    story = tell(s.record())
    assert story["turns"][0]["claims"] == [{"seat": 0, "character": "duke", "kind": "action",
        "bluff": False, "challenger": 1, "caught": True}]  # fmt: skip
    assert story["stats"][0]["bluffs"] == story["stats"][0]["caught"] == 0
    assert story["stats"][1]["challenges_won"] == 1
    assert story["eliminated"] == [] and not story["over"]


def test_reformation_an_embezzlement_claims_no_duke_and_is_decided_from_the_hand() -> None:
    # reformation-two-draft: Ioana (Assassin, drafts Captain) and Mihai (Duke, drafts
    # Assassin). Ioana exchanges as Inquisitor (a bluff) unchallenged; Mihai embezzles
    # holding a Duke, Ioana challenges: caught. Ioana steals (true Captain, 1 coin); Mihai
    # taxes without his lost Duke (a bluff, unchallenged, 3 coins); Ioana embezzles with no
    # Duke, Mihai challenges and loses his last card.
    story = tell(record("reformation-two-draft"))
    assert [(t["seat"], t["action"]) for t in story["turns"]] == [
        (0, "convert"), (1, "convert"), (0, "exchange"), (1, "embezzle"), (0, "steal 1"),
        (1, "tax"), (0, "embezzle"),
    ]  # fmt: skip
    assert story["turns"][3]["claims"] == [{"seat": 1, "character": "duke", "kind": "embezzle",
        "bluff": True, "challenger": 0, "caught": True}]  # fmt: skip
    assert story["turns"][6]["claims"] == [{"seat": 0, "character": "duke", "kind": "embezzle",
        "bluff": False, "challenger": 1, "caught": False}]  # fmt: skip
    stats = {s["name"]: {k: v for k, v in s.items() if k not in ("seat", "name")}
             for s in story["stats"]}  # fmt: skip
    assert stats["Ioana"] == {"claims": 3, "bluffs": 1, "caught": 0, "challenges": 1,
                              "challenges_won": 1, "blocks": 0, "coins": 1}  # fmt: skip
    assert stats["Mihai"] == {"claims": 2, "bluffs": 2, "caught": 1, "challenges": 1,
                              "challenges_won": 0, "blocks": 0, "coins": 3}  # fmt: skip
    assert story["eliminated"] == [1] and story["winner"] == 0


@pytest.mark.parametrize("name", ["seed-example", "four-inquisitor", "six-ambassador",
                                  "ten-players", "two-player-draft", "reformation-four",
                                  "reformation-ten", "reformation-two-draft"])  # fmt: skip
def test_statistics_add_up_on_every_golden_game(name: str) -> None:
    story = tell(record(name))
    stats = story["stats"]
    claims = [c for t in story["turns"] for c in t["claims"]]
    assert sum(s["claims"] for s in stats) == len(claims)
    assert sum(s["bluffs"] for s in stats) == sum(c["bluff"] for c in claims)
    assert sum(s["caught"] for s in stats) == sum(c["bluff"] and c["caught"] for c in claims)
    assert sum(s["challenges"] for s in stats) == sum(c["challenger"] is not None for c in claims)
    for s in stats:
        assert s["caught"] <= s["bluffs"] <= s["claims"]
        assert s["challenges_won"] <= s["challenges"]
    final = coup.replay(record(name))
    out = [seat for seat in range(final.players) if not final.alive(seat)]
    assert sorted(story["eliminated"]) == out
    assert story["winner"] == final.winner


def test_a_bad_record_is_refused_with_the_replay_reason() -> None:
    bad = copy.deepcopy(record())
    bad["moves"][3]["move"] = "steal 9"
    with pytest.raises(coup.InvalidRecordError) as told:
        tell(bad)
    with pytest.raises(coup.InvalidRecordError) as replayed:
        coup.replay(bad)
    assert str(told.value) == str(replayed.value)
