"""One full game at one table by three browser contexts (English, English, Persian) and a
spectator, through the page's buttons only. Used by the test and by the screenshot tour."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from browser_driver import Shots, act, create_table, events, join, state, wait_for
from playwright.sync_api import Browser, Page

PLAYERS = [("Mahshid", "en-US"), ("Sepideh", "en-US"), ("Bahareh", "fa-IR")]


def open_pages(browser: Browser, viewport: dict[str, int]) -> tuple[list[Page], Page]:
    pages = []
    for _, locale in PLAYERS:
        ctx = browser.new_context(viewport=viewport, locale=locale, accept_downloads=True)
        pages.append(ctx.new_page())
    watcher = browser.new_context(viewport=viewport, locale="en-US").new_page()
    return pages, watcher


def play(
    pages: list[Page], watcher: Page, base: str, shots: Shots, budget: float = 180.0
) -> dict[str, Any]:
    """Returns facts for the assertions: the record, the log texts, the reload result."""
    host, second, third = pages
    url = create_table(host, base, PLAYERS[0][0], seats=3, reaction_timer=0)
    shots.take(host, "lobby-host")
    join(second, url, PLAYERS[1][0])
    third.goto(url)
    third.wait_for_selector(".lobby-seats")
    shots.take(third, "lobby-guest-fa")
    third.fill("#lobby-name", PLAYERS[2][0])
    third.locator("button.sit").first.click()
    third.wait_for_selector(".lobby-seat.mine")
    host.fill(".chat-form input", "<img src=x onerror=window.pwned=1> salam!")
    host.press(".chat-form input", "Enter")
    wait_for(lambda: second.locator(".chat-msg").count() > 0, what="chat arrives")
    shots.take(host, "lobby-host-chat")
    wait_for(lambda: not host.locator("#start").is_disabled(), what="start enabled")
    host.click("#start")
    for pg in pages:
        pg.wait_for_selector(".board .me")
    watcher.goto(url)
    watcher.wait_for_selector(".board")
    facts: dict[str, Any] = {"reloaded": None, "spectator_decisions": None}
    acted: dict[int, tuple[int, float]] = {}
    reload_done = False
    end = time.monotonic() + budget
    while True:
        if time.monotonic() > end:
            raise AssertionError(
                f"game did not finish in {budget}s: {state(host)['game']['history']}"
            )
        msgs = [state(pg) for pg in pages]
        if all(m and m["game"] and m["game"]["over"] for m in msgs):
            break
        done = events(msgs[0]["game"])
        if not reload_done and done["exchange"] and done["block"]:
            reload_done = True
            seat_before = msgs[1]["you"]["seat"]
            second.reload()
            second.wait_for_selector(".board .me")
            after = state(second)
            facts["reloaded"] = (seat_before, after["you"]["seat"], after["you"]["name"])
            facts["spectator_decisions"] = watcher.locator(".decision button").count()
            # The personal rejoin link, opened in another browser (say, a phone), seats it too.
            link = second.evaluate("() => window.coupApp.rejoinLink()")
            phone = watcher.context.browser.new_context(locale="en-US").new_page()
            phone.goto(link)
            phone.wait_for_selector(".board .me")
            facts["rejoined"] = (state(phone)["you"]["seat"], "#token" in phone.url)
            phone.context.close()
            shots.take(watcher, "game-spectator")
            continue
        for i, (pg, msg) in enumerate(zip(pages, msgs)):
            game = msg["game"] if msg else None
            if not game or game["over"] or not game["legal"]:
                continue
            # One try per view; another after 5 s if nothing came of it (a click can time
            # out on a loaded machine, and a new decision takes no click for 400 ms).
            last = acted.get(i)
            if last and last[0] == msg["version"] and time.monotonic() - last[1] < 5:
                continue
            if pg.evaluate("() => window.coupApp.busy"):
                continue
            acted[i] = (msg["version"], time.monotonic())
            if i == 2 and done["exchange"]:
                shots.take(pg, "game-fa")
            act(pg, msg, shots)
        time.sleep(0.03)
    for pg in pages:
        pg.wait_for_selector(".end-screen")
    shots.take(host, "end")
    shots.take(third, "end-fa")
    watcher.wait_for_selector(".end-screen")
    with host.expect_download() as dl:
        host.click("#download-record")
    facts["record"] = json.loads(Path(dl.value.path()).read_text())
    facts["logs"] = [pg.locator(".log-list").inner_text() for pg in pages]
    facts["dirs"] = [pg.evaluate("() => document.documentElement.dir") for pg in pages]
    facts["chat_html"] = second.locator(".chat-list").inner_html()
    facts["chat_text"] = second.locator(".chat-list").inner_text()
    facts["pwned"] = any(pg.evaluate("() => Boolean(window.pwned)") for pg in pages)
    facts["final"] = state(host)
    facts["fair"] = host.locator(".fair-check").get_attribute("data-state")
    return facts
