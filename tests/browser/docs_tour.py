"""The pictures of docs/web.md (not a test): a table with bots, on a phone and a desktop,
in English, Persian and Japanese, with a decision, an announcement and the tally.

    .venv/bin/coup serve --port 8765 --db sqlite:////tmp/coup-docs.db --bot-delay 0.3,0.6 &
    .venv/bin/python tests/browser/docs_tour.py http://127.0.0.1:8765 docs

Japanese needs Debian's fonts-noto-cjk. Writes web-*.png into the folder. Which claim or
announcement comes first is the bots' luck: look at each picture against its caption in
docs/web.md and take again the ones that do not fit.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from browser_checks import answer, play_now
from browser_driver import CHROMIUM, CHROMIUM_ARGS, create_table, state
from playwright.sync_api import Browser, Page, sync_playwright

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
NAMES = {"en-US": "Sara", "fa-IR": "سارا", "ja-JP": "さくら"}


def until(page: Page, want: str, budget: float = 60.0) -> None:
    """Pass, or take income, until the page shows `want`: "action" (this seat's turn),
    "react" (a claim to answer) or "announce" (an announcement on screen)."""
    end = time.monotonic() + budget
    while time.monotonic() < end:
        msg = state(page)
        game = msg["game"]
        if want == "announce" and page.locator("#announce.show").count():
            # Past a new decision's click guard, whose buttons show greyed for 400 ms.
            page.wait_for_timeout(300)
            page.wait_for_function("() => !document.querySelector('.decision [data-guard]')")
            return
        if (
            game["legal"]
            and game["phase"] == want
            and not page.evaluate("() => window.coupApp.busy")
        ):
            page.wait_for_timeout(500)  # the click guard and the animations settle
            if state(page)["version"] == msg["version"]:
                return
            continue  # the bots moved on meanwhile (a block came): not this moment
        answer(page, game, ("pass", "income"))
        time.sleep(0.05)
    raise AssertionError(f"never saw {want}")


def table(
    browser: Browser,
    base: str,
    locale: str,
    viewport: dict[str, int],
    seats: int,
    shots: list[tuple[str, str]],
    folder: Path,
) -> None:
    page = browser.new_context(viewport=viewport, locale=locale).new_page()
    play_now(page, base, NAMES[locale], seats)
    for want, name in shots:
        if want == "tally":
            page.click("#tally-button")
            page.locator("#tally").scroll_into_view_if_needed()
            page.wait_for_timeout(2500)  # until any announcement has gone
        else:
            until(page, want)
        page.screenshot(path=str(folder / f"web-{name}.png"))
    page.context.close()


def lobby(browser: Browser, base: str, folder: Path) -> None:
    page = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    create_table(page, base, "Mahshid", seats=5)
    page.locator("button.add-bot").first.click()
    page.wait_for_timeout(300)
    page.click(".qr summary")
    page.wait_for_function("() => document.getElementById('qr-code').naturalWidth > 0")
    page.screenshot(path=str(folder / "web-lobby.png"))
    page.context.close()


def main() -> int:
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8765"
    folder = Path(sys.argv[2] if len(sys.argv) > 2 else "docs")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        table(
            browser,
            base,
            "en-US",
            DESKTOP,
            6,
            [("react", "desktop"), ("announce", "announce")],
            folder,
        )
        table(
            browser,
            base,
            "en-US",
            PHONE,
            10,
            [("action", "phone"), ("tally", "phone-tally")],
            folder,
        )
        table(browser, base, "fa-IR", PHONE, 6, [("react", "phone-fa")], folder)
        table(browser, base, "ja-JP", PHONE, 4, [("action", "phone-ja")], folder)
        lobby(browser, base, folder)
        browser.close()
    print("\n".join(sorted(str(x) for x in folder.glob("web-*.png"))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
