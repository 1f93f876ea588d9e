"""Names that look alike: a name at a table is compared with the others by its folded
form, so that "Ｈｏｓｔ" (full-width), "Ηost" (a Greek Eta) or "host" is not taken for
someone else's "Host".

A name's forms: NFKC (compatibility forms: full-width, ligatures, circled letters), the
joiners dropped, each character replaced by the one it is confusable with (Unicode's
confusables, as the `confusable-homoglyphs` package ships them: of a character and its
look-alikes, the lowest code point stands for all), case folded before or after. Two
names are alike when they share a form. The table is read once, on first use (`coup
serve` reads it as it starts).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

from confusable_homoglyphs.utils import load  # type: ignore[import-untyped]

from coup.server.protocol import JOINERS, ProtocolError


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character -> the one that stands for it and its look-alikes."""
    out: dict[str, str] = {}
    for char, alikes in load("confusables.json").items():
        single = [a["c"] for a in alikes if len(a["c"]) == 1]
        if len(char) == 1 and single:
            out[char] = min([char, *single])
    return out


def _mapped(text: str) -> str:
    prototypes = _prototypes()
    return "".join(prototypes.get(ch, ch) for ch in text)


def forms(name: str) -> frozenset[str]:
    """The forms a name is compared by: its look-alikes mapped before and after case
    folding (an upper-case look-alike, as the Greek Eta of "Ηost", is alike before it;
    "HOST" is "host" only after it)."""
    text = "".join(ch for ch in unicodedata.normalize("NFKC", name) if ch not in JOINERS)
    before = _mapped(_mapped(text).casefold())
    after = _mapped(text.casefold())
    return frozenset(unicodedata.normalize("NFKC", f) for f in (before, after))


def alike(a: str, b: str) -> bool:
    """Whether two names could be taken for each other."""
    return bool(forms(a) & forms(b))


def check_free(name: str, taken: Iterable[str]) -> None:
    """Refuse `name` (`409 name_taken`) if it looks like one of `taken`."""
    mine = forms(name)
    for other in taken:
        if mine & forms(other):
            raise ProtocolError("name_taken", f"{other!r} is the name of a player here", 409)
