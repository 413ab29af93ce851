"""The worker fault test: 4 worker processes, 200 runs in flight, SIGKILL a random worker >= 10 times.

Every run must reach exactly one terminal event, no `seq` may have a gap, and no call may
be dispatched twice (per call id, and per tool and input). Killed workers are respawned;
their runs are resumed by others once their leases (2 s here) run out.

The test drives the processes and reads the log on asyncio (psycopg's async API is
asyncio-only). This file is also the worker process: `python test_worker_faults.py URL DIR`.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import anyio
import pytest

WORKERS = 4
RUNS = 200
KILLS = 10
LEASE_SECONDS = 2.0
CONCURRENCY = 6  # per worker: 24 runs in flight at once
TOOL_LATENCY = (0.3, 0.9)  # seconds per tool call, so that kills land mid-run


def _worker_main(url: str, folder: Path) -> None:
    """One worker process: drive queued runs until killed, noting each claim and tool call."""
    from citeloop.runtime import run_worker
    from helpers.postgres import CompanyOpen, CompanyPolicy, CompanySearch

    pid = os.getpid()
    notes = (folder / f"notes-{pid}.txt").open("a", buffering=1)

    class Noted(list[str]):
        def append(self, item: str) -> None:
            notes.write(f"call\t{item}\n")

    calls = Noted()
    tools = [CompanySearch(TOOL_LATENCY, calls), CompanyOpen(TOOL_LATENCY, calls)]

    async def main() -> None:
        await run_worker(
            url,
            tools=tools,
            policy=CompanyPolicy(),
            concurrency=CONCURRENCY,
            lease_seconds=LEASE_SECONDS,
            poll_seconds=0.1,
            on_claim=lambda run_id: notes.write(f"claim\t{run_id}\n"),
        )

    anyio.run(main, backend="asyncio")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the shared `helpers` package
    _worker_main(sys.argv[1], Path(sys.argv[2]))
    sys.exit(0)


from citeloop.events import (  # noqa: E402
    Abstained,
    Answered,
    PostgresStore,
    ToolDispatched,
    ToolObserved,
    open_queue,
    open_store,
)
from citeloop.runtime import submit  # noqa: E402
from helpers.postgres import company_question  # noqa: E402 (the worker process above needs none of this)
from helpers.postgres import postgres_url as postgres_url  # noqa: E402

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


@pytest.fixture
def anyio_backend() -> str:
    # psycopg's async API is asyncio-only (see the module docstring).
    return "asyncio"


def _spawn(url: str, folder: Path) -> subprocess.Popen[bytes]:
    with (folder / "workers.log").open("ab") as log:
        return subprocess.Popen(
            [sys.executable, __file__, url, str(folder)], stdout=log, stderr=subprocess.STDOUT, cwd=folder
        )


def _has_claimed(worker: subprocess.Popen[bytes], folder: Path) -> bool:
    """Whether the worker process is up and driving runs (killing one still importing proves nothing)."""
    notes = folder / f"notes-{worker.pid}.txt"
    return notes.exists() and "claim\t" in notes.read_text()


def _claims(folder: Path) -> Counter[str]:
    return Counter(
        line.split("\t")[1].strip()
        for notes in folder.glob("notes-*.txt")
        for line in notes.read_text().splitlines()
        if line.startswith("claim\t")
    )


@pytest.mark.anyio
async def test_killed_workers_lose_no_run_and_repeat_no_dispatch(postgres_url: str, tmp_path: Path) -> None:
    from helpers.postgres import CompanyOpen, CompanyPolicy, CompanySearch

    store = open_store(postgres_url)
    assert isinstance(store, PostgresStore)
    rng = random.Random(7)
    workers: list[subprocess.Popen[bytes]] = []
    kills = 0
    try:
        async with store, open_queue(store) as queue:
            tools = [CompanySearch(), CompanyOpen()]
            run_ids = [
                await submit(store, company_question(k), tools=tools, policy=CompanyPolicy())
                for k in range(RUNS)
            ]
            workers = [_spawn(postgres_url, tmp_path) for _ in range(WORKERS)]
            with anyio.fail_after(110):
                while kills < KILLS:
                    await anyio.sleep(rng.uniform(0.4, 1.0))
                    busy = [i for i, w in enumerate(workers) if _has_claimed(w, tmp_path)]
                    if not busy:
                        continue
                    victim = rng.choice(busy)
                    workers[victim].send_signal(signal.SIGKILL)
                    workers[victim].wait()
                    kills += 1
                    workers[victim] = _spawn(postgres_url, tmp_path)
                unfinished = len(await queue.queued())
                while await queue.queued():  # noqa: ASYNC110 (the queue lives in the server: poll it)
                    await anyio.sleep(0.2)

            dispatched_twice = []
            for run_id in run_ids:
                events = await store.read(run_id)
                assert [e.seq for e in events] == list(range(len(events))), f"{run_id}: seq gap"
                terminal = [e for e in events if isinstance(e, Answered | Abstained)]
                assert len(terminal) == 1 and terminal[0] is events[-1], f"{run_id}: no single terminal event"
                calls = [e for e in events if isinstance(e, ToolDispatched)]
                per_call = Counter(d.call_id for d in calls)
                per_input = Counter((d.tool, d.input) for d in calls)
                dispatched_twice += [(run_id, k) for k, n in (per_call | per_input).items() if n > 1]
                observed = {e.call_id for e in events if isinstance(e, ToolObserved) and e.call_id}
                assert observed == set(per_call), f"{run_id}: a dispatch was never settled"
                assert isinstance(events[-1], Answered), f"{run_id}: {events[-1]}"
            assert dispatched_twice == []
    finally:
        for worker in workers:
            worker.kill()
            worker.wait()

    claims = _claims(tmp_path)
    taken_over = sum(1 for n in claims.values() if n > 1)
    print(f"kills={kills} runs={RUNS} taken_over={taken_over} unfinished_at_last_kill={unfinished}")
    assert kills >= KILLS
    assert set(claims) == set(run_ids)
    # The kills landed on work in flight: some runs were resumed by another worker.
    assert taken_over >= 3, f"only {taken_over} runs were taken over: the kills missed the work"
