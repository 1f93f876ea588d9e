"""Players' names at desktop and phone sizes: while a bot's turn is on (its tile marked
"Turn") and you decide, no tile's name and not your own is cut short. A six-seat table
puts five tiles of 190-200 px in a row at 1440x900, where the mark beside the avatar and
the bot tag left "Bot 3" as "Bo…"; at 320 px your coins and "Thinking…" beside your name
left "Mahshid" as "Mah…"."""

from __future__ import annotations

import time
from typing import Any

import pytest
from browser_checks import play_now

pytestmark = pytest.mark.browser

SIZES = [(1440, 900), (1280, 800), (1366, 768), (1024, 768), (320, 568), (360, 740)]
CUT = """() => [...document.querySelectorAll('.seats .seat-name, .me-head .seat-name')]
  .filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent)"""


@pytest.mark.parametrize("locale", ["en-US", "fa-IR"])
def test_names_in_full_beside_the_turn_mark(browser: Any, server: str, locale: str) -> None:
    page = browser.new_context(viewport={"width": 1440, "height": 900}, locale=locale).new_page()
    play_now(page, server, "Mahshid", 6)
    end = time.monotonic() + 40
    while time.monotonic() < end:  # take income until a bot's claim waits on you
        if page.query_selector(".seats .seat.is-turn .turn-mark") and page.query_selector(
            ".decision button:not([disabled])"
        ):
            break
        income = '.decision button[data-move="income"]:not([disabled])'
        if page.query_selector(income):
            page.click(income)
        time.sleep(0.1)
    else:
        raise AssertionError("no bot's turn waited on a decision")
    problems = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(60)
        cut = page.evaluate(CUT)
        if cut:
            problems.append(f"{width}x{height}: {cut} cut short")
        if width < 821:  # phones show no turn mark: the gold border says it
            continue
        mark = page.locator(".seats .seat.is-turn .turn-mark").bounding_box()
        name = page.locator(".seats .seat.is-turn .seat-name").bounding_box()
        assert mark and name
        if mark["y"] + mark["height"] > name["y"] and (
            mark["x"] < name["x"] + name["width"] and name["x"] < mark["x"] + mark["width"]
        ):
            problems.append(f"{width}x{height}: the turn mark lies over the name")
    assert not problems, "\n".join(problems)
    page.context.close()
