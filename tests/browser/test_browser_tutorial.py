"""Learn to play: the whole guided game with the keyboard in English and with taps on a
390x844 phone in Arabic (each step's text as its catalog says, its highlight on screen,
no serious or critical axe-core violation); the hints line counts what this seat sees."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from browser_checks import axe
from browser_driver import state, wait_for
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from coup.server.tutorial import BASE

I18N = Path(__file__).parents[2] / "coup" / "web" / "i18n"
SHOTS = os.environ.get("COUP_SCREENSHOTS")
STEP_KEYS = [s.key for s in BASE.steps]


def _catalog(lang: str) -> dict[str, str]:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _names(page: Page) -> dict[str, str]:
    """The names the page shows for the seats (a bot's name is translated)."""
    got = page.evaluate(
        """() => Object.fromEntries([1, 2].map((s) => [`bot${s}`,
             document.querySelector(`.seat[data-seat="${s}"] .seat-name`)?.textContent]))"""
    )
    got["you"] = ""
    return got  # type: ignore[no-any-return]


def _expected(catalog: dict[str, str], key: str, names: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: names.get(m.group(1), m.group(0)), catalog[f"tut.{key}"])


def _on_screen(page: Page, selector: str) -> bool:
    return bool(
        page.evaluate(
            """(sel) => { const el = document.querySelector(sel); if (!el) return false;
               const r = el.getBoundingClientRect();
               return r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0
                 && r.top < innerHeight && r.left < innerWidth; }""",
            selector,
        )
    )


def _step(page: Page) -> dict[str, Any]:
    """The guide as shown once it settled (read in one go: the page may render between
    two reads): its step, whether it waits, its text."""
    handle = page.wait_for_function(
        """() => { const p = document.getElementById('tutorial');
             if (!p || p.dataset.waiting === '1') return null;
             return {step: p.dataset.step, target: p.dataset.target, move: p.dataset.move || '',
                     done: p.classList.contains('done'),
                     text: p.querySelector('.tut-text').textContent,
                     next: Boolean(p.querySelector('#tut-next'))}; }""",
        timeout=20000,
    )
    return handle.json_value()  # type: ignore[no-any-return]


def _check(page: Page, step: dict[str, Any], catalog: dict[str, str], seen: list[str]) -> None:
    """The step's text is its catalog's, and the part of the table it names is on screen."""
    if step["done"]:
        return
    want = _expected(catalog, step["step"], _names(page))
    assert step["text"] == want, (step["step"], step["text"], want)
    if step["target"]:
        page.wait_for_selector(".tut-target", timeout=5000)
        try:  # the guide scrolls it into view once the screen settled
            wait_for(lambda: _on_screen(page, ".tut-target"), 3, "the highlight on screen")
        except AssertionError:
            _shot(page, f"off-{step['step']}")
            raise AssertionError(f"{step['step']}: highlight off screen") from None
    if not seen or seen[-1] != step["step"]:
        seen.append(step["step"])


def _shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"tutorial-{name}.png"))


def _closed_after(page: Page, step: dict[str, Any], last: str) -> bool:
    """The last step's button (Play on) was pressed: the guide closes."""
    if step["step"] != last or not step["next"]:
        return False
    page.wait_for_function("() => !document.getElementById('tutorial')", timeout=20000)
    return True


MARK = """(() => { const p = document.getElementById('tutorial');
             const a = document.activeElement;
             const f = a ? [a.id, a.dataset.move, a.dataset.verb, a.dataset.index].join('/') : '';
             return p ? `${p.dataset.step}|${p.dataset.move}|${p.classList.contains('done')}|${f}` : 'none'; })()"""


def _wait_change(page: Page, before: str) -> None:
    page.wait_for_function(f"(before) => {MARK} !== before", arg=before, timeout=20000)


def _mark(page: Page) -> str:
    return page.evaluate(f"() => {MARK}")  # type: ignore[no-any-return]


