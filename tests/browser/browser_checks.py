"""Helpers for the tests of the table's feel: tables with bots in one click, decisions,
layout boxes, the accessibility scan."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
from browser_driver import Shots, act, click, create_table, state, wait_for
from playwright.sync_api import Browser, Page

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
PHONES = [(320, 568), (390, 844), (412, 915)]
DESKTOPS = [(1280, 720), (1366, 768)]
SIDEWAYS = [(844, 390), (932, 430), (740, 360)]  # phones held sideways
I18N = Path(__file__).parents[2] / "coup" / "web" / "i18n"
CHARACTERS = ["duke", "assassin", "captain", "ambassador", "inquisitor", "contessa"]
LAPTOPS = [
    (1024, 768),
    (821, 1180),
]  # the decision on screen; the table partly under your area at 10 seats


def play_now(page: Page, base: str, name: str, seats: int) -> str:
    """The home page's "Play now against bots": a started table with `seats` seats."""
    page.goto(base + "/")
    page.fill("#home-name", name)
    page.select_option("#set-seats", str(seats))
    page.click("#play-now")
    page.wait_for_selector(".board .me", timeout=20000)
    return page.url


def start_draft(page: Page, base: str, name: str = "Mahshid") -> None:
    """A two-seat table with the Inquisitor and a bot, started: the two-player draft."""
    create_table(page, base, name, seats=2)
    page.click(".seg.c-inquisitor")
    page.locator("button.add-bot").first.click()
    wait_for(lambda: state(page)["table"]["seats"][1], what="bot seated")
    page.click("#start")
    wait_for(lambda: (state(page)["game"] or {}).get("phase") == "draft", what="draft")


def finish_game(page: Page, shots: Shots, budget: float = 150.0) -> dict[str, Any]:
    """Play this seat's decisions through the page (`browser_driver.act`: toward coups and
    challenges) until the game is over; returns the last view."""
    end = time.monotonic() + budget
    while time.monotonic() < end:
        msg = state(page)
        if msg and msg["game"] and msg["game"]["over"]:
            return msg
        if msg and msg["game"] and msg["game"]["legal"] and not act(page, msg, shots):
            page.wait_for_timeout(50)
        page.wait_for_timeout(30)
    raise AssertionError("the game did not finish")


def answer(page: Page, game: dict[str, Any], prefer: Sequence[str], timeout: float = 1500) -> bool:
    """Make the decision `game` (the view the caller looked at) asks of this seat unless the
    page is busy (a click of ours on its way): the first move of `prefer` that is legal,
    else the first legal move. False when there was none to make or its button did not come
    in `timeout` ms (the view moved on): the caller's loop looks again. The move is chosen
    from the caller's view, not a newer one, so a moment the caller waits for is never
    answered before the caller has seen it."""
    legal = game.get("legal") or []
    if not legal or page.evaluate("() => window.coupApp.busy"):
        return False
    move = next((m for m in prefer if m in legal), legal[0])
    return click(page, f'.decision [data-move="{move}"]:not([disabled])', timeout)


def decision(page: Page, timeout: float = 30.0) -> dict[str, Any]:
    """Wait until the page shows this seat a decision with its buttons clickable."""
    wait_for(lambda: (state(page)["game"] or {}).get("legal"), timeout, "a decision")
    page.wait_for_selector(".decision button:not([disabled])", timeout=timeout * 1000)
    return state(page)  # type: ignore[return-value]


def open_table(base: str, name: str, **settings: Any) -> tuple[str, str]:
    """Create a table over HTTP; returns (table link, the host's rejoin link)."""
    made = httpx.post(f"{base}/api/tables", json={"name": name, "settings": settings}).json()
    return base + made["url"], base + made["rejoin"]


def sit(base: str, url: str, name: str) -> str:
    table = url.rsplit("/", 1)[1]
    made = httpx.post(f"{base}/api/tables/{table}/seats", json={"name": name}).json()
    return base + made["rejoin"]


