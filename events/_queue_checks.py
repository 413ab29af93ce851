"""The queue tier of the conformance suite: the `RunQueue` contract, run against every queue.

A check is an async function taking a `QueueHarness`. Unlike the log tier, a queue check
needs the queue to itself (a claim takes the oldest free run, whoever queued it), so
`harness.open()` must start on an empty database or schema for each check; every check
asserts it does. Waits for a lease to run out poll with a condition, under a guard.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Final

import anyio

from ._conformance_kit import (
    _GUARD_SECONDS,
    _abstained,
    _expect_failure,
    _run_id,
    make_run_started,
    make_step,
)
from ._errors import ConcurrencyError, LeaseLostError, RunClosedError, UsageError
from ._open import open_queue
from ._queue import RunQueue
from ._store import EventStore

_HELD: Final = timedelta(seconds=60)  # a lease that outlives any check
_SHORT: Final = timedelta(milliseconds=50)  # a lease meant to run out


@dataclass(frozen=True)
class QueueHarness:
    """How the queue tier opens the store and queue under test.

    `open()` returns a store on the database under test; every call must reach the
    *same* database (two calls act like two processes). `queue(store)` opens that
    store's queue (by default `open_queue`).
    """

    open: Callable[[], EventStore]
    queue: Callable[[EventStore], RunQueue] = open_queue


QueueCheck = Callable[[QueueHarness], Awaitable[None]]


@asynccontextmanager
async def _opened(harness: QueueHarness) -> AsyncGenerator[tuple[EventStore, RunQueue], None]:
    async with harness.open() as store, harness.queue(store) as queue:
        yield store, queue


async def _fresh(queue: RunQueue) -> None:
    leftover = await queue.queued()
    assert leftover == [], f"the queue tier needs an empty queue per check, found {leftover[:3]}"


async def _claim_within_guard(queue: RunQueue, owner: str, ttl: timedelta) -> str:
    """Claim, polling until a run is free (a short lease running out), within the guard."""
    with anyio.fail_after(_GUARD_SECONDS):
        while (run_id := await queue.claim(owner, ttl)) is None:  # noqa: ASYNC110 (a lease runs out in the database)
            await anyio.sleep(0.01)
    return run_id


async def check_enqueue_appends_and_queues(harness: QueueHarness) -> None:
    """`enqueue` puts the RunStarted in the log and the run in the queue; a second start is refused."""
    async with _opened(harness) as (store, queue):
        await _fresh(queue)
        run_id = _run_id("enqueue")
        started = make_run_started(run_id)
        await queue.enqueue(started)
        assert await store.read(run_id) == [started]
        assert await queue.queued() == [run_id]
        assert [s.status for s in await store.runs() if s.run_id == run_id] == ["running"]
        await _expect_failure(ConcurrencyError, queue.enqueue(started), "enqueue of a started run")
        other = _run_id("usage")
        await _expect_failure(
            UsageError, queue.enqueue(make_run_started(other).model_copy(update={"seq": 1})), "seq 1"
        )
        assert await store.read(other) == []
        assert await queue.queued() == [run_id]


async def check_claims_go_oldest_first_to_one_owner(harness: QueueHarness) -> None:
    """Runs are claimed oldest first, each by one owner, also across two queue objects racing."""
    async with _opened(harness) as (_, one), _opened(harness) as (_, two):
        await _fresh(one)
        first = [_run_id(f"order{i}") for i in range(3)]
        for run_id in first:
            await one.enqueue(make_run_started(run_id))
        assert await two.claim("w1", _HELD) == first[0]
        assert await one.claim("w2", _HELD) == first[1]
        assert await two.claim("w1", _HELD) == first[2]
        assert await one.claim("w3", _HELD) is None

        racing = [_run_id(f"race{i}") for i in range(24)]
        for run_id in racing:
            await two.enqueue(make_run_started(run_id))
        claimed: list[str] = []

        async def claimer(queue: RunQueue, owner: str) -> None:
            while (run_id := await queue.claim(owner, _HELD)) is not None:
                claimed.append(run_id)

        with anyio.fail_after(_GUARD_SECONDS):
            async with anyio.create_task_group() as tg:
                for n in range(8):
                    tg.start_soon(claimer, (one, two)[n % 2], f"racer{n}")
        assert sorted(claimed) == sorted(racing), "a run was claimed twice, or not at all"
        assert await one.queued() == [*first, *racing]  # held runs are still queued


async def check_lease_runs_out_and_renewal_then_fails(harness: QueueHarness) -> None:
    """A held run is not claimable; once its lease runs out another owner claims it, and the
    first owner's renewal raises LeaseLostError."""
    async with _opened(harness) as (_, queue):
        await _fresh(queue)
        run_id = _run_id("lease")
        await queue.enqueue(make_run_started(run_id))
        assert await queue.claim("w1", _HELD) == run_id
        assert await queue.claim("w2", _HELD) is None
        await queue.renew(run_id, "w1", _SHORT)  # the holder may renew (here: shorten) its lease
        await _expect_failure(LeaseLostError, queue.renew(run_id, "w2", _HELD), "renew by a non-holder")
        assert await _claim_within_guard(queue, "w2", _HELD) == run_id
        exc = await _expect_failure(LeaseLostError, queue.renew(run_id, "w1", _HELD), "renew after loss")
        assert isinstance(exc, LeaseLostError) and exc.run_id == run_id
        await queue.renew(run_id, "w2", _HELD)
        await queue.release(run_id, "w1", finished=True)  # not w1's any more: nothing happens
        assert await queue.queued() == [run_id]
        assert await queue.claim("w3", _HELD) is None
        await _expect_failure(LeaseLostError, queue.renew(_run_id("unknown"), "w2", _HELD), "unknown run")


