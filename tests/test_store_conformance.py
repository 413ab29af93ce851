"""The shipped conformance suite (citeloop.events.testing) on every embedded store, asyncio and trio."""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.events import MemoryStore, open_store
from citeloop.events.testing import Check, StoreHarness, conformance_checks

STORES = ("memory", "jsonl", "sqlite", "sqlite-full")


@pytest.fixture(params=STORES)
def harness(request: pytest.FixtureRequest, tmp_path: Path) -> StoreHarness:
    kind = request.param
    if kind == "memory":
        return StoreHarness(MemoryStore, persistent=False)
    url = {
        "jsonl": f"jsonl:///{tmp_path}/log.jsonl",
        "sqlite": f"sqlite:///{tmp_path}/runs.db",
        "sqlite-full": f"sqlite:///{tmp_path}/runs.db?synchronous=full",
    }[kind]
    return StoreHarness(lambda: open_store(url))


@pytest.mark.anyio
@pytest.mark.parametrize("check", conformance_checks(), ids=lambda c: c.__name__.removeprefix("check_"))
async def test_store_conforms(harness: StoreHarness, check: Check) -> None:
    if check not in conformance_checks(harness):
        pytest.skip("the memory store forgets everything on close: nothing to reopen")
    await check(harness)
