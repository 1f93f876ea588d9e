"""The lobby: taking seats, the host's controls, settings seen by everyone, leaving."""

from __future__ import annotations

from typing import Any

import pytest
from browser_driver import create_table, join, state, wait_for

pytestmark = pytest.mark.browser


def _seats(page: Any) -> list[Any]:
    return state(page)["table"]["seats"]  # type: ignore[no-any-return]


def test_host_controls_and_guest_view(browser: Any, server: str) -> None:
    host = browser.new_context(locale="en-US").new_page()
    guest = browser.new_context(locale="en-US").new_page()
    url = create_table(host, server, "Mahshid", seats=4)
    assert host.locator("#start").is_disabled()  # one seat taken: nothing to start yet

    join(guest, url, "Sepideh")
    wait_for(lambda: _seats(host)[1] and _seats(host)[1]["name"] == "Sepideh", what="guest seated")
    assert not host.locator("#start").is_disabled()
    assert guest.locator("#start").count() == 0  # only the host starts
    assert guest.locator("button.add-bot, button.remove").count() == 0

    host.locator('button.add-bot[data-seat="2"]').click()
    wait_for(lambda: _seats(guest)[2] and _seats(guest)[2]["kind"] == "bot", what="bot in seat 3")

    host.locator('select.move-to[data-seat="1"]').select_option("3")
    wait_for(lambda: _seats(guest)[3] and _seats(guest)[3]["name"] == "Sepideh", what="guest moved")
    assert guest.locator('.lobby-seat.mine[data-seat="3"]').count() == 1

    host.locator('button.remove[data-seat="2"]').click()
    wait_for(lambda: _seats(guest)[2] is None, what="bot removed")

    host.click(".seg.c-inquisitor")
    wait_for(
        lambda: "Inquisitor" in guest.locator(".settings-summary").inner_text(),
        what="guest sees the new setting",
    )

    guest.click("#leave")
    wait_for(lambda: state(guest)["you"]["seat"] is None, what="guest left")
    wait_for(lambda: _seats(host)[3] is None, what="seat freed")
    assert guest.locator("button.sit").count() == 3
    host.context.close()
    guest.context.close()
