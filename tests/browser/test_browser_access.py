"""Accessibility: axe-core (vendored, loaded only by the tests) finds no serious or critical
violation on the home page, the lobby and the game, in English and Persian (the end screen
is scanned by the full-game test); every control has a name."""

from __future__ import annotations

from typing import Any

import pytest
from browser_checks import axe, decision, play_now
from browser_driver import create_table

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("locale", ["en-US", "fa-IR"])
def test_axe_finds_nothing_serious(browser: Any, server: str, locale: str) -> None:
    page = browser.new_context(locale=locale, viewport={"width": 390, "height": 844}).new_page()
    page.goto(server + "/")
    page.wait_for_selector("#home-name")
    assert axe(page) == [], "home"
    page.click("#rules-button")  # every character's card, whatever the deal
    page.wait_for_selector("#rules-dialog[open]")
    assert axe(page) == [], "rules"
    page.keyboard.press("Escape")
    create_table(page, server, "Mahshid", seats=4)
    assert axe(page) == [], "lobby"
    play_now(page, server, "Mahshid", 4)
    decision(page)
    assert axe(page) == [], "game"
    page.click("#tally-button")
    page.wait_for_selector("#tally")
    assert axe(page) == [], "game with the cards-out tally"
    page.context.close()
