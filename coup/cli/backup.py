"""`coup backup`: a consistent copy of an SQLite database while `coup serve` runs.

SQLite's online backup API (`sqlite3.Connection.backup`) copies the pages of a live
database, in steps, and restarts a step a writer changed under it: the copy is the
database as of one moment, taken without stopping the server (copying the file with
`cp` is not: the write-ahead log holds the latest moves). PostgreSQL has its own tool,
`pg_dump` (docs/deploy.md, *Backups*).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from pathlib import Path

#: Pages copied per step; the server writes between steps.
PAGES_PER_STEP = 1024


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="coup backup", description="Copy a live SQLite database (coup serve may run)."
    )
    p.add_argument(
        "--db",
        default=os.environ.get("COUP_DB", "sqlite:///coup.db"),
        help="sqlite:///FILE, the served database (env COUP_DB; sqlite:///coup.db)",
    )
    p.add_argument("target", help="the copy's file (written anew; a new name each time is best)")
    return p


def backup(source: Path, target: Path) -> int:
    """Copy `source` into `target` with the online backup API; the copy's table count."""
    if target.exists():
        target.unlink()
    partial = target.with_name(target.name + ".partial")
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=10)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst, pages=PAGES_PER_STEP)
            found = dst.execute("PRAGMA integrity_check").fetchone()[0]
            if found != "ok":
                raise sqlite3.DatabaseError(f"the copy fails its integrity check: {found}")
            tables = int(dst.execute("SELECT count(*) FROM coup_tables").fetchone()[0])
        finally:
            dst.close()
    finally:
        src.close()
    partial.replace(target)
    return tables


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    if not args.db.startswith("sqlite:///"):
        print(
            "coup backup: only SQLite; for PostgreSQL use pg_dump (docs/deploy.md, *Backups*)",
            file=sys.stderr,
        )
        return 2
    source = Path(args.db.removeprefix("sqlite:///"))
    if not source.is_file():
        print(f"coup backup: {source}: no such database", file=sys.stderr)
        return 2
    try:
        tables = backup(source, Path(args.target))
    except (sqlite3.Error, OSError) as exc:
        print(f"coup backup: {exc}", file=sys.stderr)
        return 1
    print(f"coup backup: {source} copied to {args.target} ({tables} tables)")
    return 0
