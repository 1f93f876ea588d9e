"""Fixtures of the workers' tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from coup.work.pool import LocalPool
from tests.server.test_server_coach_queue import database, reader  # noqa: F401 - a test's own database


@pytest.fixture
async def pool() -> AsyncIterator[LocalPool]:
    p = LocalPool(1, coach_processes=0)
    await p.start(wait=True)
    yield p
    await p.stop()
