"""The page speaks the reader's language: Persian right-to-left, switchable, remembered."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_persian_page_is_right_to_left_and_switchable(browser: Any, server: str) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="fa-IR")
    page = ctx.new_page()
    page.goto(server + "/")
    page.wait_for_selector("#create")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.evaluate("document.documentElement.lang") == "fa"
    assert page.inner_text("#rules-button") == "قوانین"
    assert page.inner_text(".hero-title") == "کودتا"
    # Mirrored layout: the brand sits at the right edge, the language menu at the left.
    brand = page.locator("#brand").bounding_box()
    lang = page.locator("#lang-select").bounding_box()
    assert brand and lang and brand["x"] > 640 > lang["x"]
    # The rules card is one click away, in Persian.
    page.click("#rules-button")
    page.wait_for_selector("#rules-dialog[open]")  # its code may still be on its way
    assert "بزرگ\u200cزاده" in page.inner_text("#rules-dialog")
    page.click("#rules-close")
    # Switch to English: left-to-right at once, and remembered after a reload.
    page.select_option("#lang-select", "en")
    page.wait_for_function("() => document.documentElement.dir === 'ltr'")
    assert page.inner_text("#rules-button") == "Rules"
    page.reload()
    page.wait_for_selector("#create")
    assert page.evaluate("document.documentElement.dir") == "ltr"
    assert page.inner_text("#create") == "Open a new table"
    ctx.close()


def test_unknown_table_says_so(browser: Any, server: str) -> None:
    ctx = browser.new_context(locale="en-US")
    page = ctx.new_page()
    page.goto(server + "/t/NoSuchTable0000000000A")
    page.wait_for_selector(".missing")
    assert "No such table" in page.inner_text(".missing")
    ctx.close()
