"""The host and the players during a game, through the page: the host lets a bot play an
absent player's seat (never a present, playing one's) and the player takes it back; a
player leaves a running game; a spectator chats, marked as watching, until the host turns
spectator chat off."""

from __future__ import annotations

from typing import Any

import pytest
from browser_checks import lobby_pages, open_table, sit
from browser_driver import state, wait_for

pytestmark = pytest.mark.browser


def test_hand_over_take_back_leave_and_spectator_chat(browser: Any, server: str) -> None:
    url, host_link = open_table(server, "Mahshid", seats=3, draft=False)
    guest_link = sit(server, url, "Sepideh")
    pages = lobby_pages(browser, [host_link, guest_link, url])
    host, guest, watcher = pages
    host.locator('button.add-bot[data-seat="2"]').click()
    wait_for(lambda: state(host)["table"]["seats"][2], what="bot seated")
    host.click("#start")
    for page in (host, guest):
        page.wait_for_selector(".board .me")
    watcher.wait_for_selector(".board")

    # Sepideh is here and playing: her seat is not offered to a bot.
    assert host.locator('.seat[data-seat="1"] .hand-to-bot').count() == 0
    # She goes away: the host hands her seat to a bot; back, she sees so and takes it back.
    guest.goto("about:blank")
    host.wait_for_selector('.seat[data-seat="1"] .badge[data-state="disconnected"]')
    host.click('.seat[data-seat="1"] .hand-to-bot')
    wait_for(lambda: state(host)["table"]["seats"][1]["standin"] == "host", what="a bot plays")
    guest.goto(guest_link)
    guest.wait_for_selector("#take-back")
    assert guest.locator(".dock").count() == 0  # no decision while a bot plays for her
    wait_for(
        lambda: "lets a bot play for Sepideh" in host.locator(".log-list").inner_text(),
        what="the log says so",
    )
    assert host.locator('.seat[data-seat="1"] .badge[data-state="standin"]').count() == 1
    guest.click("#take-back")
    wait_for(
        lambda: "Sepideh plays again" in guest.locator(".log-list").inner_text(),
        what="back in the log",
    )
    assert guest.locator("#take-back").count() == 0

    # The host lets spectators chat (off by default); one chats, marked as watching; the
    # host turns it off again.
    host.check("#spectator-chat")
    watcher.wait_for_selector(".chat-form input[name=chat]:not([disabled])")
    watcher.fill("#chat-name", "Dara")
    watcher.fill(".chat-form input[name=chat]", "good luck!")
    watcher.press(".chat-form input[name=chat]", "Enter")
    host.wait_for_selector(".chat-msg.watching")
    assert "Dara" in host.locator(".chat-msg.watching").inner_text()
    host.uncheck("#spectator-chat")
    watcher.wait_for_selector(".chat-form input[name=chat][disabled]")

    # Sepideh leaves the game: a bot plays on, the log says so, she watches.
    guest.click("#leave-game")
    guest.click("#leave-confirm")
    wait_for(lambda: state(guest)["you"]["seat"] is None, what="she watches")
    wait_for(
        lambda: "Sepideh left the game" in host.locator(".log-list").inner_text(),
        what="leaving in the log",
    )
    assert state(host)["table"]["seats"][1]["standin"] == "left"
    for page in pages:
        page.context.close()
