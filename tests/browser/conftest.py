"""Fixtures for the browser tests: the real server in a subprocess and Debian's Chromium."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from browser_driver import CHROMIUM, CHROMIUM_ARGS

from tools.load import process


class ServerProcess(process.ServerProcess):
    """`coup serve` with quick bots on an SQLite file in `folder`: a fixed port and
    database, so it can be killed and started again on the same table (the page must
    reconnect and lose nothing)."""

    def __init__(self, folder: Path, *extra: str) -> None:
        db = f"sqlite:///{folder / 'coup.db'}"
        super().__init__(
            db,
            "--bot-delay",
            "0.05,0.15",
            "--no-address-limits",
            *extra,
            log=folder / "server.log",
        )


def _need_chromium() -> None:
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start `coup serve` on a free port with a fresh SQLite file and fast bots."""
    _need_chromium()
    proc = ServerProcess(tmp_path_factory.mktemp("coup-web"))
    proc.start()
    try:
        yield proc.base
    finally:
        proc.stop()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of the test's own, which the test may kill and restart."""
    _need_chromium()
    proc = ServerProcess(tmp_path)
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[object]:
    # Module scope, not session: Playwright's sync API keeps an event loop running in
    # this thread while it is open, and the asyncio tests that run later need none.
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        watched = PolicyWatch(b)
        try:
            yield watched
        finally:
            b.close()
        assert not watched.violations, watched.violations[:10]


class PolicyWatch:
    """The browser, with every page of every test watched for what the page's Content
    Security Policy refused (the console says "Refused to ..." and names the policy):
    no screen may have any (docs/web.md)."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser
        self.violations: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)

    def _watch_page(self, page: Any) -> None:
        def heard(message: Any) -> None:
            text = message.text
            if "Content Security Policy" in text or "Refused to" in text:
                self.violations.append(f"{page.url}: {text}")

        page.on("console", heard)

    def _watch(self, context: Any) -> Any:
        context.on("page", self._watch_page)
        for page in context.pages:
            self._watch_page(page)
        return context

    def new_context(self, *args: Any, **kwargs: Any) -> Any:
        return self._watch(self._browser.new_context(*args, **kwargs))

    def new_page(self, *args: Any, **kwargs: Any) -> Any:
        page = self._browser.new_page(*args, **kwargs)
        self._watch_page(page)
        return page
