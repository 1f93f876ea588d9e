"""The guided first game ("Learn to play", docs/web.md): a fixed deal and the bots' scripted
moves, played on the same engine and table as any game (table setting `tutorial`).

A script is the game's moves that are not a pass (nor played by the engine itself), in
order: `income`, `challenge`, `lose captain`, ... While the game's own such moves are the
script's first ones, a bot asked to move plays the script's next move if it is its own and
legal, else passes (it waits in a reaction window for the person's move); the order in
which seats pass does not matter. Once the person plays something else, or the script is
done, the bots play as the table's easy bots. The person's seat is seat 0 and moves first.

The steps the page shows (`js/tutorial.js`) are listed here beside the script, each with
the number of script moves played when it shows (`at`), the part of the table it points
at (`target`) and, when it waits for the person, the move it waits for (`move`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from coup.rules import State

#: The person's seat at a tutorial table (the bots sit in 1 and 2).
PERSON = 0
SEATS = 3
#: A move of the person's that matches any move with this verb (what they keep of an exchange).
ANY = "*"


@dataclass(frozen=True)
class Step:
    key: str  # the catalog's key under "tut." (its text)
    at: int  # the script moves played when it shows
    target: str  # "me" | "seat:N" | "treasury" | "court" | "decision" | "log" | "reserve"
    move: str | None = None  # the person's move it waits for ("keep *": any keep)

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "at": self.at, "target": self.target, "move": self.move}


@dataclass(frozen=True)
class Script:
    name: str
    characters: str
    reformation: bool
    seed: int
    deal: dict[str, list[Any]]
    moves: tuple[tuple[int, str], ...]
    steps: tuple[Step, ...]

    def settings(self) -> dict[str, Any]:
        """The table settings this tutorial plays with (set with `tutorial`)."""
        return {
            "seats": SEATS,
            "characters": self.characters,
            "reformation": self.reformation,
            "turn_timer": 0,
            "reaction_timer": 0,
            "bot_level": "easy",
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            "settings": self.settings(),
            "moves": [{"seat": s, "move": m} for s, m in self.moves],
            "steps": [s.as_dict() for s in self.steps],
        }


def _s(key: str, at: int, target: str, move: str | None = None) -> Step:
    return Step(key, at, target, move)


BASE = Script(
    name="base",
    characters="ambassador",
    reformation=False,
    seed=0,  # the proven Duke is replaced by an Ambassador (tests/server/test_server_tutorial.py)
    deal={
        "hands": [["contessa", "duke"], ["assassin", "captain"], ["ambassador", "captain"]],
        "court": [
            "duke",
            "assassin",
            "contessa",
            "ambassador",
            "duke",
            "assassin",
            "contessa",
            "ambassador",
            "captain",
        ],
    },
    moves=(
        (0, "income"),
        (1, "foreign_aid"),
        (2, "tax"),
        (0, "challenge"),
        (2, "lose ambassador"),
        (0, "tax"),
        (1, "challenge"),
        (0, "reveal duke"),
        (1, "lose captain"),
        (1, "assassinate 0"),
        (0, "block contessa"),
        (2, "steal 0"),
        (0, "challenge"),
        (2, "reveal captain"),
        (0, "lose contessa"),
        (0, "block ambassador"),
        (0, "exchange"),
        (0, "keep *"),
        (1, "income"),
        (2, "income"),
        (0, "income"),
        (1, "income"),
        (2, "income"),
        (0, "coup 1"),
    ),
    steps=(
        _s("welcome", 0, "me"),
        _s("goal", 0, "seat:1"),
        _s("income", 0, "decision", "income"),
        _s("income_done", 1, "treasury"),
        _s("foreign_aid", 2, "seat:1", "pass"),
        _s("tax_bluff", 3, "seat:2", "challenge"),
        _s("challenge_won", 5, "seat:2"),
        _s("tax", 5, "decision", "tax"),
        _s("challenged", 7, "seat:1", "reveal duke"),
        _s("proven", 9, "me"),
        _s("assassinate", 10, "seat:1", "block contessa"),
        _s("contessa_done", 11, "me"),
        _s("steal", 12, "seat:2", "challenge"),
        _s("lose", 14, "me", "lose contessa"),
        _s("block_steal", 15, "decision", "block ambassador"),
        _s("block_done", 16, "log"),
        _s("exchange", 16, "decision", "exchange"),
        _s("keep", 17, "decision", "keep *"),
        _s("income_again", 20, "decision", "income"),
        _s("coup", 23, "seat:1", "coup 1"),
        _s("own_way", 24, "me"),
    ),
)

INQUISITOR = Script(
    name="inquisitor",
    characters="inquisitor",
    reformation=False,
    seed=0,
    deal={
        "hands": [["duke", "inquisitor"], ["assassin", "captain"], ["contessa", "duke"]],
        "court": [
            "inquisitor",
            "captain",
            "assassin",
            "contessa",
            "inquisitor",
            "duke",
            "captain",
            "assassin",
            "contessa",
        ],
    },
    moves=(
        (0, "examine 1"),
        (1, "show captain"),
        (0, "swap"),
        (1, "income"),
        (2, "income"),
        (0, "exchange"),
        (0, "keep *"),
    ),
    steps=(
        _s("inq_welcome", 0, "me"),
        _s("inq_examine", 0, "seat:1", "examine 1"),
        _s("inq_swap", 2, "decision", "swap"),
        _s("inq_swapped", 3, "seat:1"),
        _s("inq_exchange", 5, "decision", "exchange"),
        _s("inq_keep", 6, "decision", "keep *"),
        _s("inq_end", 7, "me"),
    ),
)

REFORMATION = Script(
    name="reformation",
    characters="ambassador",
    reformation=True,
    seed=0,
    deal={
        "hands": [["captain", "contessa"], ["assassin", "duke"], ["ambassador", "duke"]],
        "court": [
            "duke",
            "assassin",
            "contessa",
            "ambassador",
            "captain",
            "assassin",
            "contessa",
            "ambassador",
            "captain",
        ],
    },
    moves=(
        (0, "allegiance loyalist"),
        (0, "convert"),
        (1, "income"),
        (2, "income"),
        (0, "embezzle"),
    ),
    steps=(
        _s("ref_welcome", 0, "me"),
        _s("ref_allegiance", 0, "decision", "allegiance loyalist"),
        _s("ref_badges", 1, "seat:1"),
        _s("ref_convert", 1, "decision", "convert"),
        _s("ref_reserve", 2, "reserve"),
        _s("ref_embezzle", 4, "decision", "embezzle"),
        _s("ref_end", 5, "me"),
    ),
)

#: The guided games by name (the `tutorial` setting).
SCRIPTS: dict[str, Script] = {s.name: s for s in (BASE, INQUISITOR, REFORMATION)}


def new_game(script: Script, names: list[str]) -> State:
    """The tutorial's game: its fixed deal and seed, the person first."""
    import coup

    return coup.new_game(
        players=names,
        seed=script.seed,
        characters=script.characters,
        draft=False,
        first=PERSON,
        deal=script.deal,
        reformation=script.reformation,
    )


