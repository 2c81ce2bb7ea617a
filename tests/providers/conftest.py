"""Fixtures for provider tests."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from provider_kit import SleepRecorder, SSEServer


@pytest.fixture
async def server() -> AsyncIterator[SSEServer]:
    srv = SSEServer()
    await srv.start()
    try:
        yield srv
    finally:
        await srv.stop()


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(timeout=httpx.Timeout(5.0)) as c:
        yield c


@pytest.fixture
def sleeps() -> SleepRecorder:
    return SleepRecorder()
