"""The first screen first: the page paints its own first lines (the title and the tagline,
laid out as the home lays them out) before any script has come, and the app replaces
them without a jump; the home loads none of the table's code; a table's page loads the
lobby's code, and the game's once a game can start (two seats taken), not as the lobby
loads (compiling it there was most of the lobby's blocking time on a phone); views that
come before their screen's code wait for it, in order; the home and the lobby lay out a
short type scale in one font (each font size and weight is a lookup in the first layout);
the home shows its first screen a frame before the rest (short tasks, not one long one),
and a table's link its lobby's first lines a frame before the rest; the page as parsed
holds no form field (Chromium's autofill would force a layout as parsing ends) and no SVG
icon (a document built on the main thread), and the app starting in the page's own
language writes none of its text again."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_driver import create_table
from playwright.sync_api import Request, Route

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
TABLE_CODE = {"table.js", "lobby.js", "tutorial.js", "actions.js", "announce.js", "replay.js"}
GAME_CODE = {"table.js", "tutorial.js", "actions.js", "announce.js", "motion.js", "patch.js"}


def _modules(requests: list[Request]) -> set[str]:
    return {r.url.rsplit("/", 1)[-1] for r in requests if "/js/" in r.url}


def _sheets(requests: list[Request]) -> set[str]:
    return {r.url.rsplit("/", 1)[-1] for r in requests if "/css/" in r.url}


# The stylesheets the screens' code linked, in the page's order, each loaded.
LINKED = """() => [...document.querySelectorAll('link[rel=stylesheet]')]
    .filter((link) => link.sheet).map((link) => link.dataset.sheet)"""


def test_the_page_shows_its_first_lines_before_the_app_and_the_home_needs_no_table_code(
    browser: Any, server: str
) -> None:
    context = browser.new_context(
        locale="en-US", viewport={"width": 412, "height": 823}, service_workers="block"
    )
    page = context.new_page()
    requested: list[Request] = []
    page.on("request", lambda request: requested.append(request))
    held: list[Route] = []
    page.route(
        "**/js/app.js", lambda route: held.append(route)
    )  # the app's code held back: a slow link
    page.goto(server + "/?lang=en", wait_until="commit")
    page.wait_for_selector(".hero .tagline")
    assert page.locator(".hero-title").text_content() == "Coup"
    assert "Bluff, bribe and betray" in (page.locator(".tagline").text_content() or "")
    shell = page.locator(".hero .tagline").bounding_box()
    assert page.locator("#home-name").count() == 0 and held  # no app yet
    for route in held:
        route.continue_()
    page.unroute("**/js/app.js")
    page.wait_for_selector("#home-name")
    home = page.locator(".hero .tagline").bounding_box()
    assert shell and home  # the same lines, no larger: nothing grows when the app comes
    assert (home["width"], home["height"]) == (shell["width"], shell["height"])
    page.wait_for_selector("#profile-panel")  # the panels that load after the home shows
    page.wait_for_selector("#record-drop")
    loaded = _modules(requested)
    assert {"app.js", "home.js", "profile.js", "recordfile.js"} <= loaded
    assert not loaded & TABLE_CODE, loaded & TABLE_CODE
    assert not _sheets(requested)  # the page carries the home's look: no stylesheet asked

    # A table's page: the lobby's code, and the game's once a game can start.
    url = create_table(page, server, "Mahshid", seats=2)
    assert {"lobby.js", "chat.js"} <= _modules(requested)
    # the lobby's look came with its code, in its place: after the page's own
    assert page.evaluate(LINKED) == ["table.css", "review.css"]
    page.wait_for_timeout(500)  # the lobby settled, one seat taken: no game's code yet
    assert not _modules(requested) & GAME_CODE, _modules(requested) & GAME_CODE
    page.locator("button.add-bot").first.click()  # two seats: a game can start
    # all of the game's modules (patch.js is asked for once table.js, which imports it, came)
    page.wait_for_function(
        """(names) => names.every((name) => performance.getEntriesByType('resource')
            .some((e) => e.name.endsWith('/js/' + name)))""",
        arg=sorted(GAME_CODE),
    )
    assert GAME_CODE <= _modules(requested)
    page.wait_for_function("() => document.querySelector('link[data-sheet=\"tutorial.css\"]')")
    assert page.evaluate(LINKED) == ["table.css", "tutorial.css", "review.css"]  # their order
    context.close()

    # Straight to a table's page, its code held back: the page's own lines stay until the
    # lobby's code came, then the lobby shows (its views waited for it).
    context = browser.new_context(locale="en-US", service_workers="block")
    page = context.new_page()
    held = []
    page.route("**/js/lobby.js", lambda route: held.append(route))
    page.goto(url)
    page.wait_for_function("() => document.getElementById('screen').dataset.screen === 'loading'")
    deadline = time.monotonic() + 10
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held and page.locator(".hero .tagline").count() == 1
    assert page.locator(".lobby-seats").count() == 0
    for route in held:
        route.continue_()
    page.wait_for_selector(".lobby-seats")
    assert page.locator(".hero .tagline").count() == 0
    context.close()


# The fonts a screen lays out, each as its family list, size, weight and style: Chromium on
# Linux asks the browser process for each one's data and rendering settings during the
# first layout (a few ms each, most of the home's layout time when it had 16 of them), so
# the first screens keep to a short type scale with every control in the page's own font.
# A glyph the page's font lacks costs more: a search of the machine's fonts for one that
# has it (the record panel's "⤓" cost more than the rest of the home's text).
FACES = """() => {
  const faces = new Map();
  const face = (cs) => [cs.fontFamily, cs.fontSize, cs.fontWeight, cs.fontStyle].join(" ");
  const shown = (cs, text) => text && cs.fontSize !== "0px";
  for (const el of document.body.querySelectorAll("*")) {
    if (!el.getClientRects().length) continue;
    const cs = getComputedStyle(el);
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (shown(cs, own) || el.matches("input, select, button, textarea"))
      faces.set(face(cs), el.tagName + "." + el.className);
    for (const pseudo of ["::before", "::after"]) {
      const ps = getComputedStyle(el, pseudo);
      if (shown(ps, /^".+"$/.test(ps.content))) faces.set(face(ps), el.className + pseudo);
    }
  }
  return Object.fromEntries(faces);
}"""


def _platform_fonts(page: Any) -> set[str]:
    """The machine's fonts that draw the page's text, as Chromium reports them."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1, "pierce": True})["root"]
    found: set[str] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.get("children", []) + node.get("shadowRoots", []))
        if node.get("nodeType") == 1:
            got = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})
            found |= {f["familyName"] for f in got["fonts"]}
    cdp.detach()
    return found


