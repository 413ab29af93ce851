"""Workers on PostgreSQL, in one process: submit, claim with a lease, resume after a dead worker.

(The same worker on SQLite: tests/runtime/test_sqlite_workers.py.)

psycopg's async API is asyncio-only, so these tests run on asyncio only. The fault test
with real processes and SIGKILL is tests/runtime/test_worker_faults.py.
"""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta

import anyio
import pytest
from citeloop.events import (
    Abstained,
    ActionParsed,
    Answered,
    CallTool,
    Event,
    Observation,
    PolicyReply,
    PostgresStore,
    RunQueue,
    ToolDispatched,
    ToolObserved,
    open_queue,
    open_store,
)
from citeloop.runtime import LeaseLostError, run_worker, submit
from citeloop.runtime._leases import LeaseBook, LeasedStore
from helpers.postgres import CompanyOpen, CompanyPolicy, CompanySearch, company_question, company_sentence
from helpers.postgres import postgres_url as postgres_url

pytestmark = pytest.mark.postgres


@pytest.fixture
def anyio_backend() -> str:
    # psycopg's async API is asyncio-only (see the module docstring).
    return "asyncio"


def _store(url: str) -> PostgresStore:
    store = open_store(url)
    assert isinstance(store, PostgresStore)
    return store


def _check_log(events: list[Event]) -> None:
    """A finished run: gapless seqs, one terminal event at the end, no call dispatched twice."""
    assert [e.seq for e in events] == list(range(len(events)))
    assert isinstance(events[-1], Answered | Abstained)
    assert sum(isinstance(e, Answered | Abstained) for e in events) == 1
    dispatched = [e for e in events if isinstance(e, ToolDispatched)]
    assert len({d.call_id for d in dispatched}) == len(dispatched)
    assert len({(d.tool, d.input) for d in dispatched}) == len(dispatched)
    observed = {e.call_id for e in events if isinstance(e, ToolObserved) and e.call_id}
    assert observed == {d.call_id for d in dispatched}


async def _wait_until_drained(queue: RunQueue, stop: anyio.Event) -> None:
    with anyio.fail_after(60):
        while await queue.queued():  # noqa: ASYNC110 (the queue lives in the server: poll it)
            await anyio.sleep(0.1)
    stop.set()


class _StuckSearch:
    """A search that never returns: it says when it starts, then waits to be cancelled."""

    name = "search"
    read_only = True

    def __init__(self, started: anyio.Event) -> None:
        self._started = started

    async def __call__(self, argument: str) -> Observation:
        self._started.set()
        await anyio.sleep_forever()
        raise AssertionError("unreachable")


@pytest.mark.anyio
async def test_workers_share_the_queue_and_finish_every_run(postgres_url: str) -> None:
    """Two workers drain 30 submitted runs; each run is claimed once and answered with its page."""
    tools = [CompanySearch((0.0, 0.02)), CompanyOpen((0.0, 0.02))]
    async with _store(postgres_url) as store, open_queue(store) as queue:
        run_ids = [
            await submit(store, company_question(k), tools=tools, policy=CompanyPolicy()) for k in range(30)
        ]
        claims: list[str] = []
        stop = anyio.Event()
        finished: list[int] = []

        async def worker(name: str) -> None:
            finished.append(
                await run_worker(
                    store, tools=tools, policy=CompanyPolicy(), concurrency=4, owner=name,
                    poll_seconds=0.05, stop=stop, on_claim=claims.append,
                )
            )

        async with anyio.create_task_group() as tg:
            tg.start_soon(worker, "w1")
            tg.start_soon(worker, "w2")
            tg.start_soon(_wait_until_drained, queue, stop)
        assert sorted(claims) == sorted(run_ids)  # each claimed exactly once
        assert sum(finished) == 30
        for k, run_id in enumerate(run_ids):
            events = await store.read(run_id)
            _check_log(events)
            assert isinstance(events[-1], Answered)
            assert events[-1].evidence == company_sentence(k)


