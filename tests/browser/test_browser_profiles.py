"""Profiles in Chromium with its virtual authenticator (the DevTools protocol's WebAuthn
domain, through Playwright's CDP session), at `localhost`: make a profile, sign out, sign
in, add a second device by the one-time link, play a game of two profiles and two bots to
the end, see both ratings and the bots' on the end screen, open the profile and the
leaderboard. At 127.0.0.1 the home page says where profiles are and the table works.
Screenshots (COUP_SHOTS=folder): the profile and the leaderboard, on a phone and a
desktop, and the profile right to left."""

from __future__ import annotations

import os
import random
import time
from typing import Any

import pytest
from browser_checks import axe
from browser_driver import create_table, join, state, wait_for
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 860}
SHOTS = os.environ.get("COUP_SHOTS")


def passkey_context(browser: Any, viewport: dict[str, int], locale: str = "en-US") -> Any:
    """A browser context whose first page holds a virtual platform authenticator."""
    context = browser.new_context(viewport=viewport, locale=locale, accept_downloads=True)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    page.coup_cdp = cdp  # kept alive with the page
    return page


def shot(page: Any, name: str, full: bool = True) -> None:
    if SHOTS:
        page.wait_for_timeout(300)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=full)


def make_profile(page: Any, base: str, name: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("#profile-name")
    page.fill("#profile-name", name)
    page.click("#make-profile")
    page.wait_for_selector("#profile-signed-in")


def play_out(pages: list[Any], budget: float = 120.0) -> None:
    """Each person's page plays a random legal move through the page's own socket until
    the game is over."""
    rng = random.Random(5)
    end = time.monotonic() + budget
    while time.monotonic() < end:
        msgs = [state(p) for p in pages]
        if all(m and m.get("game") and m["game"]["over"] for m in msgs):
            return
        for page, msg in zip(pages, msgs, strict=True):
            legal = (msg or {}).get("game", {}) and msg["game"].get("legal") or []
            if legal:
                page.evaluate("(m) => window.coupApp.move(m)", rng.choice(legal))
        time.sleep(0.15)
    raise AssertionError("the game did not end")


def test_profiles_end_to_end(browser: Any, server: str) -> None:
    base = server.replace("127.0.0.1", "localhost")
    roya = passkey_context(browser, PHONE)
    make_profile(roya, base, "Roya")
    assert roya.locator("#my-profile").inner_text() == "Roya"
    shot(roya, "profile-home-phone")
    # Sign out, then in again with the passkey the authenticator holds.
    roya.click("#sign-out")
    roya.wait_for_selector("#sign-in")
    roya.click("#sign-in")
    roya.wait_for_selector("#profile-signed-in")
    # A second device by the one-time link.
    roya.click("#add-device")
    roya.wait_for_selector("#device-link-text")
    assert roya.locator(".profile-link img.qr").count() == 1
    link = roya.locator("#device-link-text").input_value()
    assert "/link#code=" in link
    second = passkey_context(browser, DESKTOP)
    second.goto(link)
    second.click("#use-link")
    second.wait_for_selector("#profile-page")
    assert "/p/Roya" in second.url
    second.context.close()
    # A game of two profiles and two bots.
    reza = passkey_context(browser, DESKTOP)
    make_profile(reza, base, "Reza")
    url = create_table(roya, base, "Roya", seats=4, reaction_timer=0)
    join(reza, url, "Reza")
    for seat in (2, 3):
        roya.locator(f'.lobby-seat[data-seat="{seat}"] button.add-bot').click()
        wait_for(lambda s=seat: (state(roya) or {})["table"]["seats"][s], what="a bot seated")
    assert roya.locator(".tag-profile").count() == 2
    roya.click("#start")
    play_out([roya, reza])
    for page in (roya, reza):
        page.wait_for_selector("#end-ratings li", timeout=20000)
        rows = page.locator("#end-ratings li")
        wait_for(lambda r=rows: r.count() >= 3, what="the ratings of the game")
        text = page.locator("#end-ratings").inner_text()
        assert "Roya" in text and "Reza" in text and "bot" in text.lower()
        assert "→" in text
    roya.locator("#end-ratings").scroll_into_view_if_needed()
    shot(roya, "profile-end-phone", full=False)
    # A rematch: the second game draws the rating's line on the profile page.
    roya.click("#rematch")
    wait_for(lambda: (state(roya) or {})["table"]["game"] == 2, what="the rematch")
    play_out([roya, reza])
    roya.wait_for_selector("#end-ratings li", timeout=20000)
    # The profile page and the leaderboard.
    roya.goto(base + "/p/Roya")
    roya.wait_for_selector("#profile-rating")
    assert roya.locator("#profile-games li").count() == 2
    assert roya.locator("#profile-rivals li").count() >= 2
    assert roya.locator("svg.rating-chart polyline").count() == 1
    assert roya.locator("#profile-export").count() == 1  # her own page
    assert axe(roya) == []
    shot(roya, "profile-page-phone")
    reza.goto(base + "/p/Roya")
    reza.wait_for_selector("#profile-rating")
    assert reza.locator("#profile-export").count() == 0
    shot(reza, "profile-page-desktop")
    reza.goto(base + "/leaderboard")
    reza.wait_for_selector("#leaderboard tbody tr")
    assert reza.locator(".board-bot").count() >= 1
    assert axe(reza) == []
    shot(reza, "leaderboard-desktop")
    roya.goto(base + "/leaderboard")
    roya.wait_for_selector("#board-mine")
    shot(roya, "leaderboard-phone")
    fa = passkey_context(browser, PHONE, locale="fa-IR")
    fa.goto(base + "/p/Roya")
    fa.wait_for_selector("#profile-rating")
    assert fa.evaluate("() => document.documentElement.dir") == "rtl"
    shot(fa, "profile-page-phone-fa")
    for page in (roya, reza, fa):
        page.context.close()


def test_an_ip_address_says_where_profiles_are(browser: Any, server: str) -> None:
    page = browser.new_context(viewport=PHONE, locale="en-US").new_page()
    page.goto(server + "/")
    page.wait_for_selector("#profile-not-here")
    # the panel lies below the first screen, laid out (its text rendered) as a reader scrolls
    # to it
    page.locator("#profile-not-here").scroll_into_view_if_needed()
    expect(page.locator("#profile-not-here")).to_contain_text("localhost", use_inner_text=True)
    url = create_table(page, server, "Guest")  # the table works at the address
    assert "/t/" in url
    assert page.locator(".tag-guest").count() == 1
    page.context.close()
