"""The run-queue contract: runs waiting for workers, each held by one worker at a time under a lease.

A capability beside `EventStore`, not a method of one backend: a queue lives in the
same database as its store's log (a run is queued in the same transaction that appends
its `RunStarted`, and a finished run is never claimed), and `open_queue(store)` opens
the queue of a store that has one. The conformance suite's queue tier
(`citeloop.events.testing.queue_checks`) is the executable form of this contract.

Leases are timed by the database's clock (the server's for PostgreSQL, the machine's
for SQLite). A worker should stop appending well before its lease could run out; the
runtime's workers keep a local deadline, earlier than the lease's, for that.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Protocol, runtime_checkable

from ._events import Event, RunStarted
from ._resource import Closeable


@runtime_checkable
class RunQueue(Closeable, Protocol):
    """Queued runs with leases. Every method is safe to call from many tasks and processes at once."""

    @property
    def url(self) -> str:
        """The URL of the store this queue belongs to, with any secret redacted."""
        ...

    async def enqueue(self, started: RunStarted) -> None:
        """Append a run's `RunStarted` to the log and queue the run, in one transaction.

        Once this returns, the run's first event is in the log and the run is queued.
        A run that already has events is refused with `ConcurrencyError` (nothing is
        written), a malformed event with `UsageError`, as `EventStore.append` does.
        """
        ...

    async def requeue(self, run_id: str, events: Sequence[Event], expected_seq: int) -> None:
        """Append `events` to a started run's log and queue the run again, in one transaction.

        How a run that left the queue unfinished (a report run waiting for a human review,
        released by its worker) goes back to the workers with the event that lets it go on.
        Once this returns, the events are in the log and the run is queued *and free*: a
        lease on it, if any, is dropped, so its holder's release leaves it queued (and its
        renewal raises `LeaseLostError`). Refused as `EventStore.append` refuses: a stale
        `expected_seq` with `ConcurrencyError`, an ended run with `RunClosedError`, a
        malformed batch with `UsageError`; nothing is written or queued then.
        """
        ...

    async def claim(self, owner: str, ttl: timedelta) -> str | None:
        """Lease the oldest queued, unfinished run that nobody holds (or whose lease ran out).

        Returns its run id, now held by `owner` for `ttl`, or None when there is none.
        """
        ...

    async def renew(self, run_id: str, owner: str, ttl: timedelta) -> None:
        """Extend `owner`'s lease on a run to `ttl` from now.

        Raises `LeaseLostError` when the lease is no longer `owner`'s: it ran out, was
        released, or another worker claimed the run since.
        """
        ...

    async def release(self, run_id: str, owner: str, *, finished: bool) -> None:
        """Give `owner`'s lease back: drop the run from the queue when `finished`, else free it
        for others at once. Does nothing when `owner` does not hold the run."""
        ...

    async def queued(self) -> list[str]:
        """The queued runs that are not finished yet, held or not, oldest first."""
        ...
