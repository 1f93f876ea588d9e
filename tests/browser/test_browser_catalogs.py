"""The language catalogs against the page and against English (files only: no browser).

Every catalog has exactly English's keys, each with English's placeholders; every key the
page asks for exists, and every key exists because the page asks for it. The page names a
key either literally ("lobby.copy", data-i18n="rules.button") or builds it from a value
(`char.${c}`): those built keys are listed in COMPUTED with the values they take.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from coup.server.tutorial import SCRIPTS

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "coup" / "web"

CHARACTERS = ("duke", "assassin", "captain", "ambassador", "inquisitor", "contessa")
ACTIONS = ("income", "foreign_aid", "coup", "tax", "assassinate", "steal", "exchange", "examine")
REFORMATION_ACTIONS = ("convert", "embezzle")
PERSONALITIES = ("random", "honest", "bluffer", "skeptic", "vengeful", "cautious")
TUTORIALS = tuple(SCRIPTS)  # the guided games and their steps (coup/server/tutorial.py)
STEPS = tuple(sorted({step.key for script in SCRIPTS.values() for step in script.steps}))

# The keys the page builds from a value, as written in its scripts (`${...}` as `*`), with
# every value it puts there: the engine's characters and moves, the server's bot levels,
# personalities, table states and deadline kinds, and the scripts' own lists (seat badges,
# tabs, the after-game table's columns and verdicts), the error codes.
COMPUTED: dict[str, tuple[str, ...]] = {
    "char.*": CHARACTERS,
    "card.*.action": CHARACTERS,
    "card.*.counter": CHARACTERS,
    "level.*": ("easy", "medium", "hard"),
    "bot.personality.*": PERSONALITIES,
    "bot.personality.*.about": PERSONALITIES,
    "lobby.status.*": ("lobby", "playing", "over"),
    "table.tab.*": ("log", "chat"),
    "deadline.*": ("turn", "reaction", "away", "stall"),
    "seat.*": (
        "out",
        "winner",
        "thinking",
        "passed",
        "disconnected",
        "idle",
        "stalled",
        "left",
        "standin",
    ),
    "gone.*": ("removed", "left"),
    "lobby.former_*": ("removed", "left"),
    "act.*": ACTIONS + REFORMATION_ACTIONS + ("pass", "challenge", "return", "swap"),
    "act.*.hint": ACTIONS + REFORMATION_ACTIONS,
    "act.choose_target.*": ("coup", "assassinate", "steal", "examine", "convert"),
    "now.claim.*": ACTIONS + ("embezzle",),
    "now.claim_you.*": ("assassinate", "steal", "examine"),
    "log.handoff.*": ("host", "left", "back"),
    "ref.*": ("loyalist", "reformist"),
    "review.*": ("true", "true_lost", "bluff_caught", "bluff_free"),
    "review.col_*": (
        "claims",
        "bluffs",
        "caught",
        "challenges",
        "challenges_won",
        "blocks",
        "coins",
    ),
    "tut.*": STEPS,
    "tut.title.*": TUTORIALS,
    "tut.start.*": ("inquisitor", "reformation"),
    "error.*": ("network", "offline"),  # the page's own (net.js), and docs/protocol.md's
}
# Names built the same way that are not catalog keys (the browser's storage).
NOT_KEYS = {"coup.token.*", "coup.coach.*.*"}


def _catalog(lang: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _languages() -> list[str]:
    return sorted(path.stem for path in (WEB / "i18n").glob("*.json"))


def _scripts() -> str:
    return "\n".join(js.read_text(encoding="utf-8") for js in sorted((WEB / "js").glob("*.js")))


def _placeholders(text: str) -> Counter[str]:
    return Counter(re.findall(r"\{\w+\}", text))


def _error_codes() -> tuple[str, ...]:
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    table = doc.split("### Error codes", 1)[1].split("\n#", 1)[0]
    codes: list[str] = []
    for line in table.splitlines():
        if line.startswith("| `"):
            codes += re.findall(r"`(\w+)`", line.split("|")[1])
    assert codes, "docs/protocol.md has no table of error codes"
    return tuple(codes)


def _literal_keys() -> set[str]:
    """Every catalog key named literally by a script or the page."""
    english = _catalog("en")
    quoted = set(re.findall(r"""["'`]([a-z][a-z_]*(?:\.[a-z_]+)+)["'`]""", _scripts()))
    html = (WEB / "index.html").read_text(encoding="utf-8")
    named = set(re.findall(r'data-i18n(?:-\w+)?="([^"]+)"', html))
    missing = sorted(named - set(english))
    assert not missing, f"index.html names keys English lacks: {missing}"
    return (quoted & set(english)) | named


def _computed_keys() -> dict[str, set[str]]:
    values = {**COMPUTED, "error.*": COMPUTED["error.*"] + _error_codes()}
    return {pattern: {pattern.replace("*", v) for v in vs} for pattern, vs in values.items()}


def _templates() -> set[str]:
    """The scripts' template literals shaped like a key: `char.${c}` -> "char.*"."""
    found = set()
    for body in re.findall(r"`([^`]*\$\{[^`]*)`", _scripts()):
        pattern = re.sub(r"\$\{[^}]*\}", "*", body)
        if re.fullmatch(r"[a-z_*]+(?:\.[a-z_*]+)+", pattern):
            found.add(pattern)
    return found - NOT_KEYS


def test_catalogs_match_english() -> None:
    english = _catalog("en")
    for lang in _languages():
        other = _catalog(lang)
        assert sorted(set(english) - set(other)) == [], f"{lang}.json lacks these keys"
        assert sorted(set(other) - set(english)) == [], f"{lang}.json has keys English has not"
        for key, text in english.items():
            assert bool(other[key]) == bool(text), f"{lang}.json: {key} (empty or untranslated)"
            assert _placeholders(other[key]) == _placeholders(text), f"{lang}.json: {key}"


def test_language_menu_and_catalogs_agree() -> None:
    src = (WEB / "js" / "i18n.js").read_text(encoding="utf-8")
    block = src.split("export const LANGUAGES = {", 1)[1].split("};", 1)[0]
    menu = set(re.findall(r"""^\s*"?([\w-]+)"?: \{ name:""", block, re.MULTILINE))
    assert menu == set(_languages())
    assert {"en", "fa", "ro", "ja", "he", "id", "es", "de", "fr", "pt-BR", "ar"} <= menu


def test_every_key_the_page_uses_exists() -> None:
    english = _catalog("en")
    used = _literal_keys()
    for pattern, values in COMPUTED.items():  # a server's code without a key shows its message
        used |= {pattern.replace("*", v) for v in values}
    assert sorted(used - set(english)) == []


def test_every_key_is_used_by_the_page() -> None:
    used = _literal_keys().union(*_computed_keys().values())
    unused = sorted(set(_catalog("en")) - used)
    assert unused == [], "keys no script nor the page asks for (or add their values to COMPUTED)"


def test_every_built_key_is_listed() -> None:
    assert sorted(_templates() - set(COMPUTED)) == [], "a script builds keys COMPUTED does not list"
    assert sorted(set(COMPUTED) - _templates()) == [], "COMPUTED lists keys no script builds"
