"""What a finished game says about its profiles and bots (`store.ratings.GameResult`):
each seat's rater and place, whether a person's seat may change its rating (a bot played
at most half of its decisions), and its after-game statistics, the end screen's own
(`coup.review.story`: one definition of each number).
"""

from __future__ import annotations

from coup.review.story import tell
from coup.server import ratings
from coup.server.table import GameRun, Table
from coup.store.ratings import GameResult, SeatResult


def by_bot(run: GameRun, seat: int) -> tuple[int, int]:
    """A seat's decisions in the game, and how many of them a bot made for its player
    (between a handoff "host" or "left" and a "back")."""
    spans: list[tuple[int, bool]] = [(h["index"], h["reason"] != "back")
                                     for h in run.handoffs if h["seat"] == seat]  # fmt: skip
    decisions = bot = 0
    for j, entry in enumerate(run.state.history):
        if entry[0] != seat or entry[2]:  # another seat's, or forced by the engine
            continue
        decisions += 1
        standing = False
        for index, on in spans:
            if index <= j:
                standing = on
        bot += int(standing)
    return decisions, bot


def game_result(table: Table, run: GameRun, at: int) -> GameResult | None:
    """The game's result for the ratings; None when no seat was a profile's."""
    seats = [table.seat(member) for member in run.members]
    if not any(s is not None and s.profile for s in seats):
        return None
    state = run.state
    places = ratings.finishing_places(list(state.history), state.winner, state.players)
    story = tell(run.record())
    chars: list[dict[str, int]] = [{} for _ in seats]
    for turn in story["turns"]:
        for claim in turn["claims"]:
            if claim["kind"] != "embezzle":
                c = chars[claim["seat"]]
                c[claim["character"]] = c.get(claim["character"], 0) + 1
    out: list[SeatResult] = []
    bot_names: dict[str, str] = {}
    for i, s in enumerate(seats):
        if s is None:
            continue
        if s.kind == "bot":
            rater = ratings.bot_id(s.level, s.personality)
            bot_names[rater] = rater
            out.append(SeatResult(rater, places[i], False))
        elif s.profile:
            decisions, bot = by_bot(run, i)
            stats = {k: int(v) for k, v in story["stats"][i].items() if k not in ("seat", "name")}
            out.append(
                SeatResult(
                    s.profile, places[i], True, ratings.counted(decisions, bot), stats, chars[i]
                )
            )
    return GameResult(
        table.id, run.number, at, out, rate=_rate, shown=ratings.shown, bot_names=bot_names
    )


def _rate(
    entrants: list[tuple[str, int]], current: dict[str, tuple[float, float]]
) -> dict[str, tuple[float, float]]:
    people = [ratings.Entrant(i, rater, place, True) for i, (rater, place) in enumerate(entrants)]
    return ratings.rate(people, current)
