"""The page speaks the reader's language: Persian right-to-left, switchable, remembered."""

from __future__ import annotations

from typing import Any

import pytest
from browser_checks import module

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


def test_numbers_are_written_as_intl_writes_them_in_every_language(
    browser: Any, server: str
) -> None:
    """Small whole numbers skip Intl.NumberFormat (its locale data is slow to load on a
    phone) and are written in the language's own digits: the same text Intl would give."""
    page = browser.new_page()
    page.goto(server + "/")
    page.wait_for_selector("#create")
    differ = page.evaluate(
        """async (url) => {
          const { LANGUAGES, num, setLanguage } = await import(url);
          const differ = [];
          for (const [lang, info] of Object.entries(LANGUAGES)) {
            await setLanguage(lang);
            const intl = new Intl.NumberFormat(info.numbers ?? lang);
            for (const n of [...Array(1000).keys(), 1000, 1500, 12345, 2.5, -3]) {
              if (num(n) !== intl.format(n)) differ.push([lang, n, num(n), intl.format(n)]);
            }
          }
          await setLanguage("en");
          return differ;
        }""",
        module(page, "i18n.js"),
    )
    assert differ == []
    # Persian in Persian digits, grouped past a thousand; Arabic in 0-9 as its catalog.
    assert page.evaluate(
        """async (url) => {
          const { num, setLanguage } = await import(url);
          const out = [];
          for (const lang of ["fa", "ar", "de"]) { await setLanguage(lang); out.push(num(7), num(1500)); }
          await setLanguage("en");
          return out;
        }""",
        module(page, "i18n.js"),
    ) == ["۷", "۱٬۵۰۰", "7", "1,500", "7", "1.500"]
    page.context.close()
