"""Fixtures of the workers' tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from coup.work.pool import LocalPool
from tests.server.conftest import database  # noqa: F401 - SQLite or a fresh PostgreSQL
from tests.server.test_server_coach_queue import reader  # noqa: F401 - the test's own look at the store


@pytest.fixture
async def pool() -> AsyncIterator[LocalPool]:
    p = LocalPool(1, coach_processes=0)
    await p.start(wait=True)
    yield p
    await p.stop()
