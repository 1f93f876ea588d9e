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


def test_a_phone_shows_the_language_as_its_code_never_cut(browser: Any, server: str) -> None:
    """On a phone the language select showed "Englis" (cut to 5.5em); now it shows the
    code, whole, and a tap on it opens the same select."""
    for width in (320, 390):
        ctx = browser.new_context(viewport={"width": width, "height": 800}, locale="en-US")
        page = ctx.new_page()
        page.goto(server + "/")
        page.wait_for_selector("#create")
        code = page.locator("#lang-code")
        assert code.is_visible() and code.inner_text().startswith("EN")
        assert page.evaluate("(e => e.scrollWidth <= e.clientWidth)", code.element_handle())
        box, select = code.bounding_box(), page.locator("#lang-select").bounding_box()
        assert box and select and select["width"] >= box["width"] - 1  # the tap lands on it
        assert box["x"] + box["width"] <= width
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.select_option("#lang-select", "fa")
        page.wait_for_function("() => document.documentElement.dir === 'rtl'")
        assert code.inner_text().startswith("FA")
        ctx.close()
    desktop = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = desktop.new_page()
    page.goto(server + "/")
    page.wait_for_selector("#create")
    assert not page.locator("#lang-code").is_visible()
    desktop.close()
