"""Every language catalog has the same keys and placeholders as English (no browser needed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "coup" / "web"


def _catalog(lang: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_catalogs_match_english() -> None:
    english = _catalog("en")
    for path in sorted((WEB / "i18n").glob("*.json")):
        other = _catalog(path.stem)
        assert set(other) == set(english), path.name
        for key, text in english.items():
            assert bool(other[key]) == bool(text), f"{path.name}: {key} (empty or untranslated)"
            want = set(re.findall(r"\{\w+\}", text))
            assert set(re.findall(r"\{\w+\}", other[key])) == want, f"{path.name}: {key}"


def test_language_menu_and_catalogs_agree() -> None:
    src = (WEB / "js" / "i18n.js").read_text(encoding="utf-8")
    block = src.split("export const LANGUAGES = {", 1)[1].split("};", 1)[0]
    menu = set(re.findall(r"^\s*(\w+): \{ name:", block, re.MULTILINE))
    files = {path.stem for path in (WEB / "i18n").glob("*.json")}
    assert menu == files
    assert {"en", "fa", "ro", "ja", "he", "id"} <= files


def test_every_key_used_by_the_page_exists() -> None:
    english = _catalog("en")
    used: set[str] = set()
    for js in (WEB / "js").glob("*.js"):
        src = js.read_text(encoding="utf-8")
        used |= set(re.findall(r"""(?:\bt|tNodes|has)\(\s*"([a-z_]+(?:\.[a-z_]+)+)\"""", src))
    html = (WEB / "index.html").read_text(encoding="utf-8")
    used |= set(re.findall(r'data-i18n(?:-\w+)?="([^"]+)"', html))
    missing = sorted(k for k in used if k not in english)
    assert not missing, missing