@pytest.mark.anyio
async def test_a_dead_workers_run_is_resumed_without_dispatching_again(postgres_url: str) -> None:
    """A worker died after dispatching a read-only call: once its lease expires, another resumes."""
    search_calls: list[str] = []
    tools = [CompanySearch(calls=search_calls), CompanyOpen()]
    async with _store(postgres_url) as store, open_queue(store) as queue:
        run_id = await submit(store, company_question(7), tools=tools, policy=CompanyPolicy())
        # The dead worker: it claimed the run, recorded its first step and dispatch, then vanished.
        assert await queue.claim("dead", timedelta(seconds=1)) == run_id
        at = datetime.now(UTC)
        question = company_question(7)
        await store.append(
            run_id,
            [
                ActionParsed(
                    run_id=run_id, seq=1, at=at, step=0, reply=PolicyReply(text="scripted"), thought="look",
                    action=CallTool(tool="search", input=question),
                ),
                ToolDispatched(
                    run_id=run_id, seq=2, at=at, step=0, call_id="c2", tool="search", input=question,
                    read_only=True,
                ),
            ],
            1,
        )
        stop = anyio.Event()
        started = anyio.current_time()
        async with anyio.create_task_group() as tg:
            tg.start_soon(_wait_until_drained, queue, stop)
            await run_worker(store, tools=tools, policy=CompanyPolicy(), poll_seconds=0.05, stop=stop)
        assert anyio.current_time() - started >= 0.5  # it waited for the lease to run out
        events = await store.read(run_id)
        _check_log(events)
        assert isinstance(events[-1], Answered)
        # The read-only search was run again (docs/events.md) but dispatched only once, by the dead worker.
        assert search_calls == [f"search\t{question}"]
        assert [e.seq for e in events if isinstance(e, ToolDispatched) and e.tool == "search"] == [2]


@pytest.mark.anyio
async def test_a_stopping_worker_lets_go_instead_of_abstaining(postgres_url: str) -> None:
    """Stopping a worker mid-run releases the run; the next worker finishes it."""
    searching = anyio.Event()
    slow = [_StuckSearch(searching), CompanyOpen()]
    fast = [CompanySearch(), CompanyOpen()]
    async with _store(postgres_url) as store, open_queue(store) as queue:
        run_id = await submit(store, company_question(3), tools=fast, policy=CompanyPolicy())
        stop = anyio.Event()
        async with anyio.create_task_group() as tg:
            tg.start_soon(
                lambda: run_worker(store, tools=slow, policy=CompanyPolicy(), stop=stop, poll_seconds=0.05)
            )
            with anyio.fail_after(10):
                await searching.wait()  # the search is in flight
            stop.set()
        events = await store.read(run_id)
        assert not any(isinstance(e, Abstained) for e in events)
        assert await queue.claim("next", timedelta(seconds=5)) == run_id  # released, not left to expire
        await queue.release(run_id, "next", finished=False)
        stop = anyio.Event()
        async with anyio.create_task_group() as tg:
            tg.start_soon(_wait_until_drained, queue, stop)
            await run_worker(store, tools=fast, policy=CompanyPolicy(), stop=stop, poll_seconds=0.05)
        events = await store.read(run_id)
        _check_log(events)
        assert isinstance(events[-1], Answered)


@pytest.mark.anyio
async def test_leased_store_refuses_runs_not_held(postgres_url: str) -> None:
    """Without a live lease, an append is refused before it reaches the server."""
    async with _store(postgres_url) as store:
        run_id = f"r-{uuid.uuid4().hex[:8]}"
        book = LeaseBook(ttl=0.2)
        leased = LeasedStore(store, book)
        from citeloop.events.testing import make_run_started, make_step

        with pytest.raises(LeaseLostError):
            await leased.append(run_id, [make_run_started(run_id)], 0)
        book.granted(run_id, anyio.current_time())
        await leased.append(run_id, [make_run_started(run_id)], 0)
        book.granted(run_id, anyio.current_time() - book.ttl)  # a grant whose local deadline has passed
        with pytest.raises(LeaseLostError):
            await leased.append(run_id, [make_step(run_id, 1)], 1)
        assert Counter(e.seq for e in await store.read(run_id)) == {0: 1}
