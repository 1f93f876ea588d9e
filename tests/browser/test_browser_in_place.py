"""The game screen updates in place (docs/web.md, `js/patch.js`): a view arriving between
the press and the release of a tap does not eat the tap, and the control under the
finger, the keyboard's focus and the decision's buttons stay the same elements while the
decision stays the same; and since they stay, the tutorial's guide focuses only what its
last render asked for."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from browser_checks import answer, decision, module, play_now, settle
from browser_driver import state, wait_for

pytestmark = pytest.mark.browser

# Every message the page sends on its socket, in order.
RECORD_SENT = """() => {
  const socket = window.coupApp.socket;
  const send = socket.send.bind(socket);
  window.__sent = [];
  socket.send = (message, ...rest) => { window.__sent.push(message); return send(message, ...rest); };
}"""


def _pass_decision(page: Any) -> dict[str, Any]:
    """Play this seat's turns (income) until the page asks it to pass or challenge a claim,
    with the decision's buttons past their click guard."""
    for _ in range(200):
        msg = decision(page, 60)
        if "pass" in msg["game"]["legal"]:
            page.wait_for_function("() => !document.querySelector('.decision [data-guard]')")
            return msg
        settle()
        answer(page, msg["game"], ["income"])
        page.wait_for_timeout(150)
    raise AssertionError("no claim to answer came")


def _tap_pass_across_a_render(page: Any) -> None:
    """Press Pass, have the page render (as a view arriving mid-tap does), release: the
    button under the pointer is the one pressed, and its move goes out."""
    version = _pass_decision(page)["version"]
    pass_button = """document.querySelector('.decision [data-move="pass"]')"""
    box = page.locator('.decision [data-move="pass"]').bounding_box()
    assert box
    page.evaluate(f"() => {{ {pass_button}.__mark = 'aimed'; }}")
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.evaluate("() => window.coupApp.rerender()")
    assert page.evaluate(f"() => {pass_button}.__mark") == "aimed", (
        "the pressed button was replaced"
    )
    page.mouse.up()

    def sent() -> bool:
        moves = page.evaluate("() => window.__sent")
        return any(m.get("move") == "pass" and m.get("version") == version for m in moves)

    wait_for(sent, 10, "the tap's move sent")
    wait_for(lambda: (state(page) or {}).get("version", 0) > version, 30, "a newer view")


def test_a_tap_lands_when_a_view_arrives_between_press_and_release(
    browser: Any, server: str
) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US").new_page()
    play_now(page, server, "Sara", 6)
    page.evaluate(RECORD_SENT)
    _tap_pass_across_a_render(page)
    _tap_pass_across_a_render(page)
    page.context.close()


def test_focus_and_buttons_stay_while_the_decision_does(browser: Any, server: str) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US").new_page()
    play_now(page, server, "Sara", 6)
    _pass_decision(page)
    page.focus('.decision [data-move="pass"]')
    page.evaluate(
        "() => { window.__kept = [...document.querySelectorAll('.decision button, .board, .side')]; }"
    )  # fmt: skip
    page.evaluate("() => window.coupApp.rerender()")
    same = page.evaluate(
        "() => window.__kept.map((el) => el.isConnected)"
        " .concat([document.activeElement === document.querySelector('.decision [data-move=\"pass\"]')])"
    )  # fmt: skip
    assert all(same), same
    page.context.close()


# The guide at an exchange's "keep" step: two cards to pick from, Confirm disabled until one
# is picked. `pick` marks the first card picked, as a tap or Enter on it renders the page.
KEEP_STEP = """async ([tutorialUrl, actionsUrl]) => {
  const { markTutorial } = await import(tutorialUrl);
  const { ui, GUARD_MS } = await import(actionsUrl);
  const root = document.createElement('div');
  root.innerHTML = `<section id="tutorial" data-step="keep" data-move="keep ambassador">
      <p class="tut-text">Pick the card to keep, then confirm.</p></section>
    <div class="decision"><div class="exchange"><div class="card-pick">
      <button type="button" id="ambassador" data-index="0" aria-pressed="false" disabled>Ambassador</button>
      <button type="button" id="captain" data-index="1" aria-pressed="false" disabled>Captain</button></div>
      <button type="button" id="confirm" class="btn primary" data-move="" disabled>Keep</button></div></div>`;
  document.body.append(root);
  const panel = root.querySelector('#tutorial');
  const [card, confirm] = [root.querySelector('#ambassador'), root.querySelector('#confirm')];
  ui.shownAt = performance.now();  // a new decision: its buttons wait out the click guard
  markTutorial(root, panel);       // the card is the step's control: focused after the guard
  card.disabled = false; root.querySelector('#captain').disabled = false;
  card.setAttribute('aria-pressed', 'true');  // picked (the same element, kept by the update)
  confirm.disabled = false; confirm.dataset.move = 'keep ambassador';
  markTutorial(root, panel);       // now Confirm is the step's control
  const first = document.activeElement.id;
  await new Promise((done) => setTimeout(done, GUARD_MS + 300));
  return [first, document.activeElement.id];
}"""


def test_the_guide_focuses_only_what_its_last_render_asked_for(browser: Any, server: str) -> None:
    """The tutorial's guide focuses the step's control, after the click guard when the control
    waits for it. A card picked by keyboard just as the guard ended makes Confirm the control:
    the card, still the same element in the page, must not take the focus back when the
    guard's deferred focus comes (Enter again would unpick it)."""
    page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US").new_page()
    page.goto(server + "/?lang=en")
    page.wait_for_selector("#home-name")
    urls = [module(page, "tutorial.js"), module(page, "actions.js")]
    assert page.evaluate(KEEP_STEP, urls) == ["confirm", "confirm"]
    page.context.close()
