"""The shipped conformance suite (citeloop.events.testing) on every embedded store, asyncio and trio."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from citeloop.events import (
    Abstained,
    ActionParsed,
    ConcurrencyError,
    EventStore,
    MemoryStore,
    StoreUnavailableError,
    StoreURLError,
    open_store,
)
from citeloop.events.testing import (
    EPOCH,
    Check,
    StoreHarness,
    conformance_checks,
    make_run_started,
    make_step,
)

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


@pytest.mark.anyio
async def test_two_sqlite_stores_on_one_file_race_like_two_processes(tmp_path: Path) -> None:
    """Two store objects (own connections, one at full durability, committing in a worker thread)
    race for the same run: the seq check happens inside the write transaction, not in a cache."""
    url = f"sqlite:///{tmp_path}/shared.db"
    async with open_store(url) as first, open_store(url + "?synchronous=full") as second:
        await first.append("shared", [make_run_started("shared")], 0)
        wins: dict[int, int] = {}

        async def writer(store: EventStore, name: int) -> None:
            while True:
                head = len(await store.read("shared"))
                if head >= 80:
                    return
                try:
                    await store.append("shared", [make_step("shared", head, f"store {name}")], head)
                except ConcurrencyError:
                    continue
                assert head not in wins, f"seq {head} won twice"
                wins[head] = name

        with anyio.fail_after(60):
            async with anyio.create_task_group() as tg:
                for name, store in enumerate((first, second, first, second)):
                    tg.start_soon(writer, store, name % 2)
        log = await second.read("shared")
        assert [e.seq for e in log] == list(range(80))
        assert set(wins) == set(range(1, 80))  # (which store wins is up to scheduling)
        for event in log[1:]:
            assert isinstance(event, ActionParsed) and event.thought == f"store {wins[event.seq]}"
        # A subscriber on one object sees what the other appended (by polling the file).
        with anyio.fail_after(60):
            async with anyio.create_task_group() as tg:
                seen: list[int] = []

                async def follow() -> None:
                    seen.extend(e.seq for e in [e async for e in first.subscribe("shared", after=77)])

                tg.start_soon(follow)
                await anyio.sleep(0.01)
                await second.append("shared", [_abstained("shared", 80)], 80)
        assert seen == [78, 79, 80]


def _abstained(run_id: str, seq: int) -> Abstained:
    return Abstained(run_id=run_id, seq=seq, at=EPOCH, step=seq, reason="budget", answer="cannot: budget")


@pytest.mark.parametrize("scheme", ["sqlite", "jsonl"])
def test_unusable_files_give_one_clear_line(tmp_path: Path, scheme: str) -> None:
    missing_dir = f"{scheme}:///{tmp_path}/no/such/dir/store"
    with pytest.raises(StoreUnavailableError) as info:
        open_store(missing_dir)
    assert "\n" not in str(info.value) and "no/such/dir" in str(info.value)
    if scheme == "sqlite":
        garbage = tmp_path / "garbage.db"
        garbage.write_bytes(b"this is not a database at all\n" * 200)
        with pytest.raises(StoreUnavailableError, match=r"garbage\.db") as info:
            open_store(f"sqlite:///{garbage}")
        assert "\n" not in str(info.value)


def test_unknown_url_options_are_usage_errors(tmp_path: Path) -> None:
    with pytest.raises(StoreURLError):
        open_store(f"sqlite:///{tmp_path}/x.db?synchronous=sometimes")
    with pytest.raises(StoreURLError):
        open_store(f"sqlite:///{tmp_path}/x.db?journal=off")
    with pytest.raises(StoreURLError):
        open_store(f"jsonl:///{tmp_path}/x.jsonl?fsync=no")
