"""Screens that tell the truth (docs/web.md): no "reconnecting" bar after leaving a table on
purpose; the pinned decision names the claim it answers; announcements never over the
now-line nor the claimant's tile, in the order things happened, the end screen waiting for
them; forced moves said; the home page's offline screen, a refused chat line, the top bar's
status chip, the exchange picker's keys, toasts, a reloaded replay; record errors counting
from 1; the review screens' contrast, labels, card names and type sizes."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from browser_checks import (
    I18N,
    answer,
    axe,
    character_names,
    decision,
    finish_game,
    module,
    play_now,
    settle,
)
from browser_driver import Shots, create_table, state, wait_for

pytestmark = pytest.mark.browser
GOLDEN = Path(__file__).parent.parent / "golden"
PHONE = {"width": 320, "height": 568}
DESKTOP = {"width": 1280, "height": 720}
EN = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
LANGS = sorted(p.stem for p in I18N.glob("*.json"))

# Samples the announcement on screen every 60 ms: what it covers of the now-line and of
# the tiles of the seats whose claim or block is in question, in two samples in a row
# (what the eye sees, not a frame between a change of the page and the announcement
# following it) (window.__ann.bad).
WATCH_ANNOUNCEMENTS = """() => {
  window.__ann = { shown: 0, bad: [] };
  let before = new Set();
  const over = (a, r) => Math.min(a.right, r.right) - Math.max(a.left, r.left) > 1
    && Math.min(a.bottom, r.bottom) - Math.max(a.top, r.top) > 1;
  setInterval(() => {
    const el = document.getElementById('announce');
    if (!el.classList.contains('show') || !el.firstElementChild
        || parseFloat(getComputedStyle(el).opacity) < 0.9) { before = new Set(); return; } // fading in or out
    const a = el.firstElementChild.getBoundingClientRect();
    const guard = [];
    const now = document.querySelector('#screen .now');
    if (now) guard.push(['the now-line', now.getBoundingClientRect()]);
    const pend = window.coupApp.msg?.game?.pending;
    for (const s of pend ? [pend.actor, pend.block?.seat] : []) {
      const tile = s === undefined || s === null ? null : document.querySelector(`#screen .seat[data-seat="${s}"]`);
      if (tile) guard.push([`seat ${s}`, tile.getBoundingClientRect()]);
    }
    window.__ann.shown += 1;
    const now_ = new Set();
    for (const [what, r] of guard) {
      if (!(r.bottom > 0 && r.top < innerHeight && over(a, r))) continue;
      const key = `${what}: ${el.textContent}`;
      const at = [a.top, a.bottom, r.top, r.bottom].map(Math.round).join(',');
      if (before.has(key)) window.__ann.bad.push(`${key} (${at})`);
      now_.add(key);
    }
    before = now_;
  }, 60);
}"""

# Records every announcement as it is shown: its kind, its text, whether it says "forced",
# and whether the end screen was already open.
RECORD_ANNOUNCEMENTS = """() => {
  window.__said = [];
  new MutationObserver(() => {
    const item = document.querySelector('#announce .announce-item');
    if (!item || window.__said.at(-1)?.node === item) return;
    window.__said.push({ node: item, kind: item.dataset.kind, text: item.textContent,
      forced: Boolean(item.querySelector('.forced-mark')), ended: Boolean(document.querySelector('.end-screen')) });
  }).observe(document.getElementById('announce'), { childList: true });
}"""

SAID = "() => window.__said.map(({ kind, text, forced, ended }) => ({ kind, text, forced, ended }))"


def my_decision(page: Any) -> dict[str, Any] | None:
    """The next decision of this seat, or None once the game is over or the seat is out."""

    def ready() -> Any:
        msg = state(page)
        game = (msg or {}).get("game") or {}
        me = (msg or {}).get("you", {}).get("seat")
        if game.get("over") or (me is not None and not game["players"][me].get("alive", True)):
            return "done"
        return "go" if game.get("legal") else None

    if wait_for(ready, 60, "a decision or the end") == "done":
        return None
    return decision(page)


def net_state(page: Any) -> tuple[str, str, bool]:
    return (
        page.evaluate("() => document.body.dataset.net"),
        page.locator("#net").get_attribute("data-state"),
        page.locator(".net-bar").is_visible(),
    )


def test_leaving_a_table_in_the_app_leaves_no_reconnecting_bar(browser: Any, server: str) -> None:
    """The logo (from the lobby and from a game) and the replay viewer close the table's
    socket on purpose: no "Connection lost — reconnecting…" bar, no red dot after it."""
    page = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    create_table(page, server, "Mahshid", seats=3)
    page.click("#brand")
    page.wait_for_selector("#home-name")
    page.wait_for_timeout(1200)  # the closed socket's close event has come by now
    assert net_state(page) == ("online", "online", False)

    url = play_now(page, server, "Mahshid", 2)
    page.click("#brand")
    page.wait_for_selector("#home-name")
    page.wait_for_timeout(1200)
    assert net_state(page) == ("online", "online", False)

    page.goto(url)
    page.wait_for_selector(".board .me")
    page.evaluate(f"() => window.coupApp.go('{url.split(server)[1]}/games/1/replay')")
    page.wait_for_selector('#screen[data-screen="replay"], .replay-refused')
    page.wait_for_timeout(1200)
    assert net_state(page) == ("online", "online", False)
    page.context.close()


def test_the_pinned_decision_names_the_claim_at_320_with_ten_seats(
    browser: Any, server: str
) -> None:
    """At 320x568 with 10 seats the banner is far above the pinned decision: the panel
    itself says the claim ("Bot 3 claims Assassin to assassinate you"), in view."""
    page = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True).new_page()
    play_now(page, server, "Sara", 10)
    checked = 0
    for _ in range(200):
        msg = decision(page, 60)
        game = msg["game"]
        if game["phase"] in ("react", "block", "challenge_block"):
            question = page.locator(".dock.deciding .decision .question")
            assert question.count() == 1, "the panel does not say the claim"
            text = question.inner_text()
            assert text == page.locator(".banner-text").inner_text()
            pend = game["pending"]
            name = page.locator(f'.seat[data-seat="{pend["actor"]}"] .seat-name').inner_text()
            assert name in text, (name, text)
            if pend.get("claim"):
                assert EN[f"char.{pend['claim']}"] in text, text
            if pend.get("target") == msg["you"]["seat"] and pend["action"] == "steal":
                assert text.endswith("to steal from you"), text
            box = question.bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
            checked += 1
            if checked >= 3:
                break
        settle()
        answer(page, game, ["income", "pass"])
        page.wait_for_timeout(150)
    assert checked >= 3, "not enough claims to answer"
    page.context.close()


@pytest.mark.parametrize(("size", "seats"), [(PHONE, 10), (DESKTOP, 6)])
def test_announcements_never_cover_the_now_line_or_the_claimant(
    browser: Any, server: str, size: dict[str, int], seats: int
) -> None:
    page = browser.new_context(viewport=size, locale="en-US").new_page()
    play_now(page, server, "Sara", seats)
    page.evaluate(WATCH_ANNOUNCEMENTS)
    for _ in range(400):
        if page.evaluate("() => window.__ann.shown") >= 60:
            break
        msg = my_decision(page)
        if msg is None:
            break
        settle()
        # Challenges make the moments that are announced (and claims to cover).
        answer(page, msg["game"], ["challenge", "tax", "income", "pass"])
        page.wait_for_timeout(150)
    found = page.evaluate("() => window.__ann")
    assert found["shown"] >= 10, found
    assert found["bad"] == [], found["bad"][:5]
    page.context.close()


def test_the_last_moves_are_announced_in_their_order(browser: Any, server: str) -> None:
    """A challenged block that stands and costs the challenger their last card: "Block
    stands" before "… is out" (it came after), then the win; none dropped."""
    page = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    page.goto(server + "/")
    page.wait_for_selector("#home-name")
    page.evaluate(RECORD_ANNOUNCEMENTS)
    players = [
        {"name": "Mahshid", "coins": 2, "influence": 0, "revealed": ["duke", "captain"]},
        {"name": "Sepideh", "coins": 2, "influence": 1, "revealed": ["contessa"]},
    ]
    history = [
        {"seat": 0, "move": "foreign_aid"},
        {"seat": 1, "move": "block duke"},
        {"seat": 0, "move": "challenge"},
        {"seat": 1, "move": "reveal duke"},
        {"seat": 0, "move": "lose captain", "out": True, "forced": True},
    ]
    view = {"players": players, "history": history, "phase": "over", "over": True, "winner": 1}
    keys = page.evaluate(
        "async ([url, view]) => (await import(url)).storyEvents(view).map((e) => e.key)",
        [module(page, "story.js"), view],
    )
    assert keys == [
        "ann.challenge",
        "ann.challenge_fails",
        "ann.block_stands",
        "ann.loses",
        "ann.out",
        "ann.win",
    ]
    page.evaluate(
        """async ([url, view]) => {
          const { announceView } = await import(url);
          announceView({ ...view, history: view.history.slice(0, 3), phase: "challenge_block", over: false, winner: null }, 1, true);
          announceView(view, 1, false);
        }""",
        [module(page, "announce.js"), view],
    )
    page.wait_for_function("() => window.__said.some((s) => s.kind === 'win')", timeout=15000)
    said = page.evaluate(SAID)
    assert [s["kind"] for s in said] == ["proved", "block", "loss", "out", "win"], said
    assert "Sepideh" in said[1]["text"] and said[2]["forced"], said
    page.context.close()


