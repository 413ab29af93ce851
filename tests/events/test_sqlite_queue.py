"""The SQLite run queue: the queue tier of the conformance suite on asyncio and trio, plus what
only a shared file has (claims racing across processes, a lease clock we can move)."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import anyio
import pytest
from citeloop.events import LeaseLostError, MemoryStore, UsageError, open_queue, open_store
from citeloop.events._sqlite import SqliteStore
from citeloop.events._sqlite_queue import SqliteQueue
from citeloop.events.testing import QueueCheck, QueueHarness, make_run_started, queue_checks


@pytest.mark.anyio
@pytest.mark.parametrize("check", queue_checks(), ids=lambda c: c.__name__.removeprefix("check_"))
@pytest.mark.parametrize("synchronous", ["normal", "full"])
async def test_queue_conforms(tmp_path: Path, check: QueueCheck, synchronous: str) -> None:
    url = f"sqlite:///{tmp_path}/runs.db?synchronous={synchronous}"
    await check(QueueHarness(lambda: open_store(url)))


class _Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.anyio
async def test_lease_expiry_and_loss_follow_the_clock(tmp_path: Path) -> None:
    """With the queue's clock in hand: a lease holds until its end, then passes on, and the
    first holder's renewal raises LeaseLostError."""
    clock = _Clock()
    async with SqliteStore(tmp_path / "q.db") as store, SqliteQueue(store, clock=clock) as queue:
        await queue.enqueue(make_run_started("r1"))
        assert await queue.claim("w1", timedelta(seconds=10)) == "r1"
        clock.now += 9.9
        assert await queue.claim("w2", timedelta(seconds=10)) is None  # still w1's
        await queue.renew("r1", "w1", timedelta(seconds=10))  # now until +19.9
        clock.now += 10.0
        assert await queue.claim("w2", timedelta(seconds=10)) is None
        clock.now += 0.2
        assert await queue.claim("w2", timedelta(seconds=10)) == "r1"
        with pytest.raises(LeaseLostError) as info:
            await queue.renew("r1", "w1", timedelta(seconds=10))
        assert info.value.run_id == "r1"
        clock.now += 20
        with pytest.raises(LeaseLostError):  # an expired lease is not renewed, even unclaimed
            await queue.renew("r1", "w2", timedelta(seconds=10))


_CLAIMER = """
import sys, time, anyio
from datetime import timedelta
from pathlib import Path
from citeloop.events import open_queue, open_store

async def main() -> None:
    async with open_store(sys.argv[1]) as store, open_queue(store) as queue:
        Path(f"ready-{sys.argv[2]}").touch()
        while not Path("go").exists():  # every claimer starts together
            time.sleep(0.005)
        while (run_id := await queue.claim(sys.argv[2], timedelta(seconds=60))) is not None:
            print(run_id, flush=True)

anyio.run(main)
"""


def test_claims_are_exclusive_across_processes(tmp_path: Path) -> None:
    """Four processes drain one queue file at once: every run is claimed exactly once."""
    url = f"sqlite:///{tmp_path}/shared.db"
    run_ids = [f"run-{i:03d}" for i in range(100)]

    async def fill() -> None:
        async with open_store(url) as store, open_queue(store) as queue:
            for run_id in run_ids:
                await queue.enqueue(make_run_started(run_id))

    anyio.run(fill)
    claimers = [
        subprocess.Popen(
            [sys.executable, "-c", _CLAIMER, url, f"p{n}"], stdout=subprocess.PIPE, text=True, cwd=tmp_path
        )
        for n in range(4)
    ]
    deadline = time.monotonic() + 60
    while len(list(tmp_path.glob("ready-*"))) < len(claimers):
        assert time.monotonic() < deadline and all(c.poll() is None for c in claimers), "a claimer failed"
        time.sleep(0.01)
    (tmp_path / "go").touch()
    outputs = [claimer.communicate(timeout=120)[0].split() for claimer in claimers]
    assert all(claimer.returncode == 0 for claimer in claimers)
    claimed = [run_id for output in outputs for run_id in output]
    assert sorted(claimed) == run_ids, "a run was claimed twice, or not at all"
    assert sum(1 for output in outputs if output) >= 2, "only one process claimed anything: no race"


@pytest.mark.anyio
async def test_stores_without_a_queue_say_so(tmp_path: Path) -> None:
    """Memory and JSONL stores have no queue (one process each): a UsageError naming the way out."""
    async with MemoryStore() as memory, open_store(f"jsonl:///{tmp_path}/log.jsonl") as jsonl:
        for store in (memory, jsonl):
            with pytest.raises(UsageError, match=r"sqlite://.*postgresql://"):
                open_queue(store)


@pytest.mark.anyio
async def test_closing_the_queue_leaves_the_store_open(tmp_path: Path) -> None:
    async with open_store(f"sqlite:///{tmp_path}/runs.db") as store:
        async with open_queue(store) as queue:
            await queue.enqueue(make_run_started("kept"))
        await queue.aclose()  # idempotent
        assert [e.run_id for e in await store.read("kept")] == ["kept"]
        async with open_queue(store) as again:
            assert await again.queued() == ["kept"]
