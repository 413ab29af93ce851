"""Workers on one machine: the same `submit` and `run_worker` on an SQLite store, on asyncio and trio."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from citeloop.events import Answered, MemoryStore, UsageError, open_queue, open_store
from citeloop.runtime import run_worker, submit
from helpers.postgres import CompanyOpen, CompanyPolicy, CompanySearch, company_question, company_sentence


@pytest.mark.anyio
async def test_two_workers_drain_an_sqlite_queue(tmp_path: Path) -> None:
    """Ten submitted runs, two workers on their own store objects: each run claimed once and answered."""
    url = f"sqlite:///{tmp_path}/runs.db"
    tools = [CompanySearch(), CompanyOpen()]
    run_ids = [await submit(url, company_question(k), tools=tools, policy=CompanyPolicy()) for k in range(10)]
    claims: list[str] = []
    finished: list[int] = []
    stop = anyio.Event()

    async def worker(name: str) -> None:
        finished.append(
            await run_worker(
                url, tools=tools, policy=CompanyPolicy(), concurrency=3, owner=name, poll_seconds=0.02,
                stop=stop, on_claim=claims.append,
            )
        )

    async with open_store(url) as store, open_queue(store) as queue:
        async with anyio.create_task_group() as tg:
            tg.start_soon(worker, "w1")
            tg.start_soon(worker, "w2")
            with anyio.fail_after(60):
                while await queue.queued():  # noqa: ASYNC110 (the queue lives in the file: poll it)
                    await anyio.sleep(0.02)
            stop.set()
        assert sorted(claims) == sorted(run_ids)
        assert sum(finished) == 10
        for k, run_id in enumerate(run_ids):
            last = (await store.read(run_id))[-1]
            assert isinstance(last, Answered) and last.evidence == company_sentence(k)


@pytest.mark.anyio
async def test_a_store_without_a_queue_is_a_usage_error() -> None:
    async with MemoryStore() as store:
        with pytest.raises(UsageError, match="no run queue"):
            await submit(store, "Who?", tools=[], policy=CompanyPolicy())
        with pytest.raises(UsageError, match="no run queue"):
            await run_worker("memory://", tools=[], policy=CompanyPolicy())
