"""The PostgreSQL store: the shared conformance suite, unchanged, plus what only PostgreSQL has.

psycopg's async API is asyncio-only, so these tests run on asyncio only (the module
overrides the `anyio_backend` fixture); one test checks that trio gets a clear UsageError.
Each test gets its own schema (tests/_postgres.py), dropped afterwards.
"""

from __future__ import annotations

import pytest
from _postgres import postgres_url as postgres_url
from citeloop.events import open_store
from citeloop.events.testing import Check, StoreHarness, conformance_checks

pytestmark = pytest.mark.postgres


@pytest.fixture
def anyio_backend() -> str:
    # psycopg's async API is asyncio-only (see the module docstring).
    return "asyncio"


@pytest.fixture
def harness(postgres_url: str) -> StoreHarness:
    return StoreHarness(lambda: open_store(postgres_url))


@pytest.mark.anyio
@pytest.mark.parametrize("check", conformance_checks(), ids=lambda c: c.__name__.removeprefix("check_"))
async def test_store_conforms(harness: StoreHarness, check: Check) -> None:
    await check(harness)
