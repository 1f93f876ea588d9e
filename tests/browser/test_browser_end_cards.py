"""The end screen's cards, each player's last hand with its names: every character's name
in full in every catalog (right to left too) from 320 to 412 px wide and on a desktop,
never cut to "Conte…" (at 58 px wide "Ambassador", "Assassin" and "Contessa" were, even on
a desktop); the page never scrolls sideways; on a desktop the cards stay on the player's
line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser_checks import finish_game, play_now
from browser_driver import Shots

pytestmark = pytest.mark.browser

I18N = Path(__file__).parents[2] / "coup" / "web" / "i18n"
CHARS = ["duke", "assassin", "captain", "ambassador", "inquisitor", "contessa"]
SIZES = [(320, 568), (360, 740), (390, 844), (412, 915), (1280, 800)]
CUT = """() => [...document.querySelectorAll('.end-cards .card-band')]
  .filter((b) => b.scrollWidth > b.clientWidth + 0.5)
  .map((b) => `${b.textContent} ${b.scrollWidth}>${b.clientWidth}`)"""
# Each name in turn in the first end card's band: the ones that do not fit.
TRY = """(names) => {
  const band = document.querySelector('.end-cards .card-band');
  const name = band.querySelector('.card-name'), was = name.textContent, cut = [];
  for (const n of names) {
    name.textContent = n;
    if (band.scrollWidth > band.clientWidth + 0.5) cut.push(`${n} ${band.scrollWidth}>${band.clientWidth}`);
  }
  name.textContent = was;
  return cut;
}"""
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
        lang = catalog.stem
        names = [json.loads(catalog.read_text(encoding="utf-8"))[f"char.{c}"] for c in CHARS]
        page.select_option("#lang-select", lang)
        page.wait_for_function(
            "(lang) => document.documentElement.lang === lang && document.querySelector('.end-cards')",
            arg=lang,
        )
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_timeout(60)
            at = f"{lang} {width}x{height}"
            if cut := page.evaluate(CUT):
                problems.append(f"{at}: {cut}")
            if cut := page.evaluate(TRY, names):
                problems.append(f"{at}, any of the six names: {cut}")
            if wide := page.evaluate(WIDE):
                problems.append(f"{at}: scrolls sideways: {wide}")
            if width >= 820 and (wrapped := page.evaluate(WRAPPED)):
                problems.append(f"{at}: cards under the name of {wrapped}")
    assert not problems, "\n".join(problems)
    page.context.close()
