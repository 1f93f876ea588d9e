"""Screenshot tour of every screen at a phone and a desktop viewport (not a test).

    .venv/bin/python tests/browser/screenshot_tour.py http://127.0.0.1:8765 [screenshots]

Needs a running `coup serve` (fast bots: --bot-delay 0.05,0.15). Writes PNGs named
<screen>-<phone|desktop>.png into the folder (default: screenshots/, git-ignored).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from browser_checks import answer, start_draft
from browser_driver import CHROMIUM, CHROMIUM_ARGS, Shots, click, create_table, state, wait_for
from browser_flow import open_pages, play
from playwright.sync_api import Browser, Page, sync_playwright

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1440, "height": 900}}


def statics(browser: Browser, base: str, shots: Shots, viewport: dict[str, int]) -> None:
    for locale, name in (("en-US", "home"), ("fa-IR", "home-fa")):
        page = browser.new_context(viewport=viewport, locale=locale).new_page()
        page.goto(base + "/")
        page.wait_for_selector("#create")
        shots.take(page, name)
        if locale == "en-US":
            page.click("#rules-button")
            page.wait_for_selector("#rules-dialog[open]")
            shots.take(page, "rules", full=False)
        page.context.close()


def until_my_action(page: Page, budget: float = 40.0) -> None:
    """Pass or take the first offered choice until it is this page's turn to act."""
    end = time.monotonic() + budget
    while time.monotonic() < end:
        game = (state(page) or {}).get("game") or {}
        if game.get("legal") and game.get("phase") == "action":
            return
        answer(page, game, ("pass",))
        time.sleep(0.1)
    raise AssertionError("never got a turn")


def timed_table(browser: Browser, base: str, shots: Shots, viewport: dict[str, int]) -> None:
    page = browser.new_context(viewport=viewport, locale="en-US").new_page()
    create_table(page, base, "Mahshid", seats=4, turn_timer=30)
    for _ in range(3):
        page.locator("button.add-bot").first.click()
        page.wait_for_timeout(150)
    wait_for(lambda: sum(1 for s in state(page)["table"]["seats"] if s) == 4, what="bots seated")
    shots.take(page, "lobby-bots")
    page.click("#start")
    until_my_action(page)
    shots.take(page, "game-countdown")
    page.context.close()


def draft_table(browser: Browser, base: str, shots: Shots, viewport: dict[str, int]) -> None:
    """Two seats, Inquisitor variant, draft on: the draft pick and the Inquisitor's actions."""
    page = browser.new_context(viewport=viewport, locale="en-US").new_page()
    start_draft(page, base)
    wait_for(lambda: state(page)["game"]["legal"], what="draft choice")
    shots.take(page, "game-draft")
    page.click('.decision [data-move="draft inquisitor"]')
    until_my_action(page)
    shots.take(page, "game-inquisitor")
    target = next(m for m in state(page)["game"]["legal"] if m.startswith("examine ")).split()[1]
    page.click('button[data-verb="examine"]')
    page.click(f'.seat.targetable[data-seat="{target}"]')
    end = time.monotonic() + 20
    while time.monotonic() < end:
        game = state(page)["game"]
        if game["legal"] and game["phase"] == "examine":
            shots.take(page, "game-examine")
            break
        if game["legal"] and game["phase"] == "prove":
            click(page, '.decision [data-move="reveal inquisitor"]')
        time.sleep(0.1)
    page.context.close()


def main() -> int:
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8765"
    folder = Path(sys.argv[2] if len(sys.argv) > 2 else "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, viewport in VIEWPORTS.items():
            shots = Shots(str(folder), name)
            statics(browser, base, shots, viewport)
            timed_table(browser, base, shots, viewport)
            draft_table(browser, base, shots, viewport)
            pages, watcher = open_pages(browser, viewport)
            play(pages, watcher, base, shots)
            for pg in [*pages, watcher]:
                pg.context.close()
        browser.close()
    print("\n".join(sorted(str(x) for x in folder.glob("*.png"))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
