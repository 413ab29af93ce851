"""Report runs through workers (SPEC §12 item 5): the human pause and resume from any process.

A worker drives a report run to its human review and lets go of it; `submit_review`, on a
store connection of its own, appends the verdict and queues the run again; a new worker
carries it on from its log. On SQLite and on PostgreSQL (a real server: skipped when it is
unreachable, failed under CI=true, as every PostgreSQL test is).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import anyio
import pytest
from citeloop.events import (
    Answered,
    ReportRules,
    ReviewGiven,
    ReviewRequested,
    UnknownRunError,
    open_queue,
    open_store,
)
from citeloop.policies import DeterministicReviewer, DeterministicWriter
from citeloop.runtime import ReviewNotAwaitedError, check_events, fold, run_worker, submit, submit_review
from helpers.postgres import CompanyOpen, CompanyPolicy, CompanySearch, company_question, company_sentence
from helpers.postgres import postgres_url as postgres_url

pytestmark = pytest.mark.anyio

HUMAN = ReportRules(writer=DeterministicWriter().name, reviewer=DeterministicReviewer().name, review="human")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"  # psycopg's async API is asyncio-only; the SQLite side runs on it too


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/runs.db"
    else:
        yield request.getfixturevalue("postgres_url")  # a fresh schema, dropped afterwards


async def _work_one(url: str, owner: str, claims: list[str]) -> int:
    """A new worker that stops once it is done with one run (ended or waiting)."""
    with anyio.fail_after(60):
        return await run_worker(
            url,
            tools=[CompanySearch(), CompanyOpen()],
            policy=CompanyPolicy(),
            owner=owner,
            poll_seconds=0.02,
            max_runs=1,
            on_claim=claims.append,
            writer=DeterministicWriter(),
            reviewer=DeterministicReviewer(),
        )


async def _submit_report(url: str) -> str:
    tools = [CompanySearch(), CompanyOpen()]
    return await submit(url, company_question(3), tools=tools, policy=CompanyPolicy(), report=HUMAN)


async def test_a_worker_lets_go_of_a_waiting_run_and_a_new_one_finishes_it_after_the_review(
    store_url: str,
) -> None:
    run_id = await _submit_report(store_url)
    claims: list[str] = []
    assert await _work_one(store_url, "w1", claims) == 1
    async with open_store(store_url) as store, open_queue(store) as queue:
        waiting = await store.read(run_id)
        assert isinstance(waiting[-1], ReviewRequested)
        assert fold(waiting).status == "waiting"
        # Released as finished: out of the queue, so no worker spins on it.
        assert await queue.queued() == []
        assert await queue.claim("probe", timedelta(seconds=30)) is None

        await submit_review(store_url, run_id, "ACCEPT", by="ana")  # a store connection of its own
        assert await queue.queued() == [run_id]
        verdict = (await store.read(run_id))[-1]
        assert isinstance(verdict, ReviewGiven) and verdict.verdict == "ACCEPT" and verdict.by == "human:ana"

    assert await _work_one(store_url, "w2", claims) == 1
    assert claims == [run_id, run_id]
    async with open_store(store_url) as store, open_queue(store) as queue:
        events = await store.read(run_id)
        assert await queue.queued() == []
    answered = events[-1]
    assert isinstance(answered, Answered) and company_sentence(3) in answered.evidence
    assert fold(events).status == "answered"
    checked = check_events(events)
    assert checked.ok, checked.divergences
    with pytest.raises(ReviewNotAwaitedError):  # an ended run takes no verdict
        await submit_review(store_url, run_id, "ACCEPT")


async def test_a_revise_through_the_queue_brings_a_new_draft_and_another_pause(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/runs.db"
    run_id = await _submit_report(url)
    claims: list[str] = []
    await _work_one(url, "w1", claims)
    await submit_review(url, run_id, "REVISE", notes="say where it was founded")
    await _work_one(url, "w2", claims)
    async with open_store(url) as store, open_queue(store) as queue:
        events = await store.read(run_id)
        assert await queue.queued() == []
    assert [e.type for e in events].count("DraftWritten") == 2
    assert isinstance(events[-1], ReviewRequested) and events[-1].draft == 2
    assert check_events(events).ok


async def test_a_verdict_for_a_run_that_waits_for_none_queues_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/runs.db"
    run_id = await _submit_report(url)  # queued, not yet researched: it waits for no review
    with pytest.raises(ReviewNotAwaitedError):
        await submit_review(url, run_id, "ACCEPT")
    with pytest.raises(UnknownRunError):
        await submit_review(url, "no-such-run", "ACCEPT")
    async with open_store(url) as store, open_queue(store) as queue:
        assert len(await store.read(run_id)) == 1
        assert await queue.queued() == [run_id]
