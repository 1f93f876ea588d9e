"""The wire protocol (docs/protocol.md): client messages (their fields in `messages.py`)
and their validation, error and close codes. Nothing here knows about tables or games."""

from __future__ import annotations

import json
import time
import unicodedata
from dataclasses import dataclass
from typing import Any, get_origin, get_type_hints

import orjson

from coup.server.messages import CLIENT, ErrorMessage

MAX_FRAME = 4096  # bytes; a larger frame is refused with `too_large`
MAX_WS_FRAME = 64 * 1024  # bytes; a larger frame closes the socket (1009)
MAX_HTTP_BODY = 8 * 1024
NAME_MAX = 24
CHAT_MAX = 300
CHAT_KEEP = 50
CHAT_BURST = 5  # chat messages per seat in a burst
CHAT_RATE = 1.0  # then per second
HELLO_TIMEOUT = 10.0
RATE_BURST = 20
RATE_REFILL = 5.0  # messages per second
FLOOD_CLOSE = 20  # consecutive rate_limited refusals before closing


class Close:
    """Named websocket close codes."""

    GOING_AWAY = 1001
    TOO_BIG = 1009
    PROTOCOL = 4400
    BAD_TOKEN = 4401
    NO_ROOM = 4403
    NO_TABLE = 4404
    HELLO_TIMEOUT = 4408
    FLOODING = 4429


class ProtocolError(Exception):
    """A refused request: `code` from the protocol's list, an English `message`."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.msg_id: Any = None  # the id of the message refused, once known

    def payload(self, msg_id: Any = None) -> ErrorMessage:
        out: ErrorMessage = {"type": "error", "code": self.code, "message": self.message}
        if msg_id is None:
            msg_id = self.msg_id
        if msg_id is not None:
            out["id"] = msg_id
        return out


def dumps(value: Any) -> str:
    """A message as compact JSON text (UTF-8 as is, no spaces). orjson: about twenty
    times the standard library's speed on a view; the standard library takes what
    orjson refuses (an integer over 64 bits, a lone surrogate)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def path_number(raw: str, most: int) -> int | None:
    """A number in a path (or a header): ASCII digits only ("²" and "٣" are digits to
    `str.isdigit`, not to `int`), 0 to `most`; None for anything else, however long."""
    if not (raw and raw.isascii() and raw.isdigit()):
        return None
    digits = raw.lstrip("0") or "0"
    if len(digits) > len(str(most)):
        return None
    number = int(digits)
    return number if number <= most else None


