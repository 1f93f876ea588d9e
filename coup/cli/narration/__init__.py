"""`coup replay`'s words in other languages: one JSON catalog per language beside this file.

English is the code's own: `coup.rules.narrate.PHRASES` (the sentence a move makes) and
`coup.cli.replay.PHRASES` (the deal, coins and verdict around them). A catalog gives every
one of their keys in its language, with the same ``{placeholders}``; a test checks them.
"""

from __future__ import annotations

import json
from importlib import resources

#: The languages with a catalog, by tag (the web client's tags: "pt-BR", not "pt_BR").
LANGUAGES: tuple[str, ...] = tuple(
    sorted(
        entry.name.removesuffix(".json")
        for entry in resources.files(__name__).iterdir()
        if entry.name.endswith(".json")
    )
)


def match(tag: str) -> str | None:
    """One of ours (or "en") for a language tag: the same tag in any case, else the one
    with the same base language ("pt" and "pt-PT" -> "pt-BR", "de-AT" -> "de")."""
    want = tag.strip().lower().replace("_", "-")
    known = ("en", *LANGUAGES)
    for lang in known:
        if lang.lower() == want:
            return lang
    base = want.split("-")[0]
    return next((lang for lang in known if lang.lower().split("-")[0] == base), None)


def phrases(lang: str) -> dict[str, str]:
    """The catalog of `lang` (one of LANGUAGES); English is {}: the code's own words."""
    if lang == "en":
        return {}
    text = resources.files(__name__).joinpath(f"{lang}.json").read_text(encoding="utf-8")
    catalog: dict[str, str] = json.loads(text)
    return catalog