def test_forced_moves_are_marked_and_the_end_screen_waits(browser: Any, server: str) -> None:
    """The last card lost is the engine's move (the only legal one): the log and its
    announcement say so; the end screen opens after the win was announced."""
    page = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US").new_page()
    play_now(page, server, "Sara", 2)
    page.evaluate(RECORD_ANNOUNCEMENTS)
    finish_game(page, Shots(None, "truth"))
    page.wait_for_selector(".end-screen", timeout=15000)
    said = page.evaluate(SAID)
    page.click("#end-close") if page.locator("#end-close").count() else page.keyboard.press(
        "Escape"
    )
    marks = page.locator(".log-list .forced-mark").all_inner_texts()
    assert marks and all(m == EN["log.forced"] for m in marks), marks
    assert any(s["forced"] and s["kind"] in ("loss", "caught") for s in said), said
    wins = [s for s in said if s["kind"] == "win"]
    assert wins and not wins[0]["ended"], said
    page.context.close()


def test_the_home_pages_offline_screen_promises_no_seat(browser: Any, server: str) -> None:
    page = browser.new_context(locale="en-US").new_page()
    page.route("**/api/config", lambda route: route.abort())
    page.goto(server + "/")
    page.wait_for_selector("#offline-retry")
    text = page.locator("#screen").inner_text().lower()
    assert "offline" in text and "seat" not in text, text
    page.context.close()


