"""The cards to pick in the pinned panel on a phone (the draft's five, with the
Inquisitor): every card's name is shown in full, never cut to "Assas…" or "Conte…", at
320 and 360 px wide, in English and Romanian; and a pick band holds every character's
name of every catalog (the exchange shows the Ambassador, the longest)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser_driver import create_table, state, wait_for

pytestmark = pytest.mark.browser

CUT = """() => [...document.querySelectorAll('.decision .card .card-band')]
  .filter((b) => b.scrollWidth > b.clientWidth + 0.5)
  .map((b) => `${b.textContent} ${b.scrollWidth}>${b.clientWidth}`)"""
# Each name in turn in the first pick card's band: the ones that do not fit.
TRY = """(names) => {
  const band = document.querySelector('.decision .card .card-band');
  const name = band.querySelector('.card-name'), was = name.textContent, cut = [];
  for (const n of names) {
    name.textContent = n;
    if (band.scrollWidth > band.clientWidth + 0.5) cut.push(`${n} ${band.scrollWidth}>${band.clientWidth}`);
  }
  name.textContent = was;
  return cut;
}"""
I18N = Path(__file__).parents[2] / "coup" / "web" / "i18n"
CHARS = ["duke", "assassin", "captain", "ambassador", "inquisitor", "contessa"]
NAMES = [
    json.loads(f.read_text(encoding="utf-8"))[f"char.{c}"]
    for f in sorted(I18N.glob("*.json"))
    for c in CHARS
]


@pytest.mark.parametrize("locale", ["en-US", "ro-RO"])
def test_draft_card_names_in_full_on_a_phone(browser: Any, server: str, locale: str) -> None:
    page = browser.new_context(viewport={"width": 320, "height": 568}, locale=locale).new_page()
    create_table(page, server, "Mahshid", seats=2)
    page.click(".seg.c-inquisitor")
    page.locator("button.add-bot").first.click()
    wait_for(lambda: state(page)["table"]["seats"][1], what="bot seated")
    page.click("#start")
    wait_for(lambda: (state(page)["game"] or {}).get("phase") == "draft", what="draft")
    page.wait_for_selector(".decision .card-pick .card")
    problems = []
    for width, height in [(320, 568), (360, 740)]:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(60)
        if cut := page.evaluate(CUT):
            problems.append(f"{width}x{height}: {cut}")
        if cut := page.evaluate(TRY, NAMES):
            problems.append(f"{width}x{height}, any catalog's name: {cut}")
    assert not problems, "\n".join(problems)
    page.context.close()