def test_the_whole_tutorial_by_keyboard_in_english(browser: Any, server: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800}, locale="en-US")
    page.goto(server + "/?lang=en")
    page.fill("#home-name", "Sara")
    page.focus("#learn")
    page.keyboard.press("Enter")
    page.wait_for_selector("#tutorial", timeout=20000)
    catalog = _catalog("en")
    seen: list[str] = []
    problems = []
    for turn in range(120):
        step = _step(page)
        _check(page, step, catalog, seen)
        if turn in (0, 4):
            problems += axe(page)
            _shot(page, f"en-{step['step']}")
        # the guide focuses what the step waits for: its button, or Next
        page.wait_for_function(
            """() => { const a = document.activeElement;
                 return a && !a.disabled && (a.id === 'tut-next' || a.classList.contains('tut-move')
                   || Boolean(a.closest('.decision'))); }""",
            timeout=20000,
        )
        step = _step(page)
        _check(page, step, catalog, seen)
        before = _mark(page)
        page.keyboard.press("Enter")
        if _closed_after(page, step, STEP_KEYS[-1]):
            break  # Play on: the guide closed, the game goes on
        _wait_change(page, before)
    else:
        raise AssertionError(f"the tutorial did not end: {seen}")
    assert seen == STEP_KEYS
    assert problems == []
    said = page.locator("#live").text_content() or ""  # the screen reader heard the steps
    assert _expected(catalog, "own_way", _names(page)) in said
    assert state(page)["game"]["players"][1]["alive"] is False  # the coup took Bot 1 out
    page.close()


def test_the_whole_tutorial_by_taps_in_arabic_on_a_phone(browser: Any, server: str) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="ar", is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.goto(server + "/?lang=ar")
    page.wait_for_function("() => document.documentElement.dir === 'rtl'")
    page.tap("#learn")
    page.wait_for_selector("#tutorial", timeout=20000)
    catalog = _catalog("ar")
    seen: list[str] = []
    problems = []
    for turn in range(160):
        step = _step(page)
        _check(page, step, catalog, seen)
        if turn in (0, 6):
            problems += axe(page)
            _shot(page, f"ar-{step['step']}")
        if not step["next"]:  # the move it waits for, once its button takes a tap
            page.wait_for_selector(".tut-move:not([disabled]), #tut-next", timeout=20000)
            step = _step(page)
            _check(page, step, catalog, seen)
        before = _mark(page)
        if step["next"]:
            page.tap("#tut-next")
        else:
            page.locator(".tut-move:not([disabled])").first.tap()
        if _closed_after(page, step, STEP_KEYS[-1]):
            break
        _wait_change(page, before)
    else:
        raise AssertionError(f"the tutorial did not end: {seen}")
    assert seen == STEP_KEYS
    assert problems == []
    context.close()


def test_hints_count_from_this_seat(browser: Any, server: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800}, locale="en-US")
    page.goto(server + "/?lang=en")
    page.evaluate("() => localStorage.removeItem('coup.hints')")
    page.click("#learn")
    page.wait_for_selector("#tutorial", timeout=20000)
    page.wait_for_selector(".decision button")
    assert page.locator("#hint-line").count() == 0  # off until turned on
    page.click("#hints-button")
    line = page.locator("#hint-line")
    # the first turn: Exchange would be a bluff, and no Ambassador is out yet
    assert "Exchange (3 of 3 Ambassador cards unseen)" in line.text_content()
    assert line.text_content().startswith("Safe: Income, Foreign aid, Tax")
    _shot(page, "hints")

    def skip_to(key: str) -> None:
        for _ in range(40):
            step = _step(page)
            if step["step"] == key and step["move"]:
                return
            if not step["next"]:  # Skip, once the move can be played (or the step moved on)
                page.wait_for_selector("#tut-skip:not([disabled]), #tut-next")
                if _step(page) != step:
                    continue
            before = _mark(page)
            try:
                page.click("#tut-next" if step["next"] else "#tut-skip", timeout=5000)
            except PlaywrightTimeoutError:  # the step moved on between reading it and the click
                continue
            _wait_change(page, before)
        raise AssertionError(f"no step {key}")

    skip_to("tax_bluff")  # Bot 2 claims the Duke: I hold one, none is out
    page.wait_for_selector("#hint-line")
    assert "if Bot 2 has the Duke you lose a card" in line.text_content()
    assert "2 of 3 Duke cards unseen" in line.text_content()
    skip_to("tax")  # Bot 2 lost its Ambassador face up: one fewer to fear
    page.wait_for_selector("#hint-line")
    assert "Exchange (2 of 3 Ambassador cards unseen)" in line.text_content()
    page.reload()  # the switch and the guide's place are remembered by this browser
    page.wait_for_selector("#hint-line")
    assert _step(page)["step"] == "tax"
    page.click("#tut-back")  # Back re-reads the step before, Next comes back
    page.wait_for_function(
        "() => document.getElementById('tutorial').dataset.step === 'challenge_won'"
    )
    page.click("#tut-next")
    page.wait_for_function("() => document.getElementById('tutorial').dataset.step === 'tax'")
    page.click("#tut-leave")  # Leave: home, where the tutorial can be taken up again
    page.click("#learn-continue")
    assert _step(page)["step"] == "tax"
    page.close()


