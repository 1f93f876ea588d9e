"""Pictures of "Learn to play" (not a test): the guided game at chosen steps, in English,
Persian, Japanese and Arabic, on a phone and a desktop, with the hints line on.

    .venv/bin/coup serve --port 8765 --db sqlite:////tmp/coup-tut.db --bot-delay 0.05,0.15 &
    .venv/bin/python tests/browser/tutorial_tour.py http://127.0.0.1:8765 /tmp/tutorial-shots

Japanese needs Debian's fonts-noto-cjk. Writes tutorial-{lang}-{size}-{step}.png; the
tutorial is scripted, so every run shows the same positions.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from browser_driver import CHROMIUM, CHROMIUM_ARGS
from playwright.sync_api import Browser, Page, sync_playwright

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
STEPS = ("welcome", "tax_bluff", "proven", "assassinate", "keep", "coup")


def _guide(page: Page) -> dict[str, str | bool]:
    handle = page.wait_for_function(
        """() => { const p = document.getElementById('tutorial');
             if (!p || p.dataset.waiting === '1') return null;
             return {step: p.dataset.step, next: Boolean(p.querySelector('#tut-next'))}; }""",
        timeout=20000,
    )
    return handle.json_value()  # type: ignore[no-any-return]


def tour(
    browser: Browser, base: str, lang: str, viewport: dict[str, int], steps: tuple[str, ...],
    folder: Path, prefix: str,
) -> list[Path]:  # fmt: skip
    """Play the base tutorial (Next and Skip), a picture at each of `steps`."""
    context = browser.new_context(viewport=viewport, locale=lang, is_mobile=viewport is PHONE,
                                  has_touch=viewport is PHONE)  # fmt: skip
    page = context.new_page()
    page.goto(f"{base}/?lang={lang}")
    page.evaluate("() => localStorage.setItem('coup.hints', '1')")
    page.click("#learn")
    taken: list[Path] = []
    for _ in range(80):
        guide = _guide(page)
        step = str(guide["step"])
        if step in steps and not any(p.stem.endswith(step) for p in taken):
            page.wait_for_timeout(700)  # the decision's guard and the scroll
            path = folder / f"{prefix}-{step}.png"
            page.screenshot(path=str(path))
            taken.append(path)
            if len(taken) == len(steps):
                break
        if not guide["next"]:  # the move's button, or the step moved on meanwhile
            page.wait_for_selector("#tut-skip:not([disabled]), #tut-next")
            if _guide(page) != guide:
                continue
        mark = page.evaluate(
            "() => { const p = document.getElementById('tutorial'); return p.dataset.step + p.dataset.move; }"
        )
        page.click("#tut-next" if guide["next"] else "#tut-skip")
        page.wait_for_function(
            """(m) => { const p = document.getElementById('tutorial');
                 return !p || p.dataset.step + p.dataset.move !== m; }""",
            arg=mark,
        )
    context.close()
    return taken


def main() -> int:
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8765"
    folder = Path(sys.argv[2] if len(sys.argv) > 2 else "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for lang in ("en", "fa", "ja", "ar"):
            for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
                tour(browser, base, lang, viewport, STEPS, folder, f"tutorial-{lang}-{size}")
        browser.close()
    print("\n".join(sorted(str(x) for x in folder.glob("tutorial-*.png"))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
