"""After the game in a real browser: a game played to its end through the page; the end
screen's statistics; the replay viewer stepped with the keys and the slider; the coach's
note on a decision; the viewer refused while the game runs; "Open a record" on the home
page with a bad record (the server's reason shown) and a good one; right to left; the bots
named in the reader's language on the end screen."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from browser_checks import finish_game, play_now
from browser_driver import Shots, create_table, state, wait_for

pytestmark = pytest.mark.browser
GOLDEN = Path(__file__).parent.parent / "golden"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


def counter(page: Any) -> str:
    return str(page.locator("#replay-counter").inner_text())


def test_a_finished_game_its_end_screen_replay_and_coach(browser: Any, server: str) -> None:
    shots = Shots(os.environ.get("COUP_SCREENSHOTS"), "review")
    page = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    url = create_table(page, server, "Mahshid", seats=3, reaction_timer=0)
    for _ in range(2):
        page.locator("button.add-bot").first.click()
        page.wait_for_timeout(150)
    wait_for(lambda: not page.locator("#start").is_disabled(), what="start enabled")
    page.click("#start")
    page.wait_for_selector(".board .me")
    table = url.rstrip("/").split("/")[-1]

    # While the game runs, its replay page refuses and shows nothing of the game.
    peek = browser.new_context(viewport=PHONE, locale="en-US").new_page()
    peek.goto(f"{server}/t/{table}/games/1/replay")
    peek.wait_for_selector("#replay-refused")
    assert "not over" in peek.locator("#replay-refused").inner_text()
    assert peek.locator(".replay-board").count() == 0
    peek.close()

    final = finish_game(page, shots)
    assert final["game"]["over"]
    page.wait_for_selector("#end-story .stats-table")
    rows = page.locator("#end-story .stats-wrap tbody tr")
    assert rows.count() == 3
    assert page.locator("#end-story .stats-wrap tr.winner").count() == 1
    page.wait_for_selector("#scoreboard:not([hidden])")
    # The coach runs on the player's decisions without being asked: its progress, then
    # its summary, on the end screen.
    page.wait_for_selector("#end-coach[data-status]")
    shots.take(page, "end-story", full=False)
    page.wait_for_selector("#end-coach[data-status=done]", timeout=120_000)
    assert "notes on your decisions are ready" in page.locator("#end-coach").inner_text()
    shots.take(page, "end-coach-ready", full=False)

    page.click("#watch-replay")
    page.wait_for_selector("#replay-board .replay-seat")
    assert page.url.endswith(f"/t/{table}/games/1/replay")
    total = int(page.locator("#replay-slider").get_attribute("max") or 0)
    assert total > 3 and counter(page) == f"0 / {total} moves"
    # All hands open at the start: six face-up cards, no backs.
    assert page.locator("#replay-board .card.face:not(.revealed)").count() == 6
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert counter(page) == f"3 / {total} moves"
    page.keyboard.press("ArrowLeft")
    assert counter(page) == f"2 / {total} moves"
    page.keyboard.press("End")
    assert counter(page) == f"{total} / {total} moves"
    page.keyboard.press("Home")
    # One seat's view: the others' cards are backs.
    page.select_option("#replay-as", "0")
    page.locator("body").click(position={"x": 5, "y": 5})
    assert page.locator("#replay-board .card.back").count() == 4
    page.keyboard.press("ArrowRight")
    assert counter(page) == f"1 / {total} moves"

    page.select_option("#coach-seat", "0")
    page.wait_for_selector("#coach-summary", timeout=120_000)
    page.locator("#coach-next").click()
    page.wait_for_selector("#coach-note")
    note = page.locator("#coach-note").inner_text()
    assert "%" in note and ("Close to the coach" in note or "A mistake" in note)
    index = int(page.locator("#coach-note").get_attribute("data-index") or -1)
    assert counter(page) == f"{index} / {total} moves"
    shots.take(page, "replay-coach", full=True)

    # Someone else opening the replay sees what the coach studied (the person's seat,
    # not the bots') and picks it from there.
    phone = browser.new_context(viewport=PHONE, locale="en-US").new_page()
    phone.goto(page.url)
    phone.wait_for_selector("#replay-board .replay-seat")
    phone.wait_for_selector("#coach-queue .coach-queued")
    queued = phone.locator("#coach-queue .coach-queued")
    assert queued.count() == 1 and queued.first.get_attribute("data-status") == "done"
    assert "Mahshid" in queued.first.inner_text() and "ready" in queued.first.inner_text()
    shots.take(phone, "replay-phone-queue", full=True)
    queued.first.locator("button").click()
    assert phone.locator("#coach-seat").input_value() == "0"
    phone.wait_for_selector("#coach-summary")
    phone.locator("#coach-next").click()
    shots.take(phone, "replay-phone", full=True)
    phone.close()

    # The lobby lists the finished game and the scoreboard. (Asked for through the app, as
    # the host's "lobby" button does: a view can come at any time, e.g. when the phone
    # above leaves, and replace the end screen's buttons between a look and a click.)
    page.goto(url)
    page.wait_for_selector(".board, .lobby-seats")
    page.evaluate("window.coupApp.showLobby()")
    page.wait_for_selector(".lobby-seats")
    page.wait_for_selector(".past-games a.past-game")  # the lobby's later part, a frame on
    assert page.locator(".past-games a.past-game").all_inner_texts() == ["Game 1"]
    page.wait_for_selector(".lobby-main #scoreboard:not([hidden])")


def test_open_a_record_bad_then_good_and_right_to_left(browser: Any, server: str) -> None:
    shots = Shots(os.environ.get("COUP_SCREENSHOTS"), "review")
    page = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    page.goto(server + "/")
    page.wait_for_selector("#open-record")
    record = json.loads((GOLDEN / "story-bluffs.json").read_text())
    bad = {**record, "moves": [*record["moves"][:5], {"seat": 0, "move": "steal 7"}]}
    page.set_input_files("#record-file", files=[{"name": "bad.json", "mimeType": "application/json",
        "buffer": json.dumps(bad).encode()}])  # fmt: skip
    page.wait_for_selector("#record-reason:not([hidden])")
    reason = page.locator("#record-reason").inner_text()
    told = subprocess.run([sys.executable, "-m", "coup", "replay", "-"], input=json.dumps(bad),
        capture_output=True, text=True, check=False)  # fmt: skip
    assert reason == told.stderr.strip().removeprefix("coup replay: ")
    shots.take(page, "open-record-bad", full=True)

    page.set_input_files("#record-file", files=[{"name": "good.json", "mimeType": "application/json",
        "buffer": json.dumps(record).encode()}])  # fmt: skip
    page.wait_for_selector("#replay-board .replay-seat")
    assert page.url.endswith("/replay")
    assert page.locator("#coach-seat").count() == 0  # no coach for a file
    texts = page.locator(".stats-wrap tbody tr").all_inner_texts()
    mahshid = next(t for t in texts if t.startswith("Mahshid"))
    assert mahshid.split()[-7:] == ["3", "1", "0", "1", "1", "2", "5"]
    assert page.locator(".claim-chip.bluff_caught").count() == 1
    assert page.locator(".claim-chip.bluff_free").count() == 3

    page.select_option("#lang-select", "fa")
    page.wait_for_selector("html[dir=rtl] #replay-board .replay-seat")
    assert page.locator("#replay-title").inner_text() == "پرونده‌ی یک بازی — بازپخش"
    page.keyboard.press("ArrowLeft")  # right to left: ← is forward
    assert page.locator("#replay-counter").inner_text().startswith("۱")
    shots.take(page, "replay-fa", full=True)


def test_the_end_screen_names_the_bots_in_the_readers_language(browser: Any, server: str) -> None:
    """In Persian the table calls the bots "ربات ۱", "ربات ۲": so does the end screen's
    statistics table (it showed the stored "Bot 1", "Bot 2")."""
    page = browser.new_context(viewport=PHONE, locale="fa-IR").new_page()
    play_now(page, server, "Sara", 3)
    at_table = {page.locator(".board .me .seat-name").first.inner_text()}
    at_table |= set(page.locator(".seats .seat .seat-name").all_inner_texts())
    finish_game(page, Shots(None, "review-fa"))
    page.wait_for_selector("#end-story .stats-table")
    in_story = set(page.locator("#end-story .stats-table tbody th .who").all_inner_texts())
    assert in_story == at_table, (in_story, at_table)
    assert not any("Bot" in name for name in in_story)
    page.context.close()


#: What the page showed as its game ended (`window.__end`): whether the end screen was
#: already there when the page first drew the game over, and whether an announcement showed
#: between that and the end screen.
END_WATCH = """() => {
  const end = (window.__end = { over: false, endAtOver: false, announced: false });
  const look = () => {
    const shown = document.querySelector(".end-screen") !== null;
    if (!end.over && window.coupApp?.msg?.game?.over) {
      end.over = true;
      end.endAtOver = shown;
    }
    if (end.over && !shown && document.querySelector("#announce.show .announce-item")) {
      end.announced = true;
    }
  };
  new MutationObserver(look).observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["class"],
  });
}"""


def test_the_last_move_is_announced_before_the_end_screen_covers_the_table(
    browser: Any, server: str
) -> None:
    """The move that ends a game is announced over the table first (its announcement lay
    on top of the end screen before), then the end screen opens and the announcement goes;
    a page opened on a game already over shows the end screen at once."""
    page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
    url = play_now(page, server, "Sara", 3)
    page.evaluate(END_WATCH)  # seen by the page as it happens, not by a test polling later
    finish_game(page, Shots(None, "review-end"))
    page.wait_for_selector(".end-screen", timeout=12000)  # the queue first (at most 9 s)
    seen = page.evaluate("window.__end")
    assert seen["over"] and not seen["endAtOver"], "the end screen covered the last move"
    assert seen["announced"], "no announcement between the game's end and the end screen"
    page.wait_for_function("() => !document.querySelector('#announce.show')", timeout=1000)
    page.context.close()

    again = browser.new_context(viewport=PHONE, locale="en-US").new_page()
    again.goto(url)
    wait_for(lambda: ((state(again) or {}).get("game") or {}).get("over"), 20, "the view")
    assert again.locator(".end-screen").count() == 1
    again.context.close()
