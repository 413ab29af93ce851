"""Workers: `submit` queues a run, `run_worker` claims queued runs and drives them.

Any store with a run queue (`open_queue`) works: SQLite for workers on one machine,
PostgreSQL for workers on many. What is guaranteed (with every worker using this module):

- A run is driven by one worker at a time: a worker claims it from the queue with a
  lease, renews the lease while it drives the run, and appends only while its local
  deadline, always earlier than the queue's, holds.
- A worker that dies (SIGKILL, a lost machine) stops renewing; when its lease runs out
  another worker claims the run and resumes it from the log (docs/architecture.md,
  "Recovery"): a dispatch left without an observation is run again if its tool is
  read-only, and recorded as `ToolOutcomeUnknown` otherwise. No call is dispatched twice.
- Should two workers ever race anyway (a process paused longer than its lease), the
  expected-seq check refuses the second writer: the log never forks or gaps.
- A worker asked to stop lets go of its runs (they are not abstained): others resume them.
- A report run that comes to wait for a human review leaves the queue (its worker releases
  it as finished, so no worker spins on it). `submit_review`, from any process, appends the
  verdict and queues the run again in one transaction (`RunQueue.requeue`): any worker
  then carries it on from its log (docs/reports.md, "Reports through workers").
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from typing import Any

import anyio
import anyio.abc
import structlog
from citeloop.events import (
    EventStore,
    ReportRules,
    ReviewVerdict,
    RunFailure,
    RunQueue,
    UnknownRunError,
    UsageError,
    chain_hash,
    encode_event,
    open_queue,
    open_store,
    stamp_chain,
)
from citeloop.policies import Policy
from citeloop.tools import Tool

from ._fold import fold
from ._leases import LeaseBook, LeasedStore, LeaseLostError, keep_lease
from ._report_decide import decide_human_review
from ._runtime import DEFAULT_MAX_STEPS, Runtime, new_run_id, utc_now
from ._start import run_started

DEFAULT_LEASE_SECONDS = 10.0


@asynccontextmanager
async def _store_and_queue(store: str | EventStore) -> AsyncIterator[tuple[EventStore, RunQueue]]:
    """The store (opened from a URL, or as given) and its queue; closes what it opened."""
    opened = open_store(store) if isinstance(store, str) else store
    try:
        async with open_queue(opened) as queue:
            yield opened, queue
    finally:
        if opened is not store:
            with anyio.CancelScope(shield=True):
                await opened.aclose()


async def submit(
    store: str | EventStore,
    question: str,
    *,
    tools: Iterable[Tool],
    policy: Policy,
    run_id: str | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    allowlist: Iterable[str] | None = None,
    report: ReportRules | None = None,
    clock: Callable[[], datetime] = utc_now,
) -> str:
    """Queue a question for the workers and return its run id.

    `tools` and `policy` must be the ones the workers use: the run's `RunStarted`
    records their names and the allowlist. With `report`, the run is a report run held
    to those rules (docs/reports.md): the workers' `writer` and `reviewer` write and
    review its drafts. The store must have a run queue (`sqlite://` or `postgresql://`).
    """
    if max_steps < 1:
        raise UsageError(f"max_steps must be at least 1, got {max_steps}")
    started = run_started(
        run_id or new_run_id(),
        question,
        tools=tools,
        policy=policy,
        max_steps=max_steps,
        allowlist=allowlist,
        at=clock(),
        report=report,
    )
    async with _store_and_queue(store) as (_, queue):
        await queue.enqueue(started)
    return started.run_id


async def submit_review(
    store: str | EventStore,
    run_id: str,
    verdict: ReviewVerdict,
    *,
    notes: str = "",
    by: str = "human",
    clock: Callable[[], datetime] = utc_now,
) -> None:
    """Append a human's verdict on the draft a waiting report run awaits, and queue the run again.

    Nothing is driven here: a worker claims the run and carries it on from its log. The
    verdict is decided as `Runtime.review` decides it (`decide_human_review`):
    `ReviewNotAwaitedError` when the run waits for no review, `UnknownRunError` when there
    is no such run. Two verdicts racing on one draft: the second gets `ConcurrencyError`.
    """
    if verdict not in ("ACCEPT", "REVISE"):
        raise UsageError(f"verdict must be ACCEPT or REVISE, got {verdict!r}")
    async with _store_and_queue(store) as (opened, queue):
        stored = await opened.read(run_id)
        if not stored:
            raise UnknownRunError(f"no run {run_id!r} in {opened.url}")
        state = fold(stored)
        decided = decide_human_review(state, verdict, notes, by, clock())
        # Stamped as the driver stamps every batch: each event names its predecessor's hash.
        stamped, _ = stamp_chain(decided, chain_hash(encode_event(stored[-1])))
        await queue.requeue(run_id, stamped, state.next_seq)


def new_owner() -> str:
    """A worker identity that names its machine and process (it shows in the queue table)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


