"""The protocol's messages as the server types them (coup/server/messages.py), held against
docs/protocol.md: the client messages' table (fields, which are optional, who may send
each: coup/server/handlers.py), and the server's messages as the doc's examples show them."""

from __future__ import annotations

import json
import re
import types
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from coup.server import messages
from coup.server.handlers import HANDLERS
from coup.server.protocol import MESSAGES

DOC = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()


def _client_table() -> dict[str, tuple[dict[str, bool], str]]:
    """type -> ({field: optional}, who) from the table of client messages."""
    at = DOC.index("| type | fields | who | what |")
    rows: dict[str, tuple[dict[str, bool], str]] = {}
    for line in DOC[at:].splitlines()[2:]:
        if not line.startswith("| `"):
            break
        kind, fields, who = (cell.strip() for cell in line.strip("|").split("|")[:3])
        found = {}
        for name, note in re.findall(r"`(\w+)`(?: \(([^)]*)\))?", fields):
            found[name] = note.startswith("optional")
        rows[kind.strip("`")] = (found, who)
    return rows


def _who(text: str) -> str:
    if text.startswith("host"):
        return "host"
    if text.startswith("anyone") or "spectators" in text:
        return "anyone"
    assert text.startswith("a seated player"), text
    return "seated"


def test_the_client_messages_are_those_of_the_doc_field_for_field() -> None:
    table = _client_table()
    assert set(table) == set(messages.CLIENT) == set(MESSAGES) == set(HANDLERS)
    for kind, (fields, _) in table.items():
        typed = messages.CLIENT[kind]
        assert set(fields) == set(get_type_hints(typed)), kind
        optional = {name for name, opt in fields.items() if opt}
        assert optional == set(typed.__optional_keys__), kind  # type: ignore[attr-defined]


def test_who_may_send_each_message_is_the_doc_s() -> None:
    for kind, (_, who) in _client_table().items():
        assert HANDLERS[kind][0] == _who(who), kind


def _example(heading: str, start: str = "```json\n") -> Any:
    """The first JSON example after `heading` (a fenced block, or inline with `start`)."""
    at = DOC.index(heading) + len(heading)
    begin = DOC.index(start, at) + len(start)
    end = DOC.index("```" if start.startswith("```") else "`", begin)
    return json.loads(DOC[begin:end])


EXAMPLES = [
    (messages.ViewMessage, _example("#### `view`")),
    (messages.ErrorMessage, _example("#### `error`")),
    (messages.PongMessage, _example("#### `pong`", start="`")),
    (messages.SeatReply, _example("### `POST /api/tables` — create", "Response `201`:\n```json\n")),
]


def _typeddict(hint: Any) -> Any:
    """The TypedDict that `hint` is (or `hint | None` is), else None."""
    options = get_args(hint) if get_origin(hint) in (Union, types.UnionType) else (hint,)
    return next((h for h in options if is_typeddict(h)), None)


def _fits(hint: Any, value: Any, where: str) -> None:
    """`value` (from the doc) is a value of `hint` (from the types), recursively."""
    if get_origin(hint) in (Union, types.UnionType):
        if value is None:
            assert type(None) in get_args(hint), where
            return
        hint = next(h for h in get_args(hint) if h is not type(None))
    origin = get_origin(hint)
    if is_typeddict(hint):
        assert isinstance(value, dict), where
        _matches(hint, [value], where)
    elif origin is list:
        assert isinstance(value, list), where
        (item,) = get_args(hint)
        inner = _typeddict(item)
        for v in value:
            if inner is None or v is None:
                _fits(item, v, where)
        if inner is not None:  # entries together show every key
            _matches(inner, [v for v in value if v is not None], where)
    elif origin is Literal:
        assert value in get_args(hint), where
    elif origin is not None:  # dict[str, Any], Mapping[str, Any]: an object left open
        assert isinstance(value, dict), where
    elif hint is int:
        assert isinstance(value, int) and not isinstance(value, bool), where
    else:
        assert isinstance(value, hint), where


def _matches(typed: Any, examples: list[dict[str, Any]], where: str) -> None:
    """Every key of the examples is one of the type's; every required key is in each
    example; the type's optional keys are shown in one example at least."""
    hints = get_type_hints(typed)
    shown: set[str] = set()
    for example in examples:
        assert set(example) <= set(hints), (where, set(example) - set(hints))
        assert typed.__required_keys__ <= set(example), (
            where,
            typed.__required_keys__ - set(example),
        )
        shown |= set(example)
        for key, value in example.items():
            _fits(hints[key], value, f"{where}.{key}")
    assert shown == set(hints), (where, set(hints) - shown)


@pytest.mark.parametrize(("typed", "example"), EXAMPLES, ids=lambda v: getattr(v, "__name__", ""))
def test_the_server_messages_are_those_of_the_doc_field_for_field(
    typed: Any, example: dict[str, Any]
) -> None:
    _matches(typed, [example], typed.__name__)
