"""The rulebooks' other languages: Hebrew right-to-left, Japanese in Japanese."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def test_hebrew_page_is_right_to_left(browser: Any, server: str) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale="he-IL")
    page = ctx.new_page()
    page.goto(server + "/")
    page.wait_for_selector("#create")
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [
        "he",
        "rtl",
    ]
    assert page.inner_text("#rules-button") == "חוקים"
    assert page.inner_text("#create") == "פתיחת שולחן חדש"
    brand = page.locator("#brand").bounding_box()
    lang = page.locator("#lang-select").bounding_box()
    assert brand and lang and brand["x"] > 640 > lang["x"]
    ctx.close()


def test_japanese_page_shows_japanese(browser: Any, server: str) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US")
    page = ctx.new_page()
    page.goto(server + "/?lang=ja")
    page.wait_for_selector("#create")
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [
        "ja",
        "ltr",
    ]
    assert page.inner_text("#create") == "新しいテーブルを開く"
    assert page.evaluate("getComputedStyle(document.body).wordBreak") == "auto-phrase"
    page.click("#rules-button")
    rules = page.inner_text("#rules-dialog")
    assert "デューク" in rules and "宮廷" in rules and "Duke" not in rules
    ctx.close()
