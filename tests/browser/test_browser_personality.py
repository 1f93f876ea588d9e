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
