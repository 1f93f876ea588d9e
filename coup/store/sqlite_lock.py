"""One `coup serve` per SQLite file: the process that serves a file holds an exclusive
lock on `FILE.lock` beside it for as long as it runs (the system lets go of it when the
process ends, even by kill -9). A second one is refused at start with one line saying
why, as is a path that names a directory or a folder that does not exist: SQLite has
one writer, and the serving process runs the timers and drops the connection rows of
an earlier run as its own (docs/deploy.md).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO


def sqlite_path(url: str) -> Path | None:
    """The file of a `sqlite:///FILE` URL (None for another database or `:memory:`)."""
    for prefix in ("sqlite:///", "sqlite+aiosqlite:///"):
        if url.startswith(prefix):
            name = url[len(prefix) :].split("?", 1)[0]
            return None if name in ("", ":memory:") else Path(name)
    return None


def hold(url: str) -> IO[bytes] | None:
    """Lock the URL's SQLite file for this process (keep the answer as long as it
    serves); ValueError with the path and the reason when it cannot be served."""
    path = sqlite_path(url)
    if path is None:
        return None
    if path.is_dir():
        raise ValueError(f"{path} is a directory, not a database file (--db sqlite:///FILE)")
    if not path.parent.is_dir():
        raise ValueError(f"{path}: the folder {path.parent} does not exist")
    lock = Path(f"{path}.lock")
    try:
        handle = lock.open("ab")
    except OSError as e:
        raise ValueError(f"{path}: cannot open {lock}: {e.strerror}") from None
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise ValueError(
            f"{path} is served by another coup serve (it holds {lock}); one process per "
            "SQLite file (several processes: PostgreSQL, docs/deploy.md)"
        ) from None
    os.set_inheritable(handle.fileno(), False)
    return handle
