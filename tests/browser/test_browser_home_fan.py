"""The home page's fan of five cards, at phone, sideways-phone and desktop sizes, left to
right and right to left: every card lies whole inside the window (none cut at the edges
or the bottom), the page never scrolls sideways, no card lies over the title, and each
card's name is either not shown at all or shown in full (no "Assas…", and no
neighbouring card over any part of it)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser

SIZES = [
    (320, 568),
    (360, 740),
    (390, 844),
    (412, 915),
    (600, 960),
    (740, 360),
    (840, 900),
    (1000, 800),
    (1240, 800),
    (1250, 800),
    (1280, 800),
]

# For each card: its box, whether an ancestor clips it, and for a shown name the points
# along the name's own (tilted) line that belong to another element than this card.
FAN = """() => {
  const out = {width: innerWidth, scrollWidth: document.documentElement.scrollWidth, cards: []};
  const title = document.querySelector('.hero-title').getBoundingClientRect();
  out.title = title.top;
  for (const card of document.querySelectorAll('.hero-cards .card')) {
    const r = card.getBoundingClientRect();
    const info = {card: card.dataset.card, left: r.left, right: r.right, top: r.top,
                  bottom: r.bottom, clipped: false, name: null};
    for (let el = card.parentElement; el && el !== document.body; el = el.parentElement) {
      if (getComputedStyle(el).overflow === 'visible') continue;
      const c = el.getBoundingClientRect();
      if (r.left < c.left - 0.5 || r.right > c.right + 0.5 || r.top < c.top - 0.5
          || r.bottom > c.bottom + 0.5) info.clipped = true;
    }
    const band = card.querySelector('.card-band');
    const name = card.querySelector('.card-name');
    const style = getComputedStyle(band);
    const shown = name.offsetWidth > 0 && parseFloat(style.fontSize) > 0
      && style.display !== 'none' && style.visibility !== 'hidden';
    if (shown) {
      const m = new DOMMatrix(getComputedStyle(card).transform);
      const len = Math.hypot(m.a, m.b) || 1;
      const [dx, dy] = [m.a / len, m.b / len];
      const n = name.getBoundingClientRect();
      const [cx, cy] = [(n.left + n.right) / 2, (n.top + n.bottom) / 2];
      const half = name.offsetWidth / 2 - 1;
      const covered = [];
      for (const f of [-1, -0.5, 0, 0.5, 1]) {
        const [x, y] = [cx + f * half * dx, cy + f * half * dy];
        const hit = document.elementFromPoint(x, y);
        if (!hit || hit.closest('.card') !== card) covered.push(`${f}: ${hit?.className}`);
      }
      info.name = {text: name.textContent, cut: band.scrollWidth > band.clientWidth + 0.5,
                   covered};
    }
    out.cards.push(info);
  }
  return out;
}"""


def _problems(fan: dict[str, Any], where: str) -> list[str]:
    found = []
    if fan["scrollWidth"] > fan["width"]:
        found.append(f"{where}: the page scrolls sideways ({fan['scrollWidth']})")
    for c in fan["cards"]:
        what = f"{where} {c['card']}"
        if c["left"] < -0.5 or c["right"] > fan["width"] + 0.5:
            found.append(f"{what}: outside the window ({c['left']:.0f}..{c['right']:.0f})")
        if c["clipped"]:
            found.append(f"{what}: cut off by an ancestor's overflow")
        if c["bottom"] > fan["title"] + 0.5 and c["top"] < fan["title"]:
            found.append(f"{what}: lies over the title by {c['bottom'] - fan['title']:.0f} px")
        name = c["name"]
        if name and name["cut"]:
            found.append(f"{what}: name {name['text']!r} cut short")
        if name and name["covered"]:
            found.append(f"{what}: name {name['text']!r} covered at {name['covered']}")
    return found


@pytest.mark.parametrize("lang", ["en", "fa", "he", "ja", "id", "ro"])
def test_home_fan_cards_whole_and_names_in_full(browser: Any, server: str, lang: str) -> None:
    page = browser.new_context(viewport={"width": 320, "height": 568}).new_page()
    page.goto(f"{server}/?lang={lang}")
    page.wait_for_selector(".hero-cards .card")
    problems: list[str] = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(60)
        problems.extend(_problems(page.evaluate(FAN), f"{lang} {width}x{height}"))
    assert not problems, "\n".join(problems)
    page.context.close()
