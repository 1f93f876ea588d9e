"""How `coup serve` and `coup worker` log: one line per event on stderr, as text (the
default) or as JSON (`--log-format json`, for a log collector), uvicorn's lines
included. Passwords in URLs never reach the log (`coup.store.urls.shown`)."""

from __future__ import annotations

import json
import logging
import sys
import time

FORMATS = ("text", "json")
TEXT = "%(asctime)s %(levelname)s %(name)s %(message)s"


class JsonLines(logging.Formatter):
    """One JSON object per line: time (UTC, ISO 8601), level, logger, message, and the
    traceback (when there is one) as one string field."""

    def format(self, record: logging.LogRecord) -> str:
        out = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "pid": record.process,
        }
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


class OneLine(logging.Formatter):
    """Text, one line per event: a traceback's lines joined by ` | `."""

    def format(self, record: logging.LogRecord) -> str:
        return super().format(record).replace("\n", " | ")


def configure(form: str = "text", level: int = logging.WARNING) -> None:
    """The root logger's one handler (stderr); uvicorn's loggers pass through it."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines() if form == "json" else OneLine(TEXT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
