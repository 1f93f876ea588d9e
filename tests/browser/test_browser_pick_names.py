"""The cards to pick in the pinned panel on a phone (the draft's five, with the
Inquisitor): every card's name is shown in full, never cut to "Assas…" or "Conte…", at
320 and 360 px wide, in English and Romanian; and a pick band holds every character's
name of every catalog (the exchange shows the Ambassador, the longest); a chosen card's tick
leaves its "Yours"/"New" tag readable."""

from __future__ import annotations

import time
from typing import Any

import pytest
from browser_checks import (
    I18N,
    answer,
    character_names,
    cut_short,
    names_cut_short,
    play_now,
    start_draft,
)
from browser_driver import state

pytestmark = pytest.mark.browser

BAND = ".decision .card .card-band"
NAMES = [n for f in sorted(I18N.glob("*.json")) for n in character_names(f)]


@pytest.mark.parametrize("locale", ["en-US", "ro-RO"])
def test_draft_card_names_in_full_on_a_phone(browser: Any, server: str, locale: str) -> None:
    page = browser.new_context(viewport={"width": 320, "height": 568}, locale=locale).new_page()
    start_draft(page, server)
    page.wait_for_selector(".decision .card-pick .card")
    problems = []
    for width, height in [(320, 568), (360, 740)]:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(60)
        if cut := cut_short(page, BAND):
            problems.append(f"{width}x{height}: {cut}")
        if cut := names_cut_short(page, BAND, NAMES):
            problems.append(f"{width}x{height}, any catalog's name: {cut}")
    assert not problems, "\n".join(problems)
    page.context.close()


# The chosen card's tick (its ::before) over the card's tag ("Yours", "New"): the area
# where they overlap, in square px (0 when apart).
TICK_ON_TAG = """() => {
  const card = document.querySelector('.exchange button.card.selected');
  const tag = card.querySelector('.card-tag');
  const c = card.getBoundingClientRect(), t = tag.getBoundingClientRect();
  const tick = getComputedStyle(card, '::before');
  const left = c.left + parseFloat(tick.left), top = c.top + parseFloat(tick.top);
  const w = Math.min(left + parseFloat(tick.width), t.right) - Math.max(left, t.left);
  const h = Math.min(top + parseFloat(tick.height), t.bottom) - Math.max(top, t.top);
  return Math.max(0, w) * Math.max(0, h);
}"""


def _my_exchange(page: Any, server: str) -> None:
    """Play a new table, claiming the Ambassador whenever it is our turn, until we choose
    the cards to keep; a table where we are knocked out first is left for a new one."""
    for _ in range(4):
        play_now(page, server, "Mahshid", 3)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            game = state(page)["game"] or {}
            legal = game.get("legal") or []
            if game.get("phase") == "exchange" and legal:
                return
            me, players = game.get("seat"), game.get("players") or []
            if game.get("over") or (me is not None and players and not players[me]["alive"]):
                break
            answer(page, game, ("exchange", "pass"))
            page.wait_for_timeout(150)
    raise AssertionError("no exchange of ours in four games")


def test_a_chosen_cards_tick_leaves_its_tag_readable_on_a_phone(browser: Any, server: str) -> None:
    """At 320 px the tick sat at mid-height, over the centred "Yours" tag ("✓ ours")."""
    page = browser.new_context(viewport={"width": 320, "height": 568}).new_page()
    _my_exchange(page, server)
    page.locator(".exchange button.card").first.click()
    page.wait_for_selector(".exchange button.card.selected")
    for width, height in [(320, 568), (360, 740), (412, 915), (740, 360), (1280, 800)]:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(60)
        assert page.evaluate(TICK_ON_TAG) == 0, f"{width}x{height}"
    page.context.close()