async def check_release_frees_or_drops_the_run(harness: QueueHarness) -> None:
    """Released unfinished, a run is claimable at once; released finished, it leaves the queue."""
    async with _opened(harness) as (_, queue):
        await _fresh(queue)
        run_id = _run_id("release")
        await queue.enqueue(make_run_started(run_id))
        assert await queue.claim("w1", _HELD) == run_id
        await queue.release(run_id, "w1", finished=False)
        assert await queue.claim("w2", _HELD) == run_id
        await _expect_failure(LeaseLostError, queue.renew(run_id, "w1", _HELD), "renew after release")
        await queue.release(run_id, "w2", finished=True)
        assert await queue.queued() == []
        assert await queue.claim("w3", _HELD) is None


async def check_finished_runs_are_never_claimed(harness: QueueHarness) -> None:
    """A run whose log ends in a terminal event leaves `queued()` and is not claimed, even unreleased."""
    async with _opened(harness) as (store, queue):
        await _fresh(queue)
        done, later = _run_id("done"), _run_id("later")
        await queue.enqueue(make_run_started(done))
        await queue.enqueue(make_run_started(later))
        assert await queue.claim("w1", _SHORT) == done
        assert await queue.claim("w1", _SHORT) == later
        await store.append(done, [_abstained(done, 1)], 1)
        assert await queue.queued() == [later]
        # w1 never releases either run. `later`'s lease, taken after `done`'s, running out
        # shows that `done`'s ran out too: still only `later` is handed out.
        assert await _claim_within_guard(queue, "w2", _HELD) == later
        assert await queue.claim("w3", _HELD) is None


async def check_requeue_appends_and_queues_again(harness: QueueHarness) -> None:
    """`requeue` appends to a run that left the queue and queues it again, free; a stale or
    ended run is refused with nothing appended or queued. Requeued while held, a run is
    freed: its holder's release leaves it queued, its renewal fails."""
    async with _opened(harness) as (store, queue):
        await _fresh(queue)
        run_id = _run_id("requeue")
        started = make_run_started(run_id)
        await queue.enqueue(started)
        assert await queue.claim("w1", _HELD) == run_id
        await queue.release(run_id, "w1", finished=True)  # as a worker lets go of a waiting run
        assert await queue.queued() == []
        assert await queue.claim("w2", _HELD) is None

        step = make_step(run_id, 1, "a verdict")
        await queue.requeue(run_id, [step], 1)
        assert await store.read(run_id) == [started, step]
        assert await queue.queued() == [run_id]
        assert await queue.claim("w2", _HELD) == run_id
        await queue.release(run_id, "w2", finished=True)

        await _expect_failure(
            ConcurrencyError, queue.requeue(run_id, [make_step(run_id, 1)], 1), "requeue at a stale seq"
        )
        assert await store.read(run_id) == [started, step]
        assert await queue.queued() == []

        # Requeued before its holder let go: free at once, and the holder's release keeps it queued.
        held = _run_id("held")
        await queue.enqueue(make_run_started(held))
        assert await queue.claim("w3", _HELD) == held
        await queue.requeue(held, [make_step(held, 1)], 1)
        assert await queue.claim("w4", _HELD) == held
        await _expect_failure(LeaseLostError, queue.renew(held, "w3", _HELD), "renew after a requeue")
        await queue.release(held, "w3", finished=True)
        assert await queue.queued() == [held]
        await queue.release(held, "w4", finished=True)

        await store.append(run_id, [_abstained(run_id, 2)], 2)
        await _expect_failure(
            RunClosedError, queue.requeue(run_id, [make_step(run_id, 3)], 3), "requeue of an ended run"
        )
        assert len(await store.read(run_id)) == 3
        assert await queue.queued() == []


QUEUE_CHECKS: Final[tuple[QueueCheck, ...]] = (
    check_enqueue_appends_and_queues,
    check_claims_go_oldest_first_to_one_owner,
    check_lease_runs_out_and_renewal_then_fails,
    check_release_frees_or_drops_the_run,
    check_finished_runs_are_never_claimed,
    check_requeue_appends_and_queues_again,
)


def queue_checks() -> tuple[QueueCheck, ...]:
    """Every check of the queue tier."""
    return QUEUE_CHECKS


async def run_queue_conformance(fresh: Callable[[], QueueHarness]) -> None:
    """Run every queue check in turn, each on a harness `fresh()` returns (an empty database)."""
    for check in QUEUE_CHECKS:
        await check(fresh())