def played(state: State) -> list[tuple[int, str]]:
    """The game's moves a script lists: neither a pass nor one the engine played."""
    return [
        (seat, str(move))
        for seat, move, forced, *_ in state.history
        if not forced and move.verb != "pass"
    ]


def _same(scripted: str, move: str) -> bool:
    verb, _, arg = scripted.partition(" ")
    return move == scripted or (arg == ANY and move.split(" ", 1)[0] == verb)


def position(script: Script, state: State) -> int | None:
    """How many of the script's moves the game played (all of them once the game went on
    past its end), or None once it left the script."""
    moves = played(state)[: len(script.moves)]
    for (seat, move), (want_seat, want) in zip(moves, script.moves):
        if seat != want_seat or not _same(want, move):
            return None
    return len(moves)


def bot_move(script: Script, state: State, seat: int) -> str | None:
    """The scripted move of bot `seat` now, or None: off the script (or past its end),
    the table's easy bot decides."""
    at = position(script, state)
    if at is None or at >= len(script.moves):
        return None
    legal = [str(m) for m in state.legal(seat)]
    want_seat, want = script.moves[at]
    if want_seat == seat and want in legal:
        return want
    return "pass" if "pass" in legal else None


def playable(script: Script, *, person_first: bool) -> bool:
    """Play the whole script (the person making the steps' moves, any keep their first
    legal one; in each reaction window the person moves before or after the bots): True
    when it gets to the end with every claim of the person's true (the tutorial teaches
    no bluff by accident: a proven card's replacement and the Court's draws follow the
    seed, hence each script's)."""
    state = new_game(script, ["You", "Bot 1", "Bot 2"])
    for _ in range(200):
        at = position(script, state)
        if at is None:
            return False
        if at >= len(script.moves):
            return True
        order = sorted(state.waiting, key=lambda s: (s != PERSON) == person_first)
        seat = order[0]
        if seat == PERSON:
            move = person_move(script, state)
            if move is None:
                return False
            claim = claimed(state, move)
            hand = state.view(PERSON)["players"][PERSON]["cards"] or []
            if claim is not None and claim not in hand:
                return False
        else:
            bot = bot_move(script, state, seat)
            if bot is None:
                return False
            move = bot
        try:
            state.play(seat, move)
        except ValueError:
            return False
    return False


def person_move(script: Script, state: State) -> str | None:
    """The person's scripted move now (a pass while the script waits for another seat),
    or None when the script has none for them."""
    at = position(script, state)
    if at is None or at >= len(script.moves):
        return None
    legal = [str(m) for m in state.legal(PERSON)]
    want_seat, want = script.moves[at]
    if want_seat == PERSON:
        return next((m for m in legal if _same(want, m)), None)
    return "pass" if "pass" in legal else None


CLAIMS = {"tax": "duke", "steal": "captain", "assassinate": "assassin", "examine": "inquisitor"}


def claimed(state: State, move: str) -> str | None:
    """The character the person's `move` claims now (None: no claim)."""
    verb, _, arg = move.partition(" ")
    if verb == "block" or verb == "reveal":
        return arg
    if verb == "exchange":
        return "inquisitor" if state.settings.characters == "inquisitor" else "ambassador"
    return CLAIMS.get(verb)
