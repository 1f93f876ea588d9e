"""Phones and large tables: at 320x568, 390x844 and 412x915, for 2, 6 and 10 seats, every
decision button lies wholly inside the viewport (the panel is pinned to the bottom) and the
page never scrolls sideways."""

from __future__ import annotations

from typing import Any

import pytest
from browser_checks import PHONES, decision, layout, outside, play_now, settle
from browser_driver import click

pytestmark = pytest.mark.browser


def _check_sizes(page: Any, what: str, problems: list[str]) -> None:
    for width, height in PHONES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(60)
        box = layout(page)
        assert box["buttons"], f"{what}: no decision buttons"
        if box["scrollWidth"] > box["width"]:
            problems.append(f"{what} {width}x{height}: scrolls sideways ({box['scrollWidth']})")
        problems.extend(f"{what} {width}x{height}: {b}" for b in outside(box))


@pytest.mark.parametrize("seats", [2, 6, 10])
def test_every_decision_button_fits_a_phone(browser: Any, server: str, seats: int) -> None:
    page = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US").new_page()
    play_now(page, server, "Sara", seats)
    problems: list[str] = []
    seen: set[str] = set()
    while "action" not in seen:
        msg = decision(page, timeout=60)
        game = msg["game"]
        phase = game["phase"]
        seen.add(phase)
        _check_sizes(page, f"{seats} seats, {phase}", problems)
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
                page.set_viewport_size({"width": 390, "height": 844})
                page.click(f'.decision button[data-verb="{verb}"]')
                page.wait_for_selector(".decision .target-chip")
                _check_sizes(page, f"{seats} seats, {verb} target", problems)
            break
        if not click(page, '.decision button[data-move="pass"]:not([disabled])', 2000):
            page.locator(".decision button:not([disabled])").first.click()
        settle(0.2)
    assert not problems, "\n".join(problems)
    page.context.close()