def test_a_refused_chat_line_stays_with_its_reason(browser: Any, server: str) -> None:
    """Lines typed faster than one a second: past the burst of five the server refuses one
    (rate_limited): it stays in the input, the reason under it (no toast that goes and
    takes the line with it). Lines go on until then: how fast they are typed depends on
    the machine, and a slow one gets a second back every second."""
    page = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    create_table(page, server, "Mahshid", seats=3)
    for i in range(40):
        if page.locator("#chat-refused").count():
            break
        page.fill(".chat-form input[name=chat]", f"line {i}")
        page.press(".chat-form input[name=chat]", "Enter")
    page.wait_for_selector("#chat-refused")
    assert page.locator("#chat-refused").inner_text() == EN["error.rate_limited"]
    kept = page.locator(".chat-form input[name=chat]").input_value()
    # the refused line, first (a fill that came as the refusal re-rendered the form may
    # have typed the next one after it: "line 5line 6")
    first = re.match(r"line (\d+)", kept)
    assert first and int(first[1]) >= 5, kept
    assert page.locator("#toast.show").count() == 0
    assert "null" not in page.locator(".chat-list").inner_text()  # the lines as they were said
    page.context.close()


def test_the_status_chip_is_whole_at_320_in_every_language(browser: Any, server: str) -> None:
    host = browser.new_context(locale="en-US").new_page()
    url = play_now(host, server, "Host", 4)
    for lang in LANGS:
        page = browser.new_context(viewport=PHONE, locale=lang).new_page()
        page.goto(f"{url}?lang={lang}")
        page.wait_for_selector(".topbar .tag-watch")
        box = page.evaluate(
            """() => { const e = document.querySelector('.topbar .tag-watch'), r = e.getBoundingClientRect();
              return { scroll: e.scrollWidth, client: e.clientWidth, left: r.left, right: r.right,
                       page: document.documentElement.scrollWidth }; }"""
        )
        assert box["scroll"] <= box["client"] and box["left"] >= 0 and box["right"] <= 320, (
            lang,
            box,
        )
        assert box["page"] <= 320, (lang, box)
        page.context.close()
    host.context.close()


