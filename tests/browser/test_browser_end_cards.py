"""The end screen's cards, each player's last hand with its names: every character's name
in full in every catalog (right to left too) from 320 to 412 px wide and on a desktop,
never cut to "Conte…" (at 58 px wide "Ambassador", "Assassin" and "Contessa" were, even on
a desktop); the page never scrolls sideways; on a desktop the cards stay on the player's
line."""

from __future__ import annotations

from typing import Any

import pytest
from browser_checks import I18N, character_names, cut_short, finish_game, names_cut_short, play_now
from browser_driver import Shots

pytestmark = pytest.mark.browser

SIZES = [(320, 568), (360, 740), (390, 844), (412, 915), (1280, 800)]
BAND = ".end-cards .card-band"
# Sideways scrolling: the page's, and the end card's own (its statistics table scrolls
# in its own box, which is fine).
WIDE = """() => {
  const card = document.querySelector('.end-card'), root = document.documentElement;
  return [root.scrollWidth > innerWidth ? `page ${root.scrollWidth}>${innerWidth}` : null,
          card.scrollWidth > card.clientWidth ? `end card ${card.scrollWidth}>${card.clientWidth}` : null]
    .filter(Boolean);
}"""
# Rows whose cards went under the player's name.
WRAPPED = """() => [...document.querySelectorAll('.end-row')].filter((row) => {
  const name = row.querySelector('.seat-name').getBoundingClientRect();
  const cards = row.querySelector('.end-cards').getBoundingClientRect();
  return cards.top >= name.bottom;
}).map((row) => row.querySelector('.seat-name').textContent)"""


def test_end_card_names_in_full_in_every_language(browser: Any, server: str) -> None:
    page = browser.new_context(viewport={"width": 320, "height": 568}, locale="en-US").new_page()
    play_now(page, server, "Sara", 2)
    finish_game(page, Shots(None, "end-cards"))
    page.wait_for_selector(".end-screen .end-cards .card", timeout=8000)
    problems = []
    for catalog in sorted(I18N.glob("*.json")):
        lang, names = catalog.stem, character_names(catalog)
        page.select_option("#lang-select", lang)
        page.wait_for_function(
            "(lang) => document.documentElement.lang === lang && document.querySelector('.end-cards')",
            arg=lang,
        )
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(60)
            at = f"{lang} {width}x{height}"
            if cut := cut_short(page, BAND):
                problems.append(f"{at}: {cut}")
            if cut := names_cut_short(page, BAND, names):
                problems.append(f"{at}, any of the six names: {cut}")
            if wide := page.evaluate(WIDE):
                problems.append(f"{at}: scrolls sideways: {wide}")
            if width >= 820 and (wrapped := page.evaluate(WRAPPED)):
                problems.append(f"{at}: cards under the name of {wrapped}")
    assert not problems, "\n".join(problems)
    page.context.close()
