"""A table that lives all evening, through the page: a friend who opens the link during a
game watches, then takes a free seat between games from the end screen, the watching
page or the top bar; a removed player is told so, the host blocks and unblocks them, and
sees who watches; the host fills the empty seats with bots and locks the table; "Start
the game" is in view on a phone; a connected player who does not answer gets a grace,
then a clock the others see, then the host hands the seat to a bot and the player takes
it back with one tap."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_checks import finish_game, lobby_pages, open_table
from browser_driver import Shots, state, wait_for
from conftest import ServerProcess, _need_chromium

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("COUP_SCREENSHOTS")


def _page(
    browser: Any, link: str, width: int = 1280, height: int = 860, locale: str = "en-US"
) -> Any:
    page = browser.new_context(
        viewport={"width": width, "height": height}, locale=locale
    ).new_page()
    page.goto(link)
    return page


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=False)


def test_a_late_friend_watches_then_takes_a_seat_between_games(browser: Any, server: str) -> None:
    url, host_link = open_table(server, "Mahshid", seats=3, draft=False)
    (host,) = lobby_pages(browser, [host_link])
    host.locator('button.add-bot[data-seat="1"]').click()
    wait_for(lambda: state(host)["table"]["seats"][1], what="bot seated")
    host.click("#start")
    host.wait_for_selector(".board .me")

    friend = _page(browser, url)  # a new browser: no name yet
    friend.wait_for_selector(".board .spectating")
    assert friend.locator("#watch-take-seat, #chip-take-seat").count() == 0  # not during a game
    finish_game(host, Shots(None, ""))
    friend.wait_for_selector(".end-screen #end-take-seat")
    assert friend.locator("#chip-take-seat").count() == 1  # the top bar offers it too
    _shot(friend, "end-take-seat")
    friend.click("#end-close")
    friend.wait_for_selector(".spectating #watch-take-seat")
    friend.click("#watch-take-seat")  # no name yet: the lobby asks for one
    friend.wait_for_selector("#lobby-name")
    friend.fill("#lobby-name", "Dara")
    friend.click('button.sit[data-seat="2"]')
    wait_for(lambda: state(friend)["you"]["seat"] == 2, what="Dara sits")
    friend.wait_for_selector(".lobby-you")
    wait_for(lambda: state(host)["table"]["seats"][2] is not None, what="the host sees her")
    host.click("#rematch")
    friend.wait_for_selector(".board .me")
    assert state(friend)["table"]["game"] == 2
    for page in (host, friend):
        page.context.close()


def test_removed_blocked_watchers_fill_lock_and_start_in_view(browser: Any, server: str) -> None:
    url, host_link = open_table(server, "Mahshid", seats=4)
    host = _page(browser, host_link)
    host.wait_for_selector(".lobby-seats")
    guest = _page(browser, url)
    guest.fill("#lobby-name", "Sepideh")
    guest.click('button.sit[data-seat="1"]')
    wait_for(lambda: state(host)["table"]["seats"][1] is not None, what="Sepideh sits")
    guest.wait_for_selector(".lobby-you")

    host.click('button.remove[data-seat="1"]')
    guest.wait_for_selector("#gone-note")
    assert "The host removed you from this table." in guest.inner_text("#gone-note")
    assert "take a seat again" in guest.inner_text("#gone-note")
    host.wait_for_selector("#lobby-former .former-row")
    assert "Sepideh" in host.inner_text("#lobby-former")
    # She still watches, under her name.
    wait_for(lambda: "Sepideh" in host.inner_text("#lobby-watchers"), what="the watchers")

    host.check("#block-0")
    wait_for(lambda: "blocked you" in guest.inner_text("#gone-note"), what="she is told")
    guest.wait_for_selector("#lobby-shut")
    assert guest.locator("button.sit").count() == 0
    _shot(host, "lobby-former")
    _shot(guest, "gone-blocked")
    host.uncheck("#block-0")
    guest.wait_for_selector("button.sit")

    host.select_option("#fill-level", "medium")
    host.click("#fill-bots")
    wait_for(lambda: all(state(host)["table"]["seats"]), what="bots in every seat")
    bots = state(host)["table"]["seats"][1:]
    assert {(s["kind"], s["level"]) for s in bots} == {("bot", "medium")}
    assert host.locator("#fill-bots").count() == 0  # no empty seat left
    host.click('button.remove[data-seat="3"]')
    host.check("#lock-table")
    wait_for(lambda: state(guest)["table"]["settings"]["locked"] is True, what="locked")
    guest.wait_for_selector("#lobby-shut")
    assert guest.locator("button.sit").count() == 0

    phone = _page(browser, host_link, 360, 640)
    phone.wait_for_selector("#start")
    box = phone.locator("#start").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 640, box  # in view, no scrolling
    _shot(phone, "lobby-phone")
    for page in (host, guest, phone):
        page.context.close()


@pytest.fixture(scope="module")
def graceful(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose grace is 2 s, then a clock of 3 s."""
    _need_chromium()
    proc = ServerProcess(tmp_path_factory.mktemp("grace"), "--grace", "2,3")
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def test_a_silent_player_is_handed_to_a_bot_after_the_grace_and_takes_the_seat_back(
    browser: Any, graceful: ServerProcess
) -> None:
    base = graceful.base
    url, host_link = open_table(
        base, "Mahshid", seats=2, draft=False, turn_timer=0, reaction_timer=0
    )
    host = _page(browser, host_link)
    host.wait_for_selector(".lobby-seats")
    guest = _page(browser, url)
    guest.fill("#lobby-name", "Sepideh")
    guest.click('button.sit[data-seat="1"]')
    wait_for(lambda: (state(host)["table"]["seats"][1] or {}).get("connected"), what="Sepideh here")
    host.click("#start")
    host.wait_for_selector(".board .me")
    # The host takes income until it is Sepideh's turn; she does not answer.
    for _ in range(20):
        msg = state(host)
        game = msg["game"]
        if game["phase"] == "action" and game["turn"] == 1:
            break
        if "income" in game["legal"]:
            host.click('button[data-move="income"]')
        elif "pass" in game["legal"]:
            host.click('button[data-move="pass"]')
        wait_for(lambda v=msg["version"]: state(host)["version"] > v, what="a move")
    assert state(host)["game"]["turn"] == 1
    assert host.locator('.seat[data-seat="1"] .hand-to-bot').count() == 0  # she is here
    host.wait_for_selector(".countdown.k-stall", timeout=20000)  # the clock the others see
    host.wait_for_selector('.seat[data-seat="1"] .seat-clock')  # on her tile too
    _shot(host, "stall-clock")
    host.wait_for_selector('.seat[data-seat="1"] .badge[data-state="stalled"]', timeout=20000)
    assert "Not answering" in host.inner_text('.seat[data-seat="1"]')
    _shot(host, "stalled")
    host.click('.seat[data-seat="1"] .hand-to-bot')
    guest.wait_for_selector("#take-back")
    guest.click("#take-back")
    wait_for(lambda: state(guest)["table"]["seats"][1]["standin"] is None, what="hers again")
    reasons = [h["reason"] for h in state(guest)["table"]["handoffs"]]
    assert reasons == ["host", "back"]
    for page in (host, guest):
        page.context.close()
