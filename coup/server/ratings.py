"""Ratings that understand Coup: a game is a free-for-all with a full finishing order (the
order of elimination, the winner first), rated with openskill's Plackett–Luce model.

Each rated player (a profile, or a bot level: `bot_id`) has openskill's μ (skill) and σ
(uncertainty). The number shown is an ordinal on a familiar scale, `1000 + 40·(μ − 3σ)`:
a new player (μ 25, σ 25/3) shows 1000, and the number only rises past a player's true
level as the games make σ small. Its uncertainty is shown as ±`120·σ` (three σ on the same
scale).

Who counts (`entrants`): a person's seat linked to a profile, unless a bot played more
than half of that seat's decisions (the host handed it over, or the player left); every
bot seat, as its level (and personality when it has one). A game changes ratings when at
least two profiles count in it; the bots in it are rated by the same game.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

#: The shown rating: BASE + SCALE·(μ − 3σ).
BASE = 1000.0
SCALE = 40.0
MU = 25.0
SIGMA = 25.0 / 3.0


@functools.cache
def _model() -> PlackettLuce:
    return PlackettLuce(mu=MU, sigma=SIGMA)


def shown(mu: float, sigma: float) -> float:
    """The number people read: 1000 + 40·(μ − 3σ)."""
    return round(BASE + SCALE * (mu - 3.0 * sigma), 1)


def margin(sigma: float) -> float:
    """The shown number's uncertainty: ± three σ on the shown scale."""
    return round(SCALE * 3.0 * sigma, 1)


def bot_id(level: str | None, personality: str | None) -> str:
    """A bot's rating id: one per level, and per personality when it has one."""
    out = f"bot:{level or 'medium'}"
    return f"{out}:{personality}" if personality else out


@dataclass(frozen=True)
class Entrant:
    """One seat of a finished game as the ratings see it."""

    seat: int
    rater: str  # the profile id, or `bot_id(...)`
    place: int  # 1: the winner; n: the first out
    person: bool


def finishing_places(history: list[Any], winner: int | None, players: int) -> list[int]:
    """Each seat's place: 1 for the winner, then in reverse order of elimination (the last
    out second). `history` is the engine's (seat, move, forced, draws, out, audience)."""
    out_order = [entry[0] for entry in history if entry[4]]
    places = [0] * players
    for k, seat in enumerate(reversed(out_order)):
        places[seat] = k + 2
    if winner is not None:
        places[winner] = 1
    left = [s for s in range(players) if places[s] == 0]  # unfinished: tie after the rest
    for seat in left:
        places[seat] = len(out_order) + 2 if winner is not None else 1
    return places


def rate(entrants: list[Entrant], current: dict[str, tuple[float, float]]) -> dict[str, Any]:
    """New (μ, σ) of every entrant's rater from its current one (absent: a new player),
    by the game's finishing order; one entry per rater."""
    model = _model()
    teams = []
    for e in entrants:
        mu, sigma = current.get(e.rater, (MU, SIGMA))
        teams.append([model.rating(mu=mu, sigma=sigma, name=e.rater)])
    ranks = [float(e.place) for e in entrants]
    new = model.rate(teams, ranks=ranks)
    return {e.rater: (team[0].mu, team[0].sigma) for e, team in zip(entrants, new, strict=True)}


def counted(decisions: int, by_bot: int) -> bool:
    """A person's seat counts when a bot played at most half of its decisions."""
    return decisions > 0 and by_bot * 2 <= decisions
