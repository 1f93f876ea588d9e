"""The host's lobby on phones (320, 360 and 412 px wide), in English, Romanian (the
longest labels) and Persian: the page never scrolls sideways and nothing in the lobby's
panels reaches past their edges. An empty seat's level, personality and "Add a bot" in
one row made the page 456 px wide at 320, and Romanian's "Copy my rejoin link" pushed
the table link's block out of its panel."""

from __future__ import annotations

from typing import Any

import pytest
from browser_driver import create_table

pytestmark = pytest.mark.browser

SIZES = [(320, 568), (360, 740), (412, 915)]
OUTSIDE = """() => {
  const out = [];
  for (const panel of document.querySelectorAll('.lobby-main, .lobby-settings, .panel.chat')) {
    const p = panel.getBoundingClientRect();
    for (const e of panel.querySelectorAll('*')) {
      if (!e.offsetParent) continue;
      const r = e.getBoundingClientRect();
      if (r.right > p.right + 0.5 || r.left < p.left - 0.5)
        out.push(`${e.tagName}.${e.className} ${e.textContent.trim().slice(0, 25)}`);
    }
  }
  return out.slice(0, 5);
}"""


@pytest.mark.parametrize("locale", ["en-US", "ro-RO", "fa-IR"])
def test_host_lobby_fits_a_phone(browser: Any, server: str, locale: str) -> None:
    page = browser.new_context(viewport={"width": 320, "height": 568}, locale=locale).new_page()
    create_table(page, server, "Mahshid", seats=4)
    page.locator("button.add-bot").first.click()
    page.wait_for_selector(".lobby-seat .seat-controls select")
    problems = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(60)
        scroll = page.evaluate("document.documentElement.scrollWidth")
        if scroll > width:
            problems.append(f"{width}x{height}: the page is {scroll} px wide")
        if out := page.evaluate(OUTSIDE):
            problems.append(f"{width}x{height}: past a panel's edge: {out}")
    assert not problems, "\n".join(problems)
    page.context.close()
