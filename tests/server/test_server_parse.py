"""coup/server/protocol.py parse_message: orjson first, the json module for the rest."""

from __future__ import annotations

import pytest

from coup.server.protocol import ProtocolError, parse_message


@pytest.mark.parametrize("frame", ['{"type":"chat","text":"hi"}', b'{"type":"chat","text":"hi"}'])
def test_text_and_bytes_parse_alike(frame: str | bytes) -> None:
    msg = parse_message(frame)
    assert (msg.type, msg.fields, msg.id) == ("chat", {"text": "hi"}, None)


def test_beyond_strict_json_is_read_as_before() -> None:
    # orjson refuses these; the json module's reading is kept (a chat line drops the
    # lone surrogate later, docs/protocol.md)
    assert parse_message('{"type":"chat","text":"a\\ud800b"}').fields == {"text": "a\ud800b"}
    with pytest.raises(ProtocolError) as info:
        parse_message('{"type":"chat","text":"hi","id":NaN}')
    assert info.value.code == "bad_message"  # NaN read, then refused as an id


@pytest.mark.parametrize("frame", ["not json", b'{"type":"chat","text":"\xff"}', "[" * 4000])
def test_what_neither_reads_is_bad_json(frame: str | bytes) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_message(frame)
    assert info.value.code == "bad_json"


def test_an_integer_over_64_bits_is_refused() -> None:
    assert parse_message('{"type":"ping","id":18446744073709551615}').id == 2**64 - 1
    with pytest.raises(ProtocolError) as info:
        parse_message('{"type":"ping","id":18446744073709551616}')
    assert info.value.code == "bad_message"  # docs/protocol.md, 2.
