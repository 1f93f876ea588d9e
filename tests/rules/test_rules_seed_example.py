"""The worked 3-player example of the Persian rulebook, move by move.

Mahshid (seat 0), Sepideh (1) and Bahareh (2); the rulebook's names of the characters:
شاهدخت Contessa, بزرگ‌زاده Duke, فرمانده Captain, آدم‌کش Assassin, سفیر Ambassador.
"""

from rules_helpers import hand, play, table

import coup

COURT = ["assassin", "duke", "assassin", "captain", "captain",
         "ambassador", "ambassador", "ambassador", "contessa"]  # fmt: skip


def game() -> coup.State:
    return table(
        [["contessa", "duke"], ["captain", "contessa"], ["assassin", "duke"]],
        COURT,
        names=["Mahshid", "Sepideh", "Bahareh"],
    )


def test_the_persian_rulebook_example_move_by_move() -> None:
    s = game()
    assert s.coins == [2, 2, 2] and len(s.court) == 9 and s.treasury == 44

    # Mahshid claims Duke and takes 3; nobody challenges: 5 coins.
    play(s, "0 tax", "1 pass", "2 pass")
    assert s.coins[0] == 5

    # Sepideh bluffs Ambassador, draws two, keeps Assassin and Captain, returns Contessa and Duke.
    play(s, "1 exchange", "2 pass", "0 pass")
    assert s.phase == "exchange" and s.view(1)["private"] == {"drawn": ["assassin", "duke"]}
    play(s, "1 keep assassin captain")
    assert hand(s, 1) == ["assassin", "captain"] and s.coins[1] == 2

    # Bahareh claims Duke; Sepideh challenges; Bahareh reveals Duke, shuffles it back and
    # draws a Contessa; Sepideh loses her Assassin. Bahareh keeps the 3 coins.
    play(s, "2 tax", "1 challenge")
    s._pins = ["contessa"]  # what the rulebook's shuffle gave Bahareh
    play(s, "2 reveal duke", "1 lose assassin")
    assert hand(s, 0) == ["contessa", "duke"] and s.coins[0] == 5
    assert hand(s, 1) == ["captain"] and s.coins[1] == 2
    assert hand(s, 2) == ["assassin", "contessa"] and s.coins[2] == 5
    assert s.revealed[1] == ("assassin",)

    # Mahshid taxes again (8); Sepideh takes income (3).
    play(s, "0 tax", "1 pass", "2 pass", "1 income")
    assert s.coins[:2] == [8, 3]

    # Bahareh pays 3 to assassinate Mahshid, who blocks as Contessa; nobody challenges:
    # the assassination fails and the 3 coins are lost.
    play(s, "2 assassinate 0", "0 block contessa", "1 pass", "2 pass")
    assert s.coins[2] == 2 and hand(s, 0) == ["contessa", "duke"]

    # Mahshid launches a coup against Bahareh, who turns her Contessa face up.
    play(s, "0 coup 2", "2 lose contessa")
    assert s.coins[0] == 1

    # Sepideh steals from Bahareh, who blocks as Ambassador; Sepideh challenges; Bahareh
    # cannot prove it and loses her last card (forced), and is out; the steal goes ahead.
    play(s, "1 steal 2", "2 block ambassador", "1 challenge")
    assert not s.alive(2) and s.revealed[2] == ("assassin", "contessa")
    assert s.coins == [1, 5, 0]
    assert s.history[-1][1] == coup.Move("lose", "assassin") and s.history[-1][2]  # forced

    # "At this point": Mahshid has Contessa and Duke and 1 coin; Sepideh Captain and 5;
    # Bahareh is out; two Assassins and a Contessa lie face up.
    assert hand(s, 0) == ["contessa", "duke"] and hand(s, 1) == ["captain"]
    face_up = sorted(c for r in s.revealed for c in r)
    assert face_up == ["assassin", "assassin", "contessa"]
    assert s.turn == 0 and s.waiting == (0,) and not s.over
    assert s.treasury + sum(s.coins) == 50


def test_the_example_as_a_record_replays_to_the_same_table() -> None:
    s = game()
    play(s, "0 tax", "1 pass", "2 pass", "1 exchange", "2 pass", "0 pass",
         "1 keep assassin captain", "2 tax", "1 challenge")  # fmt: skip
    s._pins = ["contessa"]
    play(s, "2 reveal duke", "1 lose assassin", "0 tax", "1 pass", "2 pass", "1 income",
         "2 assassinate 0", "0 block contessa", "1 pass", "2 pass", "0 coup 2",
         "2 lose contessa", "1 steal 2", "2 block ambassador", "1 challenge")  # fmt: skip
    record = s.record()
    reveal = next(m for m in record["moves"] if m["move"] == "reveal duke")
    assert reveal["draw"] == ["contessa"]
    # the forced last loss is not in the record
    assert record["moves"][-1] == {"seat": 1, "move": "challenge"}
    again = coup.replay(record)
    assert again.view(None) == s.view(None) and again.hands == s.hands