def test_the_first_screens_lay_out_a_short_type_scale_in_one_font(
    browser: Any, server: str
) -> None:
    phone = {"width": 412, "height": 823}
    context = browser.new_context(locale="en-US", viewport=phone, service_workers="block")
    page = context.new_page()
    page.goto(server + "/?lang=en")
    page.wait_for_selector("#record-drop")  # the home with its later panels
    page.wait_for_selector("#profile-panel")
    home = page.evaluate(FACES)
    assert len(home) <= 8, home
    assert len(_platform_fonts(page)) == 1, _platform_fonts(page)
    url = create_table(page, server, "Mahshid")
    watcher = browser.new_context(locale="en-US", viewport=phone, service_workers="block")
    lobby = watcher.new_page()
    lobby.goto(url)
    lobby.wait_for_selector(".lobby-seats")
    seen = lobby.evaluate(FACES)
    assert len(seen) <= 7, seen
    assert len(_platform_fonts(lobby)) == 1, _platform_fonts(lobby)
    watcher.close()
    context.close()


# Frames counted from the page's first script on, and the frame in which the first element
# matching each selector came into the page (the home's parts, the lobby's).
FRAMES = """
window.__frames = { now: 0 };
const tick = () => { window.__frames.now += 1; requestAnimationFrame(tick); };
requestAnimationFrame(tick);
const parts = PARTS;
new MutationObserver(() => {
  const f = window.__frames;
  for (const [name, selector] of Object.entries(parts)) {
    if (f[name] === undefined && document.querySelector(selector)) f[name] = f.now;
  }
}).observe(document, { childList: true, subtree: true });
"""


def _frames(parts: dict[str, str]) -> str:
    return FRAMES.replace("PARTS", json.dumps(parts))


HOME_FRAMES = _frames({"hero": ".hero-actions", "grid": ".home-grid", "side": ".home-side"})
LOBBY_FRAMES = _frames(
    {
        "seats": ".lobby-seats",
        "share": ".share",
        "settings": ".lobby-settings",
        "chat": ".panel.chat",
    }
)


def test_the_home_shows_its_first_screen_a_frame_before_the_rest(browser: Any, server: str) -> None:
    context = browser.new_context(locale="en-US", viewport={"width": 412, "height": 823})
    context.add_init_script(HOME_FRAMES)
    page = context.new_page()
    page.goto(server + "/?lang=en")
    page.wait_for_selector("#new-table")
    frames = page.evaluate("window.__frames")
    # the hero, the new table's form, the side panels: three tasks, a frame between each
    assert frames["hero"] < frames["grid"] < frames["side"], frames
    # shown again (a new language), the home changes at once, keeping what was typed
    page.fill("#join-link", "https://example.org/t/abcdefgh")
    page.select_option("#lang-select", "fr")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    assert page.input_value("#join-link") == "https://example.org/t/abcdefgh"
    assert page.locator(".home-grid").count() == 1
    context.close()


# Code the home's first screen does not wait for: keyboard play and which seats bots play
# (with the game's code), the speaker's sound (once the first screen is up), the
# tutorials' progress (its panel fills in). Each is one more request on a phone's slow
# network before the first screen shows.
AFTER_FIRST_SCREEN = ("keys.js", "names.js", "sound.js", "lessons.js")