class _Worker:
    """Claims runs while a slot is free and drives each in a task of its own, under a kept lease."""

    def __init__(
        self,
        runtime: Runtime,
        queue: RunQueue,
        book: LeaseBook,
        *,
        owner: str,
        concurrency: int,
        poll_seconds: float,
        stop: anyio.Event,
        max_runs: int | None,
        on_claim: Callable[[str], None] | None,
    ) -> None:
        self._runtime = runtime
        self._queue = queue
        self._book = book
        self._owner = owner
        self._ttl = timedelta(seconds=book.ttl)
        self._slots = anyio.Semaphore(concurrency)
        self._poll = poll_seconds
        self._stopping = stop
        self._max_runs = max_runs
        self._on_claim = on_claim
        self._log = structlog.get_logger("citeloop.worker").bind(owner=owner)
        self.finished = 0

    async def run(self) -> int:
        """Work until stopped; return the number of runs finished."""
        async with self._runtime:
            try:
                async with anyio.create_task_group() as tg:
                    tg.start_soon(self._claim_loop, tg)
                    await self._stopping.wait()
                    # Runs in flight are cancelled; LeasedStore refuses their `cancelled`
                    # abstention, and each `_drive` releases its lease for another worker.
                    tg.cancel_scope.cancel()
            finally:
                self._book.drop_all()
        return self.finished

    async def _claim_loop(self, tg: anyio.abc.TaskGroup) -> None:
        while not self._stopping.is_set():
            await self._slots.acquire()
            if self._stopping.is_set():
                self._slots.release()
                return
            asked_at = anyio.current_time()
            try:
                run_id = await self._queue.claim(self._owner, self._ttl)
            except RunFailure as exc:
                self._log.warning("claim_failed", error=repr(exc))
                run_id = None
            if run_id is None:
                self._slots.release()
                with anyio.move_on_after(self._poll):
                    await self._stopping.wait()
                continue
            self._book.granted(run_id, asked_at)
            self._log.info("run_claimed", run_id=run_id)
            if self._on_claim is not None:
                self._on_claim(run_id)
            tg.start_soon(self._drive, run_id)

    async def _drive(self, run_id: str) -> None:
        done = False
        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(keep_lease, self._queue, self._book, run_id, self._owner, tg.cancel_scope)
                try:
                    outcome = await self._runtime.resume(run_id)
                    # Ended, or waiting for a human review: either way it leaves the queue
                    # (`submit_review` queues a waiting run again with its verdict).
                    done = True
                    if outcome.status == "waiting":
                        self._log.info("run_waiting", run_id=run_id)
                    else:
                        self._log.info("run_finished", run_id=run_id, status=outcome.status)
                except LeaseLostError:
                    self._log.warning("run_let_go", run_id=run_id)
                except RunFailure as exc:  # the store failed, or another writer won: others retry
                    self._log.warning("run_failed", run_id=run_id, error=repr(exc))
                finally:
                    tg.cancel_scope.cancel()
        finally:
            still_held = self._book.holds(run_id)
            self._book.drop(run_id)
            if done:
                self.finished += 1
                if self._max_runs is not None and self.finished >= self._max_runs:
                    self._stopping.set()
            if still_held:
                await self._release(run_id, finished=done)
            self._slots.release()

    async def _release(self, run_id: str, *, finished: bool) -> None:
        with anyio.CancelScope(shield=True), anyio.move_on_after(5):
            try:
                await self._queue.release(run_id, self._owner, finished=finished)
            except RunFailure as exc:  # the lease simply runs out instead
                self._log.warning("release_failed", run_id=run_id, error=repr(exc))


async def run_worker(
    store: str | EventStore,
    *,
    tools: Iterable[Tool],
    policy: Policy,
    concurrency: int = 16,
    lease_seconds: float = DEFAULT_LEASE_SECONDS,
    poll_seconds: float = 0.5,
    owner: str | None = None,
    stop: anyio.Event | None = None,
    max_runs: int | None = None,
    on_claim: Callable[[str], None] | None = None,
    **runtime_options: Any,
) -> int:
    """Claim queued runs and drive each to its outcome, `concurrency` at a time.

    Returns the number of runs this worker finished (a report run left waiting for a human
    review counts: the worker is done with it), once `stop` is set (or `max_runs` runs are
    finished, or the task is cancelled, which counts as a stop). Runs still in flight at a
    stop are released to other workers, not abstained. The store must have a run queue
    (`sqlite://` or `postgresql://`); `runtime_options` go to `Runtime` (`writer` and
    `reviewer` for report runs, for example).
    """
    if concurrency < 1 or lease_seconds <= 0 or poll_seconds <= 0:
        raise UsageError("concurrency, lease_seconds and poll_seconds must be positive")
    async with _store_and_queue(store) as (opened, queue):
        book = LeaseBook(lease_seconds)
        runtime = Runtime(store=LeasedStore(opened, book), tools=tools, policy=policy, **runtime_options)
        worker = _Worker(
            runtime,
            queue,
            book,
            owner=owner or new_owner(),
            concurrency=concurrency,
            poll_seconds=poll_seconds,
            stop=stop or anyio.Event(),
            max_runs=max_runs,
            on_claim=on_claim,
        )
        return await worker.run()
