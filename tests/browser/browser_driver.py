"""Helpers that play Coup through the page's buttons (never by sending protocol messages)."""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import Page

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def state(page: Page) -> dict[str, Any] | None:
    """The last view message the page rendered (read-only peek for choosing what to click)."""
    return page.evaluate("() => window.coupApp && window.coupApp.msg")  # type: ignore[no-any-return]


def create_table(page: Page, base: str, name: str, **settings: Any) -> str:
    page.goto(base + "/")
    page.fill("#home-name", name)
    if "seats" in settings:
        page.select_option("#set-seats", str(settings["seats"]))
    for key in ("turn_timer", "reaction_timer"):
        if key in settings:
            page.select_option(f"#set-{key}", str(settings[key]))
    page.click("#create")
    page.wait_for_selector(".lobby-seats")
    return page.url


def join(page: Page, url: str, name: str) -> None:
    page.goto(url)
    page.wait_for_selector(".lobby-seats")
    page.fill("#lobby-name", name)
    page.locator("button.sit").first.click()
    page.wait_for_selector(".lobby-seat.mine")


def wait_for(cond: Any, timeout: float = 20.0, what: str = "condition") -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = cond()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def click(page: Page, selector: str, timeout: float = 6000) -> bool:
    """Click if the element shows up in time; False if the page moved on meanwhile."""
    try:
        page.locator(selector).first.click(timeout=timeout)
        return True
    except Exception:  # noqa: BLE001 - playwright raises its own TimeoutError / detached errors
        return False


def close_choice(page: Page) -> None:
    """Close a choice a try left open (a target or a card), so that the buttons decided
    on next are on screen."""
    cancel = '.decision button[data-move="cancel"]'
    if page.locator(cancel).count():
        click(page, cancel)


def events(game: dict[str, Any]) -> dict[str, bool]:
    moves = [str(e["move"]) for e in game.get("history", [])]
    return {
        "exchange": any(m.startswith("keep") for m in moves),
        "block": any(m.startswith("block") for m in moves),
        "challenge": any(m == "challenge" for m in moves),
        "coup": any(m.startswith("coup") for m in moves),
    }


class Shots:
    """Takes one screenshot per named moment (first occurrence only)."""

    def __init__(self, folder: str | None, suffix: str) -> None:
        self.folder = folder
        self.suffix = suffix
        self.taken: set[str] = set()

    def take(self, page: Page, name: str, full: bool = True) -> None:
        if not self.folder or name in self.taken:
            return
        self.taken.add(name)
        page.wait_for_timeout(250)
        if full:
            page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=f"{self.folder}/{name}-{self.suffix}.png", full_page=full)


def act(page: Page, msg: dict[str, Any], shots: Shots) -> bool:
    """Choose one of the buttons the page shows, steering toward an exchange, a block, a coup
    (a target clicked, a lose choice) and challenges, then toward a quick end (every claim
    challenged, coups when possible)."""
    game = msg["game"]
    legal: list[str] = game["legal"]
    phase = game["phase"]
    done = events(game)
    pend = game.get("pending") or {}
    if phase == "action":
        close_choice(page)
        if not done["exchange"] and "exchange" in legal:
            return click(page, 'button[data-move="exchange"]')
        if not done["block"] and "foreign_aid" in legal:
            return click(page, 'button[data-move="foreign_aid"]')
        coups = [m for m in legal if m.startswith("coup ")]
        if coups:
            if not click(page, 'button[data-verb="coup"]'):
                return False
            shots.take(page, "game-target")
            target = coups[0].split()[1]
            return click(page, f'.seat.targetable[data-seat="{target}"]')
        return click(page, 'button[data-move="tax"]')
    if phase == "react":
        shots.take(page, "game-react")
        if pend.get("action") == "foreign_aid" and "block duke" in legal:
            return click(page, 'button[data-move="block duke"]')
        if pend.get("action") == "tax" and done["coup"] and "challenge" in legal:
            return click(page, 'button[data-move="challenge"]')
        return click(page, 'button[data-move="pass"]')
    if phase in ("block", "challenge_block"):
        return click(page, 'button[data-move="pass"]')
    if phase == "prove":
        shots.take(page, "game-prove")
        reveal = [m for m in legal if m.startswith("reveal")]
        return click(page, f'button[data-move="{(reveal or legal)[0]}"]')
    if phase == "lose":
        shots.take(page, "game-lose")
        return click(page, f'button[data-move="{legal[0]}"]')
    if phase == "exchange":
        need = len(legal[0].split()) - 1
        for i in range(need):
            card = f'.exchange button.card[data-index="{i}"]'
            try:
                chosen = page.locator(card).get_attribute("aria-pressed", timeout=2000)
            except Exception:  # noqa: BLE001 - the page moved on since its state was read
                return False  # the caller reads the state again
            if chosen == "true":
                continue  # chosen on an earlier try
            if not click(page, card):
                return False
        shots.take(page, "game-exchange")
        return click(page, ".exchange button.btn.primary:not([disabled])")
    return click(page, f'button[data-move="{legal[0]}"]')