def test_the_home_shows_before_the_speaker_and_tutorial_code_which_then_work(
    browser: Any, server: str
) -> None:
    context = browser.new_context(locale="en-US", service_workers="block")
    page = context.new_page()
    held: list[Route] = []
    for name in AFTER_FIRST_SCREEN:
        page.route(f"**/js/{name}", lambda route: held.append(route))
    page.goto(server + "/?lang=en")
    page.wait_for_selector("#home-name")
    page.wait_for_selector("#new-table")
    page.wait_for_timeout(300)
    assert page.locator(".learn-box").count() == 0  # its place kept until its code came
    assert page.get_attribute("#sound-button", "aria-pressed") == "false"
    assert {r.request.url.rsplit("/", 1)[-1] for r in held} == {"sound.js", "lessons.js"}
    for route in held:
        route.continue_()
    for name in AFTER_FIRST_SCREEN:
        page.unroute(f"**/js/{name}")
    page.wait_for_selector(".learn-box button[data-tutorial]")
    page.click("#sound-button")
    page.wait_for_function(
        "() => document.getElementById('sound-button').getAttribute('aria-pressed') === 'true'"
    )
    assert page.evaluate("localStorage.getItem('coup.sound')") == "on"
    page.reload()  # remembered: the button shows it once its code came
    page.wait_for_function(
        "() => document.getElementById('sound-button').getAttribute('aria-pressed') === 'true'"
    )
    page.click("#sound-button")
    page.wait_for_function("() => localStorage.getItem('coup.sound') === 'off'")
    assert page.get_attribute("#sound-button", "aria-pressed") == "false"
    context.close()


def test_a_table_link_shows_the_lobby_first_lines_a_frame_before_the_rest(
    browser: Any, server: str
) -> None:
    phone = {"width": 412, "height": 823}
    host = browser.new_context(locale="en-US", viewport=phone, service_workers="block")
    url = create_table(host.new_page(), server, "Mahshid", seats=4)
    context = browser.new_context(locale="en-US", viewport=phone, service_workers="block")
    context.add_init_script(LOBBY_FRAMES)
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(".panel.chat")
    frames = page.evaluate("window.__frames")
    # the seats first; the link, the settings and the chat each in a later task and frame
    assert frames["seats"] < frames["share"] < frames["settings"] < frames["chat"], frames
    assert "null" not in page.locator(".lobby-main").inner_text()  # no past games: nothing
    # a view (someone sits) draws the lobby again in place, whole, once
    page.fill("#lobby-name", "Sara")
    page.locator("button.sit").first.click()
    page.wait_for_selector(".lobby-seat.mine")
    for part in (".lobby-seats", ".share", ".lobby-settings", ".panel.chat"):
        assert page.locator(part).count() == 1, part
    context.close()
    host.close()


def test_the_page_as_parsed_has_no_form_field_nor_svg_icon(server: str) -> None:
    html = httpx.get(server + "/").text
    assert not re.search(r"<(input|select|textarea)\b", html), "a form field in the page"
    icon = re.search(r'<link rel="icon" href="([^"]+)"', html)
    assert icon and icon[1].startswith("data:image/png;base64,"), icon


# Every change to a translated element of the page (its text or translated attributes)
# once the page is parsed (its scripts run after that).
REWRITES = """
window.__rewrites = [];
document.addEventListener('readystatechange', () => {
  if (document.readyState !== 'interactive') return;
  new MutationObserver((list) => {
    for (const m of list) {
      const el = m.target.nodeType === 1 ? m.target : m.target.parentElement;
      const key = el && (el.dataset.i18n || el.dataset.i18nAria || el.dataset.i18nTitle);
      if (key && el.isConnected && !el.closest('#screen')) window.__rewrites.push(key + ' ' + m.type);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true,
    attributeFilter: ['aria-label', 'title'] });
});
"""


def test_the_app_starting_in_english_writes_none_of_the_pages_english_again(
    browser: Any, server: str
) -> None:
    context = browser.new_context(locale="en-US", service_workers="block")
    context.add_init_script(REWRITES)
    page = context.new_page()
    page.goto(server + "/?lang=en")
    page.wait_for_selector("#lang-select")
    page.wait_for_selector("#home-name")
    assert page.evaluate("window.__rewrites") == []
    page.select_option("#lang-select", "fr")  # a new language: the page's text changes
    page.wait_for_function("() => document.getElementById('rules-button').textContent !== 'Rules'")
    assert page.evaluate("window.__rewrites")
    context.close()


def test_the_main_thread_bench_reads_the_home_as_the_docs_quote_it(server: str) -> None:
    """`python -m tools.bench.mainthread` (docs/web.md's figures), one load each way."""
    page = server + "/?lang=en"
    command = [sys.executable, "-m", "tools.bench.mainthread", page, "--loads", "1"]
    done = subprocess.run(
        [*command, "--slow-loads", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        cwd=ROOT,
    )
    report = json.loads(done.stdout)[page]
    keys = {"fonts", "searches", "style_ms", "layout_ms", "main_ms", "past_12_ms", "blocking_ms"}
    assert set(report) == keys | {"page"}, report
    assert re.fullmatch(r"[0-9a-f]{12}", report["page"]), report
    assert 0 < report["fonts"] <= 8 and report["searches"] == 0, report
    assert report["main_ms"] > 0 and report["layout_ms"] > 0, report