def lobby_pages(browser: Browser, links: list[str]) -> list[Page]:
    """One desktop browser per link (a seat's rejoin link, or the table link to watch),
    each showing the lobby."""
    pages = []
    for link in links:
        ctx = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
        page = ctx.new_page()
        page.goto(link)
        page.wait_for_selector(".lobby-seats")
        pages.append(page)
    return pages


def layout(page: Page) -> dict[str, Any]:
    """The viewport, the page's scroll width and every decision button's box."""
    return page.evaluate(  # type: ignore[no-any-return]
        """() => ({
          width: innerWidth, height: innerHeight,
          scrollWidth: document.documentElement.scrollWidth,
          buttons: [...document.querySelectorAll('.decision button')].map((b) => {
            const r = b.getBoundingClientRect();
            return {move: b.dataset.move || b.dataset.verb || b.textContent,
                    left: r.left, top: r.top, right: r.right, bottom: r.bottom};
          }),
        })"""
    )


def outside(box: dict[str, Any]) -> list[str]:
    """The decision buttons not wholly inside the viewport."""
    w, h = box["width"], box["height"]
    return [
        f"{b['move']} {b['left']:.0f},{b['top']:.0f}-{b['right']:.0f},{b['bottom']:.0f}"
        for b in box["buttons"]
        if b["left"] < -0.5 or b["top"] < -0.5 or b["right"] > w + 0.5 or b["bottom"] > h + 0.5
    ]


def axe(page: Page) -> list[str]:
    """Serious and critical accessibility violations axe-core finds on the page now."""
    if not page.evaluate("() => Boolean(window.axe)"):
        # evaluated, not added as a script tag: the page's CSP refuses inline scripts
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    found = page.evaluate(
        """async () => {
          // Not the passing overlays: an announcement or a flying coin caught mid-fade
          // has the contrast of its fade, not of its text.
          const r = await axe.run({exclude: [['#announce'], ['#flyers']]},
                                  {resultTypes: ['violations']});
          return r.violations.filter((v) => ['serious', 'critical'].includes(v.impact))
            .map((v) => ({id: v.id, help: v.help,
                          nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}));
        }"""
    )
    return [json.dumps(v, ensure_ascii=False) for v in found]


def character_names(catalog: Path) -> list[str]:
    """The six characters' names in one catalog of coup/web/i18n."""
    found = json.loads(catalog.read_text(encoding="utf-8"))
    return [found[f"char.{c}"] for c in CHARACTERS]


def cut_short(page: Page, selector: str) -> list[str]:
    """The elements of `selector` whose text does not fit (shown cut, with an ellipsis)."""
    return page.evaluate(  # type: ignore[no-any-return]
        """(selector) => [...document.querySelectorAll(selector)]
          .filter((b) => b.scrollWidth > b.clientWidth + 0.5)
          .map((b) => `${b.textContent} ${b.scrollWidth}>${b.clientWidth}`)""",
        selector,
    )


def names_cut_short(page: Page, band: str, names: list[str]) -> list[str]:
    """Each of `names` in turn in the first card band of `band` (its .card-name): the ones
    that do not fit. The band shows its own name again afterwards."""
    return page.evaluate(  # type: ignore[no-any-return]
        """([selector, names]) => {
          const band = document.querySelector(selector);
          const name = band.querySelector('.card-name'), was = name.textContent, cut = [];
          for (const n of names) {
            name.textContent = n;
            if (band.scrollWidth > band.clientWidth + 0.5) cut.push(`${n} ${band.scrollWidth}>${band.clientWidth}`);
          }
          name.textContent = was;
          return cut;
        }""",
        [band, names],
    )


def module(page: Page, name: str) -> str:
    """The page's own module `name` (the versioned URL the page imported)."""
    src = page.locator('script[type="module"]').get_attribute("src")
    return str(src).replace("/app.js", f"/{name}")


def settle(seconds: float = 0.45) -> None:
    """Let a new decision's click guard pass (about 400 ms)."""
    time.sleep(seconds)