def test_the_exchange_pickers_keys_cover_no_card_text(browser: Any, server: str) -> None:
    def mine_or_over() -> Any:
        game = state(page)["game"] or {}
        return game.get("legal") or game.get("over")

    # Sara claims the exchange at every turn; a bot that challenges her bluff may knock her
    # out before she draws, so a new game is played until one brings the picker
    for _ in range(5):
        page = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
        play_now(page, server, "Sara", 2)
        for _ in range(100):
            wait_for(mine_or_over, 120, "a decision or the game's end")
            if (state(page)["game"] or {}).get("over"):
                break
            game = decision(page, 60)["game"]
            if game["phase"] == "exchange":
                break
            settle()
            answer(page, game, ["exchange", "pass"])
            page.wait_for_timeout(150)
        if (state(page)["game"] or {}).get("phase") == "exchange":
            break
        page.context.close()
    else:
        raise AssertionError("no exchange in five games")
    page.wait_for_selector(".exchange button.card kbd.key")
    covered = page.evaluate(
        """() => [...document.querySelectorAll('.exchange button.card')].flatMap((card) => {
          const key = card.querySelector('kbd.key');
          if (!key) return [];
          const k = key.getBoundingClientRect();
          return [...card.querySelectorAll('.card-name, .card-tag, .card-action, .card-counter')].filter((el) => {
            const r = el.getBoundingClientRect();
            return Math.min(k.right, r.right) - Math.max(k.left, r.left) > 0.5
              && Math.min(k.bottom, r.bottom) - Math.max(k.top, r.top) > 0.5;
          }).map((el) => `${card.dataset.index}: ${el.className}`);
        })"""
    )
    assert covered == []
    page.context.close()


def test_a_toast_goes_with_its_screen(browser: Any, server: str) -> None:
    page = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    create_table(page, server, "Mahshid", seats=3)
    page.click("#chip-link")
    page.wait_for_selector("#toast.show")
    page.click("#brand")
    page.wait_for_selector("#home-name")
    assert page.locator("#toast.show").count() == 0
    page.context.close()


def test_a_reloaded_replay_keeps_its_record(browser: Any, server: str) -> None:
    page = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    page.goto(server + "/")
    page.wait_for_selector("#open-record")
    record = (GOLDEN / "story-bluffs.json").read_text()
    page.set_input_files("#record-file", files=[{"name": "r.json", "mimeType": "application/json",
        "buffer": record.encode()}])  # fmt: skip
    page.wait_for_selector("#replay-board .replay-seat")
    players = page.locator(".stats-wrap tbody th").all_inner_texts()
    page.reload()
    page.wait_for_selector("#replay-board .replay-seat")
    assert page.url.endswith("/replay")
    assert page.locator(".stats-wrap tbody th").all_inner_texts() == players
    page.context.close()


def test_a_bad_records_reason_counts_from_one_and_names_the_player(
    browser: Any, server: str
) -> None:
    page = browser.new_context(viewport=DESKTOP, locale="en-US").new_page()
    page.goto(server + "/")
    page.wait_for_selector("#open-record")
    record = json.loads((GOLDEN / "seed-example.json").read_text())
    record["moves"][4] = {"seat": 2, "move": "steal 0"}
    page.set_input_files("#record-file", files=[{"name": "bad.json", "mimeType": "application/json",
        "buffer": json.dumps(record).encode()}])  # fmt: skip
    page.wait_for_selector("#record-reason:not([hidden])")
    reason = page.locator("#record-reason").inner_text()
    assert reason.startswith("move 5 by Bahareh ('steal 0'): illegal: Bahareh cannot play"), reason
    assert "seat" not in reason
    page.context.close()


