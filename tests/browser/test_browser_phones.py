"""Phones, desktops and large tables: at 320x568, 390x844 and 412x915, for 2, 6 and 10
seats, and at 1280x720, 1366x768, 1024x768 and 821x1180 for 6 and 10 seats, every
decision button lies wholly inside the viewport (the panel is pinned to the bottom), the
page never scrolls sideways and "Your decision" stays inside the centre's strip; at
1280x720 and 1366x768 no player's tile lies under your area while you decide. Phones held
sideways (844x390, 932x430, 740x360) are laid out as phones: the decision pinned to the
bottom, and at least a third of the window left for the table above it (the desktop
layout's area covered all but a quarter, the centre and the claim included)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_checks import (
    DESKTOPS,
    LAPTOPS,
    PHONES,
    SIDEWAYS,
    decision,
    layout,
    outside,
    play_now,
    settle,
)
from browser_driver import click

pytestmark = pytest.mark.browser

BADGE_OUT = """() => {
  const badge = document.querySelector('.centre .banner-you');
  if (!badge) return false;
  const b = badge.getBoundingClientRect(), c = badge.closest('.centre').getBoundingClientRect();
  return b.left < c.left || b.right > c.right;
}"""
COVERED = """() => {
  const me = document.querySelector('.me.deciding');
  if (!me) return [];
  const top = me.getBoundingClientRect().top;
  return [...document.querySelectorAll('.seats .seat')]
    .filter((s) => s.getBoundingClientRect().bottom > top + 1)
    .map((s) => `${s.querySelector('.seat-name')?.textContent} by ${
      Math.round(s.getBoundingClientRect().bottom - top)} px`);
}"""

TABLE_IN_VIEW = """() => {
  const dock = document.querySelector('.dock.deciding');
  const pinned = dock && getComputedStyle(dock).position === 'fixed';
  const top = (pinned ? dock : document.querySelector('.me.deciding') || dock).getBoundingClientRect().top;
  return [pinned, top - document.querySelector('.topbar').getBoundingClientRect().bottom];
}"""


def _check_sizes(
    page: Any, what: str, problems: list[str], sizes: list[tuple[int, int]] = PHONES
) -> None:
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(60)
        box = layout(page)
        assert box["buttons"], f"{what}: no decision buttons"
        if box["scrollWidth"] > box["width"]:
            problems.append(f"{what} {width}x{height}: scrolls sideways ({box['scrollWidth']})")
        problems.extend(f"{what} {width}x{height}: {b}" for b in outside(box))
        if page.evaluate(BADGE_OUT):
            problems.append(f"{what} {width}x{height}: 'Your decision' overflows the centre")
        if (width, height) in DESKTOPS:  # the table stays in view above your decision
            hidden = page.evaluate(COVERED)
            problems.extend(f"{what} {width}x{height}: {h} under your area" for h in hidden)
        if (width, height) in SIDEWAYS:
            pinned, room = page.evaluate(TABLE_IN_VIEW)
            if not pinned:
                problems.append(f"{what} {width}x{height}: the decision is not pinned")
            if room < height / 3:
                problems.append(f"{what} {width}x{height}: {room:.0f} px left for the table")


@pytest.mark.parametrize(
    ("seats", "sizes"),
    [
        (2, PHONES),
        (6, PHONES + SIDEWAYS),
        (10, PHONES + SIDEWAYS),
        (6, DESKTOPS + LAPTOPS),
        (10, DESKTOPS + LAPTOPS),
    ],
    ids=["2-phones", "6-phones", "10-phones", "6-desktops", "10-desktops"],
)
def test_every_decision_button_is_on_screen(
    browser: Any, server: str, seats: int, sizes: list[tuple[int, int]]
) -> None:
    width, height = sizes[0]
    page = browser.new_context(
        viewport={"width": width, "height": height}, locale="en-US"
    ).new_page()
    play_now(page, server, "Sara", seats)
    problems: list[str] = []
    seen: set[str] = set()
    while "action" not in seen:
        msg = decision(page, timeout=60)
        game = msg["game"]
        phase = game["phase"]
        seen.add(phase)
        _check_sizes(page, f"{seats} seats, {phase}", problems, sizes)
        if phase == "action":
            verb = next(
                (
                    v
                    for v in ("steal", "assassinate", "coup")
                    if any(m.startswith(v + " ") for m in game["legal"])
                ),
                None,
            )
            if verb:  # the target choice: one button per player
                page.set_viewport_size({"width": width, "height": height})
                page.click(f'.decision button[data-verb="{verb}"]')
                page.wait_for_selector(".decision .target-chip")
                _check_sizes(page, f"{seats} seats, {verb} target", problems, sizes)
            break
        if not click(page, '.decision button[data-move="pass"]:not([disabled])', 2000):
            page.locator(".decision button:not([disabled])").first.click()
        settle(0.2)
    assert not problems, "\n".join(problems)
    page.context.close()
