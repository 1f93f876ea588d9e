"""Moves and their notation (docs/records.md): ``income``, ``steal 2``, ``keep duke contessa``,
``allegiance loyalist``, ``convert``, ``convert 3``."""

from __future__ import annotations

from typing import Final, NamedTuple

from .cards import ALLEGIANCES, CHARACTERS


class InvalidMoveError(ValueError):
    """The text is not a move in Coup's notation (a syntax error)."""


class IllegalMoveError(ValueError):
    """The move is well formed but not legal for that seat now; nothing changed."""


#: Verbs and the kind of argument each takes.
TARGETED = frozenset({"coup", "assassinate", "steal", "examine"})
CHARACTER_ARG = frozenset({"block", "reveal", "lose", "show", "draft"})
BARE = frozenset(
    {"income", "foreign_aid", "tax", "exchange", "pass", "challenge", "return", "swap", "embezzle"}
)
VERBS = TARGETED | CHARACTER_ARG | BARE | {"keep", "allegiance", "convert"}


class Move(NamedTuple):
    """One move: a verb and its argument (a seat, a character, a tuple of kept cards)."""

    verb: str
    arg: int | str | tuple[str, ...] | None = None

    def __str__(self) -> str:
        arg = self.arg
        if arg is None:
            return self.verb
        if type(arg) is tuple:
            return " ".join((self.verb, *arg))
        return f"{self.verb} {arg}"

    @staticmethod
    def parse(text: object) -> Move:
        """Parse notation into a Move; raises InvalidMoveError saying what is wrong."""
        if not isinstance(text, str):
            raise InvalidMoveError(f"a move is a string of notation, not {type(text).__name__}")
        move = _PARSED.get(text)
        if move is None:
            move = _parse(text)
            if len(_PARSED) < 4096:
                _PARSED[text] = move
        return move


_PARSED: Final[dict[str, Move]] = {}


def _parse(text: str) -> Move:
    if not isinstance(text, str):
        raise InvalidMoveError(f"a move is a string of notation, not {type(text).__name__}")
    parts = text.split(" ")
    verb, args = parts[0], parts[1:]
    if not text or "" in parts:
        raise InvalidMoveError(f"{text!r}: words must be separated by single spaces")
    if verb not in VERBS:
        raise InvalidMoveError(f"{text!r}: unknown verb {verb!r}")
    if verb in BARE:
        if args:
            raise InvalidMoveError(f"{text!r}: {verb!r} takes no argument")
        return Move(verb)
    if verb in TARGETED or (verb == "convert" and args):
        if len(args) != 1 or not _is_seat(args[0]):
            raise InvalidMoveError(f"{text!r}: {verb!r} takes one seat number")
        return Move(verb, int(args[0]))
    if verb == "convert":
        return Move(verb)
    if verb == "allegiance":
        if len(args) != 1 or args[0] not in ALLEGIANCES:
            raise InvalidMoveError(f"{text!r}: 'allegiance' takes loyalist or reformist")
        return Move(verb, args[0])
    if verb in CHARACTER_ARG:
        if len(args) != 1:
            raise InvalidMoveError(f"{text!r}: {verb!r} takes one character")
        _check_character(text, args[0])
        return Move(verb, args[0])
    # keep
    if len(args) not in (1, 2):
        raise InvalidMoveError(f"{text!r}: 'keep' takes one or two characters")
    for arg in args:
        _check_character(text, arg)
    return Move(verb, tuple(sorted(args)))


def _is_seat(word: str) -> bool:
    """A seat number in decimal: ASCII digits, no leading zero."""
    return word.isascii() and word.isdigit() and (len(word) == 1 or word[0] != "0")


def _check_character(text: str, name: str) -> None:
    if name not in CHARACTERS:
        raise InvalidMoveError(f"{text!r}: unknown character {name!r}")


def as_move(move: object) -> Move:
    """A Move from a Move or its notation."""
    if type(move) is Move:
        return move
    if isinstance(move, str):
        return Move.parse(move)
    if isinstance(move, tuple) and len(move) == 2:
        return Move(*move)
    raise InvalidMoveError(f"a move is a Move or notation text, not {type(move).__name__}")
