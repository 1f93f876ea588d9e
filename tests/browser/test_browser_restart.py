"""The server is killed mid-game: the page says it is reconnecting (its decision buttons
disabled meanwhile), then carries on."""

from __future__ import annotations

from typing import Any

import pytest
from browser_driver import create_table, state, wait_for

pytestmark = pytest.mark.browser


def test_page_survives_a_server_crash(browser: Any, own_server: Any) -> None:
    page = browser.new_context(locale="en-US").new_page()
    create_table(page, own_server.base, "Mahshid", seats=2)
    page.locator("button.add-bot").first.click()
    wait_for(lambda: state(page)["table"]["seats"][1], what="bot seated")
    page.click("#start")
    wait_for(lambda: (state(page)["game"] or {}).get("legal"), timeout=30, what="a decision")
    before = state(page)
    history = [e["move"] for e in before["game"]["history"]]

    own_server.kill()
    page.wait_for_selector(".net-bar", state="visible")
    wait_for(lambda: page.locator(".decision button:not([disabled])").count() == 0, 5, "disabled")
    assert page.locator(".decision button").count() > 0
    own_server.start()
    page.wait_for_selector(".net-bar", state="hidden", timeout=20000)

    after = state(page)
    assert after["you"] == before["you"]
    assert after["table"]["commitment"] == before["table"]["commitment"]
    assert [e["move"] for e in after["game"]["history"]][: len(history)] == history
    assert after["game"]["legal"]  # still this seat's decision, buttons shown again
    # Buttons back (after a new decision's 400 ms click guard, if the game moved on).
    wait_for(lambda: page.locator(".decision button:not([disabled])").count() > 0, 5, "buttons")
    page.context.close()