def parse_object(raw: bytes) -> dict[str, Any]:
    """An HTTP body as a JSON object (`bad_json` otherwise; an empty body is `{}`)."""
    try:
        try:
            data = orjson.loads(raw or b"{}")
        except orjson.JSONDecodeError:  # what the json module takes beyond strict JSON
            data = json.loads(raw or b"{}")
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ProtocolError("bad_json", "the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "the body must be a JSON object")
    return data


def now_ms() -> int:
    return int(time.time() * 1000)


_INT = "int"
_STR = "str"
_DICT = "dict"
_BOOL = "bool"
_OPT_STR = "str?"  # a string or null


def _kind(field: str, hint: Any) -> str:
    if hint is bool:
        return _BOOL
    if hint is int:
        return _INT
    if hint is str:
        return _STR
    if hint == str | None:
        return _OPT_STR
    if get_origin(hint) is dict:
        return _DICT
    raise TypeError(f"no check for field {field!r} of type {hint!r}")  # pragma: no cover


# type -> {field: kind} and the fields each type needs, read from `messages.CLIENT`.
MESSAGES: dict[str, dict[str, str]] = {
    name: {field: _kind(field, hint) for field, hint in get_type_hints(fields).items()}
    for name, fields in CLIENT.items()
}
REQUIRED: dict[str, frozenset[str]] = {
    name: frozenset(getattr(fields, "__required_keys__", ())) for name, fields in CLIENT.items()
}


@dataclass
class Message:
    type: str
    fields: dict[str, Any]
    id: Any = None


def _check_id(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ProtocolError("bad_message", "`id` must be a string or an integer")
    if isinstance(value, str) and len(value) > 64:
        raise ProtocolError("bad_message", "`id` is longer than 64 characters")
    return value


def parse_message(frame: str | bytes) -> Message:
    """Check one client frame; raise ProtocolError with the right code."""
    size = len(frame.encode() if isinstance(frame, str) else frame)
    if size > MAX_FRAME:
        raise ProtocolError("too_large", f"message is {size} bytes; the limit is {MAX_FRAME}")
    try:
        try:
            data = orjson.loads(frame)  # a fifth of json.loads' time on a move's frame
        except orjson.JSONDecodeError:  # what the json module takes beyond strict JSON
            data = json.loads(frame)  # (NaN, a lone surrogate a chat line then drops)
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise ProtocolError("bad_json", "message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "message must be a JSON object")
    msg_id = _check_id(data.get("id"))
    try:
        kind = data.get("type")
        if not isinstance(kind, str):
            raise ProtocolError("bad_message", "message has no string `type`")
        if kind not in MESSAGES:
            raise ProtocolError("unknown_type", f"unknown message type {kind[:32]!r}")
        spec = MESSAGES[kind]
        fields: dict[str, Any] = {}
        for key, value in data.items():
            if key in ("type", "id"):
                continue
            if key not in spec:
                raise ProtocolError("bad_message", f"unknown field {key[:32]!r} in {kind!r}")
            want = spec[key]
            ok = (
                (want == _INT and isinstance(value, int) and not isinstance(value, bool))
                or (want == _STR and isinstance(value, str))
                or (want == _OPT_STR and (value is None or isinstance(value, str)))
                or (want == _DICT and isinstance(value, dict))
                or (want == _BOOL and isinstance(value, bool))
            )
            if not ok:
                raise ProtocolError("bad_message", f"field {key!r} of {kind!r} has the wrong type")
            fields[key] = value
        missing = REQUIRED[kind] - fields.keys()
        if missing:
            raise ProtocolError("bad_message", f"{kind!r} needs {', '.join(sorted(missing))}")
        return Message(kind, fields, msg_id)
    except ProtocolError as exc:  # the error answers this message: echo its id
        exc.msg_id = msg_id
        raise


# Bidirectional embedding/override/isolate controls: they could make a name or a chat
# line display as something else. (ZWNJ, which Persian needs, stays allowed.)
BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Unicode's White_Space characters: in a name each counts as a space.
SPACES = frozenset(
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
# Line breaks: in chat each becomes "\n" (CR LF counts as one).
LINE_BREAKS = frozenset("\n\v\f\r\x85\u2028\u2029")
_REFUSED = ("Cc", "Cs", "Co", "Cn")  # control, surrogate, private use, unassigned
# Format characters (Cf) are invisible: a name of them, or padded with them, looks like
# another. Only the joiners stay (ZWNJ and ZWJ: Persian and emoji need them).
JOINERS = frozenset("\u200c\u200d")
# Characters that draw as nothing though they are letters or symbols (Hangul fillers,
# the blank Braille pattern).
FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def clean_name(value: Any) -> str:
    """A name as shown (docs/protocol.md, *Names and chat text*): every White_Space
    character is a space, runs of them one space, none at the ends; then 1-24 code
    points, no other control character, surrogate, private-use or unassigned code
    point, no bidirectional control, no format character but ZWNJ and ZWJ, no filler."""
    if not isinstance(value, str):
        raise ProtocolError("bad_name", "a name must be a string")
    name = "".join(" " if ch in SPACES else ch for ch in value)
    name = " ".join(part for part in name.split(" ") if part)
    if not name:
        raise ProtocolError("bad_name", "a name may not be empty")
    if len(name) > NAME_MAX:
        raise ProtocolError("bad_name", f"a name may have at most {NAME_MAX} characters")
    if any(unicodedata.category(ch) in _REFUSED or ch in BIDI for ch in name):
        raise ProtocolError("bad_name", "a name may not contain control characters")
    if any(
        (unicodedata.category(ch) == "Cf" and ch not in JOINERS) or ch in FILLERS for ch in name
    ):
        raise ProtocolError("bad_name", "a name may not contain invisible characters")
    return name


DEVICE_MAX = 64


def clean_device(value: Any) -> str | None:
    """A browser's own id (create, join): up to 64 ASCII letters, digits, `-` and `_`;
    anything else is not taken (None), never refused."""
    if not isinstance(value, str) or not 0 < len(value) <= DEVICE_MAX:
        return None
    ok = value.isascii() and all(ch.isalnum() or ch in "-_" for ch in value)
    return value if ok else None


def clean_chat(value: str) -> str:
    """Chat text as stored and shown: line breaks become "\n"; other control characters
    (but tab), surrogates and bidirectional controls are removed; spaces and line breaks
    at the ends are trimmed; then 1-300 code points."""
    text = value.replace("\r\n", "\n")
    text = "".join(
        "\n"
        if ch in LINE_BREAKS
        else ch
        if ch == "\t" or (unicodedata.category(ch) not in ("Cc", "Cs") and ch not in BIDI)
        else ""
        for ch in text
    )
    text = text.strip()
    if not text:
        raise ProtocolError("chat_empty", "chat text is empty")
    if len(text) > CHAT_MAX:
        raise ProtocolError("chat_too_long", f"chat text is over {CHAT_MAX} characters")
    return text


def frame_id(frame: str | bytes) -> Any:
    """The valid `id` of a frame, if it has one (to echo in an error that refuses the
    frame before it is read, e.g. `rate_limited`); None otherwise."""
    try:
        return parse_message(frame).id
    except ProtocolError as exc:
        return exc.msg_id


class RateLimit:
    """A token bucket per connection."""

    def __init__(self, burst: int = RATE_BURST, refill: float = RATE_REFILL) -> None:
        self.burst = burst
        self.refill = refill
        self.tokens = float(burst)
        self.stamp = time.monotonic()
        self.refused_in_row = 0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.refill)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.refused_in_row = 0
            return True
        self.refused_in_row += 1
        return False
