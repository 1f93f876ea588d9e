"""The host picks a bot's level and personality for a seat in the lobby."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from browser_driver import create_table, state, wait_for

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("locale", "skeptic"), [("en-US", "The skeptic"), ("fa-IR", "بدگمان")])
def test_host_seats_a_bot_with_a_personality(
    browser: Any, server: str, locale: str, skeptic: str
) -> None:
    for width, height in ((360, 740), (1280, 800)):
        page = browser.new_context(locale=locale, viewport={"width": width, "height": height})
        host = page.new_page()
        create_table(host, server, "Mahshid", seats=4)
        host.locator('select.bot-level[data-seat="1"]').select_option("medium")
        host.locator('select.bot-personality[data-seat="1"]').select_option("skeptic")
        host.locator('button.add-bot[data-seat="1"]').click()
        host.locator('button.add-bot[data-seat="2"]').click()  # level default, random one

        def seats(host: Any = host) -> list[Any]:
            return state(host)["table"]["seats"]  # type: ignore[no-any-return]

        wait_for(lambda: seats()[1] and seats()[2], what="two bots seated")
        assert (seats()[1]["level"], seats()[1]["personality"]) == ("medium", "skeptic")
        assert (seats()[2]["level"], seats()[2]["personality"]) == ("easy", None)
        tag = host.locator('.lobby-seat[data-seat="1"] .tag-personality')
        assert tag.inner_text() == skeptic
        assert host.locator('.lobby-seat[data-seat="2"] .tag-personality').count() == 0
        shots = os.environ.get("COUP_SCREENSHOTS")
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            host.screenshot(path=f"{shots}/lobby-personality-{locale}-{width}.png", full_page=True)
        page.close()


def test_a_bot_choice_survives_the_views_that_arrive_meanwhile(browser: Any, server: str) -> None:
    """The lobby is drawn anew at every view: a level and personality the host picked but
    has not yet sent stay as picked when another view arrives (here the host's own chat
    line), and are what the bot gets."""
    page = browser.new_context(viewport={"width": 390, "height": 844})
    host = page.new_page()
    create_table(host, server, "Mahshid", seats=4)
    host.locator('select.bot-level[data-seat="1"]').select_option("hard")
    host.locator('select.bot-personality[data-seat="1"]').select_option("bluffer")
    before = state(host)["version"]
    host.fill(".chat-form input", "one moment")
    host.press(".chat-form input", "Enter")
    wait_for(lambda: state(host)["version"] > before, what="the chat line's view")
    assert host.locator('select.bot-level[data-seat="1"]').input_value() == "hard"
    assert host.locator('select.bot-personality[data-seat="1"]').input_value() == "bluffer"
    host.locator('button.add-bot[data-seat="1"]').click()
    wait_for(lambda: state(host)["table"]["seats"][1], what="the bot seated")
    seat = state(host)["table"]["seats"][1]
    assert (seat["level"], seat["personality"]) == ("hard", "bluffer")
    page.close()
