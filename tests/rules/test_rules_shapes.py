"""The shapes of views and records (coup/rules/shapes.py) are the ones docs/engine.md and
docs/records.md describe, key for key: each TypedDict has one table there (introduced by
the line just above it, which names the type), with the same keys and the same required
ones. Every name those pages give exists, and the phase table lists `coup.PHASES`."""

from __future__ import annotations

import builtins
import importlib
import pkgutil
import re
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import coup
import coup.bots
from coup.rules import shapes

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("engine.md", "records.md")


@dataclass(frozen=True)
class Table:
    page: str
    lead: str  # the line just above the table
    keys: tuple[str, ...]
    required: frozenset[str]


def tables(page: str, text: str) -> list[Table]:
    """Every key table of a page: its first column holds `key` names, and a `required`
    column says which are (yes ...), or a `default` column makes every key optional."""
    found: list[Table] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("|") or i + 1 >= len(lines) or "---" not in lines[i + 1]:
            i += 1
            continue
        header = [c.strip() for c in lines[i].strip("|").split("|")]
        lead = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        rows: list[list[str]] = []
        i += 2
        while i < len(lines) and lines[i].startswith("|"):
            rows.append([c.strip() for c in lines[i].strip("|").split("|")])
            i += 1
        names = [re.fullmatch(r"`(\w+)`", row[0]) for row in rows]
        if not all(names) or not ("required" in header or "default" in header):
            continue  # not a table of keys (the phases, the notation)
        keys = tuple(m.group(1) for m in names if m)
        if "required" in header:
            column = header.index("required")
            required = {
                k for k, row in zip(keys, rows, strict=True) if row[column].startswith("yes")
            }
        else:
            required = set()
        found.append(Table(page, lead, keys, frozenset(required)))
    return found


def documented_types() -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """Each shape a page must describe: name -> (required keys, optional keys). A generic
    shape (the view) is described through its named forms (SeatView, SpectatorView); a
    form for any viewer (AnyView) adds nothing to describe."""
    out = {}
    for name in shapes.__all__:
        obj = getattr(shapes, name)
        args = typing.get_args(obj)
        typed = typing.get_origin(obj) or obj
        if not typing.is_typeddict(typed) or getattr(obj, "__parameters__", ()):
            continue
        if any(a is Any for a in args):
            continue
        out[name] = (typed.__required_keys__, typed.__optional_keys__)
    return out


def differences(pages: dict[str, str]) -> list[str]:
    """What the pages and the shapes disagree on (empty when they agree)."""
    types = documented_types()
    seen: dict[str, list[Table]] = {name: [] for name in types}
    for page, text in pages.items():
        for table in tables(page, text):
            for name in re.findall(r"`(\w+)`", table.lead):
                if name in seen:
                    seen[name].append(table)
    problems = []
    for name, (required, optional) in types.items():
        if len(seen[name]) != 1:
            problems.append(f"{name}: {len(seen[name])} tables in {', '.join(pages)}, not one")
            continue
        table = seen[name][0]
        keys, typed = set(table.keys), required | optional
        if keys != typed:
            problems.append(
                f"{name} ({table.page}): the table has {sorted(keys - typed)} too many, "
                f"{sorted(typed - keys)} missing"
            )
        elif table.required != required:
            problems.append(
                f"{name} ({table.page}): required per the table {sorted(table.required)}, "
                f"per the type {sorted(required)}"
            )
    return problems


def page_texts() -> dict[str, str]:
    return {page: (ROOT / "docs" / page).read_text() for page in PAGES}


def test_every_view_and_record_shape_matches_its_table_in_the_docs() -> None:
    assert documented_types().keys() >= {"SeatView", "SpectatorView", "Record", "PlayerView"}
    assert differences(page_texts()) == []


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("| `loser` | yes |", "| `looser` | yes |", "Pending (engine.md): the table has ['looser']"),
        ("| `reserve` | no: Reformation | the coins on the Treasury Reserve |\n\n### `Player",
         "\n### `Player", "SeatView (engine.md): the table has [] too many, ['reserve'] missing"),
        ("| `commitment` | no |", "| `commitment` | yes |", "Record (records.md): required per"),
        ("`RecordDeal`, the deal's keys:", "The deal's keys:", "RecordDeal: 0 tables"),
    ],
)  # fmt: skip
def test_a_page_that_drifts_from_the_shapes_is_caught(old: str, new: str, says: str) -> None:
    pages = page_texts()
    page = next(p for p, text in pages.items() if old in text)
    pages[page] = pages[page].replace(old, new, 1)
    assert any(p.startswith(says) for p in differences(pages)), differences(pages)


def resolve(dotted: str) -> object:
    """`coup.rules.PHASES`, `coup.Move.parse`: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(dotted)


@pytest.mark.parametrize("page", [*PAGES, "bots.md"])
def test_every_name_the_page_gives_exists(page: str) -> None:
    text = (ROOT / "docs" / page).read_text()
    for dotted in sorted(set(re.findall(r"\bcoup(?:\.[A-Za-z_]\w*)+", text))):
        resolve(dotted)  # raises if the page names what the code does not have
    for path in sorted(set(re.findall(r"`((?:coup|docs|tests)/[\w/]+\.\w+)`", text))):
        assert (ROOT / path).is_file(), path
    if page == "engine.md":  # `s` is a State there
        state = coup.new_game(players=2, seed=1)
        for attribute in sorted(set(re.findall(r"\bs\.([a-z_]+)", text))):
            assert hasattr(state, attribute), f"{page} names s.{attribute}"
    bots = [f"coup.bots.{m.name}" for m in pkgutil.iter_modules(coup.bots.__path__)]
    homes = [builtins, coup, shapes, coup.bots, *map(importlib.import_module, bots)]
    for name in sorted(set(re.findall(r"`([A-Z][a-z]\w*)`", text))):  # a class or a type
        assert any(hasattr(home, name) for home in homes), f"{page} names {name}"


def test_the_phase_table_lists_the_phases_in_order() -> None:
    text = (ROOT / "docs" / "engine.md").read_text()
    section = text.split("## Phases", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^\| `(\w+)` \|", section, re.MULTILINE)
    assert tuple(listed) == coup.PHASES
