"""Helpers for story tests: set a table with a fixed deal and play a script of moves."""

from __future__ import annotations

from typing import Any

import coup


def table(hands: list[list[str]], court: list[str] | None = None, **settings: Any) -> coup.State:
    """A game with these hands; the Court is the rest of the deck (in canonical order)
    unless given. Settings as for `coup.new_game` (names default to A, B, C, ...)."""
    names = settings.pop("names", [chr(ord("A") + i) for i in range(len(hands))])
    seed = settings.pop("seed", 0)
    probe = coup.new_game(players=names, seed=0, **settings)
    if court is None:
        rest = probe.settings.deck()
        for hand in hands:
            for card in hand:
                rest.remove(card)
        court = rest
    return coup.new_game(
        players=names,
        seed=seed,
        deal={"hands": hands, "court": court},
        **settings,
    )


def play(state: coup.State, *script: str) -> coup.State:
    """Play moves written as 'SEAT MOVE', e.g. play(s, '0 tax', '1 pass', '2 challenge')."""
    for line in script:
        seat, move = line.split(" ", 1)
        state.play(int(seat), move)
    return state


def hand(state: coup.State, seat: int) -> list[str]:
    return sorted(state.hands[seat])


def give(state: coup.State, seat: int, coins: int) -> None:
    """Set a seat's coins, taking the difference from the treasury (coins stay conserved)."""
    state.treasury -= coins - state.coins[seat]
    state.coins[seat] = coins
    state._legal = None
