"""Workers on PostgreSQL: `submit` queues a run, `run_worker` claims queued runs and drives them.

What is guaranteed (with every worker using this module):

- A run is driven by one worker at a time: a worker claims it with a lease
  (`FOR UPDATE SKIP LOCKED` on the queue), renews the lease while it drives the run,
  and appends only while its local deadline, always earlier than the server's, holds.
- A worker that dies (SIGKILL, a lost machine) stops renewing; when its lease runs out
  another worker claims the run and resumes it from the log under SPEC §6: a dispatch
  left without an observation is run again if its tool is read-only, and recorded as
  `ToolOutcomeUnknown` otherwise. No call is dispatched twice.
- Should two workers ever race anyway (a process paused longer than its lease), the
  expected-seq check refuses the second writer: the log never forks or gaps.
- A worker asked to stop lets go of its runs (they are not abstained): others resume them.
"""

from __future__ import annotations

import os
import socket
import uuid
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any

import anyio
import structlog
from citeloop.events import EventStore, PostgresStore, RunFailure, RunStarted, UsageError, open_store
from citeloop.policies import Policy
from citeloop.tools import Tool

from ._leases import LeaseBook, LeasedStore, LeaseLostError, keep_lease
from ._runtime import Runtime

DEFAULT_LEASE_SECONDS = 10.0


def _postgres(store: str | PostgresStore) -> tuple[PostgresStore, bool]:
    """The store, and whether we opened it (and so must close it)."""
    if isinstance(store, PostgresStore):
        return store, False
    opened = open_store(store)
    if not isinstance(opened, PostgresStore):
        raise UsageError(f"workers need a postgresql:// store, not {opened.url!r}")
    return opened, True


class _Enqueuing(LeasedStore):
    """Turns the run's first append (its RunStarted) into a queue entry, atomically."""

    def __init__(self, store: PostgresStore) -> None:
        super().__init__(store, LeaseBook(0.0))

    async def append(self, run_id: str, events: Any, expected_seq: int) -> None:
        if expected_seq != 0 or len(events) != 1 or not isinstance(events[0], RunStarted):
            raise UsageError("submit only records a run's start")
        await self._store.enqueue(events[0])


async def submit(
    store: str | PostgresStore,
    question: str,
    *,
    tools: Iterable[Tool],
    policy: Policy,
    run_id: str | None = None,
    **runtime_options: Any,
) -> str:
    """Queue a question for the workers and return its run id.

    `tools` and `policy` must be the ones the workers use: the run's `RunStarted`
    records their names and the allowlist. `runtime_options` go to `Runtime`.
    """
    postgres, owned = _postgres(store)
    try:
        runtime = Runtime(store=_Enqueuing(postgres), tools=tools, policy=policy, **runtime_options)
        return await runtime.submit(question, run_id=run_id)
    finally:
        if owned:
            await postgres.aclose()


def new_owner() -> str:
    """A worker identity that names its machine and process (it shows in the queue table)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


async def run_worker(
    store: str | PostgresStore,
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

    Returns the number of runs this worker finished, once `stop` is set (or `max_runs`
    runs are finished, or the task is cancelled, which counts as a stop). Runs still in
    flight at a stop are released to other workers, not abstained.
    """
    if concurrency < 1 or lease_seconds <= 0 or poll_seconds <= 0:
        raise UsageError("concurrency, lease_seconds and poll_seconds must be positive")
    postgres, owned = _postgres(store)
    me = owner or new_owner()
    book = LeaseBook(lease_seconds)
    ttl = timedelta(seconds=lease_seconds)
    slots = anyio.Semaphore(concurrency)
    stopping = stop or anyio.Event()
    finished = 0
    log = structlog.get_logger("citeloop.worker").bind(owner=me)

    async def drive(runtime: Runtime, run_id: str) -> None:
        nonlocal finished
        done = False
        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(keep_lease, postgres, book, run_id, me, tg.cancel_scope)
                try:
                    outcome = await runtime.resume(run_id)
                    done = True
                    log.info("run_finished", run_id=run_id, status=outcome.status)
                except LeaseLostError:
                    log.warning("run_let_go", run_id=run_id)
                except RunFailure as exc:  # the store failed, or another writer won: others retry
                    log.warning("run_failed", run_id=run_id, error=repr(exc))
                finally:
                    tg.cancel_scope.cancel()
        finally:
            still_held = book.holds(run_id)
            book.drop(run_id)
            if done:
                finished += 1
                if max_runs is not None and finished >= max_runs:
                    stopping.set()
            if still_held:
                with anyio.CancelScope(shield=True), anyio.move_on_after(5):
                    try:
                        await postgres.release(run_id, me, finished=done)
                    except RunFailure as exc:  # the lease simply runs out instead
                        log.warning("release_failed", run_id=run_id, error=repr(exc))
            slots.release()

    async def claim_loop(runtime: Runtime, tg: anyio.abc.TaskGroup) -> None:
        while not stopping.is_set():
            await slots.acquire()
            if stopping.is_set():
                slots.release()
                return
            asked_at = anyio.current_time()
            try:
                run_id = await postgres.claim(me, ttl)
            except RunFailure as exc:
                log.warning("claim_failed", error=repr(exc))
                run_id = None
            if run_id is None:
                slots.release()
                with anyio.move_on_after(poll_seconds):
                    await stopping.wait()
                continue
            book.granted(run_id, asked_at)
            log.info("run_claimed", run_id=run_id)
            if on_claim is not None:
                on_claim(run_id)
            tg.start_soon(drive, runtime, run_id)

    leased: EventStore = LeasedStore(postgres, book)
    try:
        async with Runtime(store=leased, tools=tools, policy=policy, **runtime_options) as runtime:
            try:
                async with anyio.create_task_group() as tg:
                    tg.start_soon(claim_loop, runtime, tg)
                    await stopping.wait()
                    # Runs in flight are cancelled; LeasedStore refuses their `cancelled`
                    # abstention, and each `drive` releases its lease for another worker.
                    tg.cancel_scope.cancel()
            finally:
                book.drop_all()
    finally:
        if owned:
            with anyio.CancelScope(shield=True):
                await postgres.aclose()
    return finished
