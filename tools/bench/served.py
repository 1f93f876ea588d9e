"""Which page a running server serves: a short hash of its HTML as served (with the files'
version and the preloads the server writes in). The page benchmarks print it beside each
URL and warn when two URLs they compare serve the same page: two servers of one tree.

That is easy to get without seeing it: `python -m` puts the folder it runs in first on
the module path, ahead of `PYTHONPATH`, so `PYTHONPATH=<other tree> python -m coup serve`
run from this checkout serves this checkout's code. Start each server from its own tree
(`cd <tree> && python -m coup serve ...`).
"""

from __future__ import annotations

import hashlib
import sys

import httpx


def page_hash(url: str) -> str:
    return hashlib.sha256(httpx.get(url, timeout=30).content).hexdigest()[:12]


def warn_if_same(pages: dict[str, str]) -> None:
    """`pages`: URL → `page_hash`. A warning on stderr for each URL whose page another
    URL serves too."""
    seen: dict[str, str] = {}
    for url, digest in pages.items():
        if digest in seen:
            print(
                f"warning: {url} serves the same page as {seen[digest]} ({digest}): "
                "one tree twice? (start each server from its own tree)",
                file=sys.stderr,
            )
        seen.setdefault(digest, url)