# Every element with text of its own whose font is under 12 px (visible ones only).
SMALL_TEXT = """(root) => [...document.querySelectorAll(root + ' *')].filter((el) => {
  if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && parseFloat(getComputedStyle(el).fontSize) < 11.95;
}).map((el) => `${el.className}: ${el.textContent.slice(0, 24)} ${getComputedStyle(el).fontSize}`)"""

# One claim of each verdict, added to the timeline: every chip's colours, whatever the game.
EVERY_VERDICT = """() => {
  const row = document.querySelector('.timeline .tl-row');
  const list = row.querySelector('.tl-claims') || row.appendChild(document.createElement('ul'));
  list.classList.add('tl-claims');
  for (const v of ['true', 'true_lost', 'bluff_caught', 'bluff_free']) {
    const li = document.createElement('li');
    li.className = `claim-chip ${v}`;
    const chip = document.createElement('span');
    chip.className = 'verdict';
    chip.textContent = v.replace('_', ' ');
    li.append(chip);
    list.append(li);
  }
}"""


@pytest.mark.parametrize("locale", ["en-US", "fa-IR"])
def test_the_review_screens_are_readable_and_accessible(
    browser: Any, server: str, locale: str
) -> None:
    """On a phone (touch, 390 px): the end screen with its timeline open and the replay
    viewer have no serious or critical axe violation (every chip at AA contrast, the
    timeline's buttons named by what they show), no text under 12 px, and every card of
    the replay says its name without a hover."""
    page = browser.new_context(
        viewport={"width": 390, "height": 844}, locale=locale, has_touch=True, is_mobile=True
    ).new_page()
    play_now(page, server, "Cy", 3)
    finish_game(page, Shots(None, "truth-review"))
    page.wait_for_selector(".end-screen", timeout=15000)
    page.locator(".end-timeline summary").click()
    page.evaluate(EVERY_VERDICT)
    assert axe(page) == [], "end screen"
    assert page.evaluate(SMALL_TEXT, ".end-screen") == []

    page.click("#watch-replay")
    page.wait_for_selector("#replay-board .replay-seat")
    page.evaluate(EVERY_VERDICT)
    assert axe(page) == [], "replay"
    assert page.evaluate(SMALL_TEXT, "#screen") == []
    jumps = page.locator(".tl-jump")
    assert jumps.count() > 0
    for i in range(min(jumps.count(), 5)):
        name = jumps.nth(i).evaluate("(b) => b.getAttribute('aria-label') || b.textContent")
        assert name == jumps.nth(i).inner_text(), name
    names = page.evaluate(
        """() => [...document.querySelectorAll('.replay-cards .card.face')].map((c) => {
          const band = c.querySelector('.card-band'), r = c.querySelector('.card-name').getBoundingClientRect();
          return { text: band.textContent, shown: r.width > 0 && r.height > 0,
                   whole: band.scrollWidth <= band.clientWidth + 0.5 && band.scrollHeight <= band.clientHeight + 0.5,
                   size: parseFloat(getComputedStyle(band).fontSize) };
        })"""
    )
    assert names and all(n["shown"] and n["whole"] and n["size"] >= 12 for n in names), names
    every = [n for lang in LANGS for n in character_names(I18N / f"{lang}.json")]
    cut = page.evaluate(  # to the fraction of a pixel: a name cut by 0.3 px shows "Ambassade…"
        r"""(names) => {
          const band = document.querySelector('.replay-cards .card.face .card-band');
          const name = band.querySelector('.card-name'), was = name.textContent, style = getComputedStyle(band);
          const room = band.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          const cut = [];
          for (const n of names) {
            for (const word of n.split(/\s+/)) { // a name of several words may wrap
              name.textContent = word;
              const w = name.getBoundingClientRect().width;
              if (w > room + 0.01) cut.push(`${word} ${w}>${room}`);
            }
          }
          name.textContent = was;
          return cut;
        }""",
        every,
    )
    assert cut == []
    page.context.close()