def test_the_epilogues_by_clicks(browser: Any, server: str) -> None:
    """The Inquisitor and Reformation epilogues from the home page, each step's button
    clicked where the guide points; then the game goes on with the bots."""
    from coup.server.tutorial import INQUISITOR, REFORMATION

    page = browser.new_page(viewport={"width": 1366, "height": 768}, locale="en-US")
    catalog = _catalog("en")
    for name, script in (("inquisitor", INQUISITOR), ("reformation", REFORMATION)):
        page.goto(server + "/?lang=en")
        page.click(f'.learn-box button[data-tutorial="{name}"]')
        page.wait_for_selector("#tutorial", timeout=20000)
        seen: list[str] = []
        for _ in range(60):
            step = _step(page)
            _check(page, step, catalog, seen)
            if not step["next"]:  # the move it waits for, once its button takes a click
                page.wait_for_selector(".tut-move:not([disabled]), #tut-next", timeout=20000)
                step = _step(page)
                _check(page, step, catalog, seen)
            before = _mark(page)
            if step["next"]:
                page.click("#tut-next")
            else:
                page.locator(".tut-move:not([disabled])").first.click()
            if _closed_after(page, step, script.steps[-1].key):
                break
            try:
                _wait_change(page, before)
            except Exception:  # noqa: BLE001 - playwright's own TimeoutError
                _shot(page, f"{name}-stuck")
                raise AssertionError(f"{name}: stuck at {step} after {seen}") from None
        assert seen == [s.key for s in script.steps], name
        assert page.locator(".board .me").count() == 1  # the game goes on
        _shot(page, f"{name}-end")
        assert axe(page) == []
    page.close()


def test_the_guide_stays_put_while_the_table_renders(browser: Any, server: str) -> None:
    """A render that changes nothing in the step (here: the cards-out tally opened, as a
    bot's move arriving would) keeps the guide's panel and its buttons, the same elements:
    a tap in flight lands on the button it aimed at, not on a replacement. When the step
    moves on, the panel says the next one."""
    page = browser.new_page(viewport={"width": 1280, "height": 800}, locale="en-US")
    page.goto(server + "/?lang=en")
    page.click("#learn")
    page.wait_for_selector("#tutorial", timeout=20000)
    first = _step(page)
    marked = "() => [document.getElementById('tutorial').__mark, document.getElementById('tut-next').__mark]"
    page.evaluate(
        "() => { for (const id of ['tutorial', 'tut-next']) document.getElementById(id).__mark = 'kept'; }"
    )
    page.click("#tally-button")
    page.wait_for_selector(".tally-button[aria-expanded='true']")
    assert _step(page) == first
    assert page.evaluate(marked) == ["kept", "kept"]
    page.click("#tut-next")  # the step moves on
    page.wait_for_function("() => document.getElementById('tutorial').dataset.step !== 'welcome'")
    assert _step(page) != first
    page.close()
