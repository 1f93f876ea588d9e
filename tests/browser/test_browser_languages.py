"""The other languages: Hebrew and Arabic right to left, Japanese in Japanese; the first
visit speaks the browser's language (a region's tag too), then the reader's choice; every
language fits a 320 px phone (German and French have the longest words)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_checks import I18N, answer, play_now
from browser_driver import state, wait_for

pytestmark = pytest.mark.browser
LANG_DIR = "[document.documentElement.lang, document.documentElement.dir]"


def _home(browser: Any, server: str, locale: str, width: int = 1280, height: int = 800) -> Any:
    """The home page in a fresh browser whose language is `locale`."""
    page = browser.new_context(
        viewport={"width": width, "height": height}, locale=locale
    ).new_page()
    page.goto(server + "/")
    page.wait_for_selector("#create")
    return page


def test_hebrew_page_is_right_to_left(browser: Any, server: str) -> None:
    page = _home(browser, server, "he-IL")
    assert page.evaluate(LANG_DIR) == ["he", "rtl"]
    assert page.inner_text("#rules-button") == "חוקים"
    assert page.inner_text("#create") == "פתיחת שולחן חדש"
    brand = page.locator("#brand").bounding_box()
    lang = page.locator("#lang-select").bounding_box()
    assert brand and lang and brand["x"] > 640 > lang["x"]
    page.context.close()


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
    page.wait_for_selector("#rules-dialog[open]")  # its code may still be on its way
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


def _catalog(lang: str) -> dict[str, str]:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


# The browser's language on a first visit -> the page's: the same tag, else the same base
# language (Portuguese of Portugal gets Brazil's catalog, the closest we have).
FIRST_VISITS = [
    ("pt-BR", "pt-BR"),
    ("pt-PT", "pt-BR"),
    ("pt", "pt-BR"),
    ("es-MX", "es"),
    ("de-AT", "de"),
    ("fr-CA", "fr"),
    ("ar-EG", "ar"),
    ("en-GB", "en"),
    ("zh-CN", "en"),
]


def test_a_first_visit_speaks_the_browsers_language_then_keeps_the_choice(
    browser: Any, server: str
) -> None:
    for locale, lang in FIRST_VISITS:
        page = _home(browser, server, locale)
        assert page.evaluate("document.documentElement.lang") == lang, locale
        assert page.inner_text("#create") == _catalog(lang)["home.create"], locale
        assert page.input_value("#lang-select") == lang, locale
        page.context.close()
    # The choice in the menu wins over the browser's language from then on, in every tab.
    page = _home(browser, server, "pt-BR")
    ctx = page.context
    page.select_option("#lang-select", "de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    page.reload()
    page.wait_for_selector("#create")
    assert page.inner_text("#create") == "Neuen Tisch eröffnen"
    other = ctx.new_page()
    other.goto(server + "/")
    other.wait_for_selector("#create")
    assert other.evaluate("document.documentElement.lang") == "de"
    # A link's ?lang= is read the way a browser's tag is (any case, a base language).
    for asked, lang in [("pt-br", "pt-BR"), ("pt", "pt-BR"), ("AR", "ar"), ("xx", "de")]:
        other.goto(f"{server}/?lang={asked}")
        other.wait_for_selector("#create")
        assert other.evaluate("document.documentElement.lang") == lang, asked
    ctx.close()


def test_arabic_is_right_to_left_with_arabic_fonts_and_digits_0_9(
    browser: Any, server: str
) -> None:
    page = _home(browser, server, "ar-SA", 390, 844)
    assert page.evaluate(LANG_DIR) == ["ar", "rtl"]
    assert page.inner_text("#create") == "افتح طاولة جديدة"
    assert page.inner_text("#lang-code").startswith("AR")
    assert page.evaluate("getComputedStyle(document.body).fontFamily").startswith(
        '"Noto Sans Arabic"'
    )
    brand = page.locator("#brand").bounding_box()
    rules = page.locator("#rules-button").bounding_box()
    assert brand and rules and brand["x"] > 195 > rules["x"]
    page.fill("#home-name", "سارة")
    assert page.inner_text("#home-name-count") == "4 / 24"
    page.click("#rules-button")
    page.wait_for_selector("#rules-dialog[open]")  # its code may still be on its way
    text = page.inner_text("#rules-dialog")
    assert "الدوق" in text and "البلاط" in text and "Duke" not in text
    page.click("#rules-close")
    play_now(page, server, "سارة", 3)
    page.wait_for_selector(".me .coin-count")
    coins = page.locator(".coin-count").all_inner_texts()
    assert coins and all(c.isascii() and c.isdigit() for c in coins), coins
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.context.close()


ACTIONS = ["income", "foreign_aid", "coup", "tax", "assassinate", "steal", "exchange", "examine"]


def _my_action(page: Any) -> bool:
    """True when this seat is to choose an action; a reaction asked before is passed."""
    game = state(page)["game"] or {}
    if game.get("phase") == "action" and game.get("legal"):
        return True
    answer(page, game, ("pass",))
    return False


def _decision_labels(lang: str) -> list[list[Any]]:
    """[what, class, name, hint] for every action button (half a phone's width) and the
    reactions' longest labels (a row of their own)."""
    c = _catalog(lang)
    card = c["char.ambassador"]
    labels: list[list[Any]] = [
        [verb, "general", c[f"act.{verb}"], c[f"act.{verb}.hint"].replace("{n}", "12")]
        for verb in [*ACTIONS, "convert", "embezzle"]
    ]
    for key, cls in [
        ("act.decline_lose", "danger"),
        ("act.block_as", "claim"),
        ("act.reveal", "claim"),
    ]:
        labels.append([key, cls, c[key].replace("{card}", card), None])
    return labels


@pytest.mark.parametrize("lang", sorted(path.stem for path in I18N.glob("*.json")))
def test_a_320_px_phone_fits_every_language(browser: Any, server: str, lang: str) -> None:
    """The home page and the table at 320 px: nothing sideways, no button's words cut; every
    action's name and hint inside half the pinned panel, the reactions' longest labels
    wrapped inside theirs."""
    page = _home(browser, server, lang, 320, 568)
    assert page.evaluate(CUT_BUTTONS) == [], lang
    play_now(page, server, "Sara", 3)
    wait_for(lambda: _my_action(page), 60, "this seat's turn")
    page.wait_for_selector(".decision .btn.act .act-name")
    assert page.evaluate(CUT_BUTTONS) == [], lang
    assert page.evaluate(LABELS_FIT, _decision_labels(lang)) == [], lang
    page.context.close()


# Visible buttons whose words overflow them, or that reach past the screen; and the page's
# own sideways scroll.
CUT_BUTTONS = """() => {
  const out = [], root = document.documentElement;
  if (root.scrollWidth > innerWidth) out.push(`page ${root.scrollWidth}>${innerWidth}`);
  for (const b of document.querySelectorAll('button, .btn')) {
    const r = b.getBoundingClientRect();
    if (!r.width || b.closest('.visually-hidden') || getComputedStyle(b).textOverflow === 'ellipsis') continue;
    if (b.scrollWidth > b.clientWidth + 1) out.push(`${b.textContent.trim()} ${b.scrollWidth}>${b.clientWidth}`);
    if (r.right > innerWidth + 1 || r.left < -1) out.push(`${b.textContent.trim()} at ${r.left}..${r.right}`);
  }
  return out;
}"""
# Copies of the first action button with each label, put in its row one at a time.
LABELS_FIT = """(labels) => {
  const model = document.querySelector('.decision .btn.act'), row = model.parentElement;
  const out = [];
  for (const [what, cls, name, hint] of labels) {
    const b = model.cloneNode(true);
    b.className = `btn act ${cls}`;
    if (hint === null) b.replaceChildren(name);
    else {
      b.querySelector('.act-name').textContent = name;
      b.querySelector('.act-hint').textContent = hint;
      b.style.flexGrow = '0';  // half the row, as when two share it
    }
    row.append(b);
    const r = b.getBoundingClientRect(), dock = b.closest('.dock') || row;
    if (b.scrollWidth > b.clientWidth + 1) out.push(`${what}: words ${b.scrollWidth}>${b.clientWidth}`);
    if (r.right > innerWidth + 1 || r.left < -1) out.push(`${what}: at ${r.left}..${r.right}`);
    if (dock.scrollWidth > dock.clientWidth + 1) out.push(`${what}: panel ${dock.scrollWidth}>${dock.clientWidth}`);
    b.remove();
  }
  return out;
}"""
