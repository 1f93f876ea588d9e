"""Table settings and the deal: what a game starts from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import rng as _rng
from .cards import CHARACTERS, VARIANTS, characters_in, default_copies

if TYPE_CHECKING:
    from .shapes import RecordDeal, RecordSettings


class SettingsError(ValueError):
    """Settings or a deal that do not describe a game of Coup."""


MIN_PLAYERS, MAX_PLAYERS = 2, 10
MAX_COPIES = 10


@dataclass(frozen=True, slots=True)
class Settings:
    players: int
    characters: str = "ambassador"
    copies: int = 3
    draft: bool = False
    treasury: int = 50
    first: int = 0
    reformation: bool = False

    @staticmethod
    def make(
        players: object,
        characters: object = "ambassador",
        copies: object = None,
        draft: object = None,
        treasury: object = 50,
        first: object = 0,
        reformation: object = False,
    ) -> Settings:
        """Settings with the defaults of docs/rules.md filled in, checked; raises SettingsError.

        The arguments are checked here, whatever their type (hence `object`: a compiled
        core would otherwise refuse a wrong type with a bare TypeError)."""
        if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise SettingsError(f"players must be {MIN_PLAYERS}–{MAX_PLAYERS}, not {players!r}")
        if type(characters) is not str or characters not in VARIANTS:
            raise SettingsError(
                f"characters must be 'ambassador' or 'inquisitor', not {characters!r}"
            )
        least = default_copies(players)
        if copies is None:
            copies = least
        if type(copies) is not int or not least <= copies <= MAX_COPIES:
            raise SettingsError(
                f"copies must be {least}–{MAX_COPIES} for {players} players, not {copies!r}"
            )
        if draft is None:
            draft = players == 2 and copies == 3
        if type(draft) is not bool:
            raise SettingsError(f"draft must be true or false, not {draft!r}")
        if draft and (players != 2 or copies != 3):
            raise SettingsError("the draft deal is for two players with 3 copies of each character")
        if type(treasury) is not int or not 2 * players <= treasury <= 10_000:
            raise SettingsError(
                f"treasury must hold 2 coins a player up to 10000, not {treasury!r}"
            )
        if type(first) is not int or not 0 <= first < players:
            raise SettingsError(f"first must be a seat 0–{players - 1}, not {first!r}")
        if type(reformation) is not bool:
            raise SettingsError(f"reformation must be true or false, not {reformation!r}")
        return Settings(players, characters, copies, draft, treasury, first, reformation)

    def __reduce__(self) -> tuple[type[Settings], tuple[int, str, int, bool, int, int, bool]]:
        # explicit, so that copies and pickles work the same when this class is compiled
        # (a compiled frozen dataclass cannot be unpickled field by field)
        fields = (self.players, self.characters, self.copies, self.draft, self.treasury)
        return (Settings, (*fields, self.first, self.reformation))

    @property
    def in_play(self) -> tuple[str, ...]:
        return characters_in(self.characters)

    def deck(self) -> list[str]:
        """All cards of the game in canonical order."""
        return [c for c in self.in_play for _ in range(self.copies)]

    def as_dict(self) -> RecordSettings:
        """The settings as a record writes them (``reformation`` only when it is on)."""
        out: RecordSettings = {
            "characters": self.characters,
            "copies": self.copies,
            "draft": self.draft,
            "treasury": self.treasury,
            "first": self.first,
        }
        if self.reformation:
            out["reformation"] = True
        return out


@dataclass(frozen=True, slots=True)
class Deal:
    """Hands (each sorted) and the Court, top card first."""

    hands: tuple[tuple[str, ...], ...]
    court: tuple[str, ...]

    def __reduce__(self) -> tuple[type[Deal], tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]]:
        return (Deal, (self.hands, self.court))

    def as_dict(self) -> RecordDeal:
        return {"hands": [list(h) for h in self.hands], "court": list(self.court)}


def deal_from_seed(settings: Settings, state: int) -> tuple[Deal, int]:
    """Shuffle and deal with the game's generator; returns the deal and the new state.

    Normal deal: shuffle the deck; seat i takes cards 2i and 2i+1; the rest is the Court.
    Draft deal: shuffle one pile of one card per character; each seat takes one card
    (seat 0 first), the other three are the Court.
    """
    if settings.draft:
        pile = list(settings.in_play)
        state = _rng.shuffle(state, pile)
        return Deal(((pile[0],), (pile[1],)), tuple(pile[2:])), state
    deck = settings.deck()
    state = _rng.shuffle(state, deck)
    n = settings.players
    hands = tuple(tuple(sorted(deck[2 * i : 2 * i + 2])) for i in range(n))
    return Deal(hands, tuple(deck[2 * n :])), state


def check_deal(settings: Settings, raw: Any) -> Deal:
    """A Deal from a record's ``deal`` object; raises SettingsError if it is not exact."""
    if not isinstance(raw, dict) or set(raw) - {"hands", "court"} or "hands" not in raw:
        raise SettingsError("deal must be an object with 'hands' and 'court'")
    hands, court = raw.get("hands"), raw.get("court", [])
    if not isinstance(hands, list) or not isinstance(court, list):
        raise SettingsError("deal.hands and deal.court must be lists")
    if len(hands) != settings.players:
        raise SettingsError(f"deal has {len(hands)} hands for {settings.players} players")
    size = 1 if settings.draft else 2
    for seat, hand in enumerate(hands):
        if not isinstance(hand, list) or len(hand) != size:
            raise SettingsError(f"deal: seat {seat} must be dealt {size} card(s), not {hand!r}")
    cards = [c for h in hands for c in h] + court
    for card in cards:
        if card not in CHARACTERS:
            raise SettingsError(f"deal: unknown character {card!r}")
        if card not in settings.in_play:
            raise SettingsError(f"deal: {card!r} is not in a {settings.characters} game")
    expected = list(settings.in_play) if settings.draft else settings.deck()
    if sorted(cards) != sorted(expected):
        what = "one card of each character" if settings.draft else f"{settings.copies} of each"
        raise SettingsError(
            f"deal must hold exactly the game's cards ({what}), it holds {sorted(cards)}"
        )
    return Deal(tuple(tuple(sorted(h)) for h in hands), tuple(court))


def parse_settings(players: int, raw: Any) -> Settings:
    """Settings from a record's ``settings`` object (any field may be left out)."""
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise SettingsError("settings must be an object")
    # Unknown keys are ignored, as docs/records.md asks of readers.
    return Settings.make(
        players,
        characters=raw.get("characters", "ambassador"),
        copies=raw.get("copies"),
        draft=raw.get("draft"),
        treasury=raw.get("treasury", 50),
        first=raw.get("first", 0),
        reformation=raw.get("reformation", False),
    )
