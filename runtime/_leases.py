"""Leases on runs: a worker appends only to runs it holds, and lets go the moment it may not.

The queue (`RunQueue`) is the authority on a lease; the worker keeps a *local* deadline
that is always earlier: the time it sent its last successful claim or renewal, plus a
safe fraction of the lease. Every append checks that local deadline first, so a worker
whose renewals stall (a lost database, a paused process) stops writing before the queue
could hand the run to someone else. Optimistic concurrency
(the expected seq) stays underneath as the last line of defence.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Sequence
from datetime import timedelta
from typing import Final

import anyio
import structlog
from citeloop.events import (
    Abstained,
    AsyncResource,
    Event,
    EventStore,
    LeaseLostError,
    RunFailure,
    RunQueue,
    RunSummary,
    StoredEvent,
)

# The local deadline uses this share of the lease, leaving room for clock-rate drift and
# for the renewal's own round trip.
SAFE_SHARE: Final = 0.75

# LeaseLostError lives in citeloop.events (a queue raises it too); re-exported for the runtime.
__all__ = ("SAFE_SHARE", "LeaseBook", "LeaseLostError", "LeasedStore", "keep_lease")


class LeaseBook:
    """The runs this worker holds, each with its local deadline (anyio's monotonic clock)."""

    def __init__(self, ttl: float) -> None:
        self.ttl = ttl
        self._deadlines: dict[str, float] = {}

    def granted(self, run_id: str, asked_at: float) -> None:
        """Record a claim or renewal the server granted to a request sent at `asked_at`."""
        self._deadlines[run_id] = asked_at + self.ttl * SAFE_SHARE

    def holds(self, run_id: str) -> bool:
        return self._deadlines.get(run_id, -math.inf) > anyio.current_time()

    def drop(self, run_id: str) -> None:
        self._deadlines.pop(run_id, None)

    def drop_all(self) -> None:
        self._deadlines.clear()

    def held(self) -> list[str]:
        return list(self._deadlines)


class LeasedStore(AsyncResource):
    """An `EventStore` view that refuses appends to runs the worker does not hold."""

    def __init__(self, store: EventStore, book: LeaseBook) -> None:
        self._store = store
        self._book = book

    @property
    def url(self) -> str:
        return self._store.url

    async def append(self, run_id: str, events: Sequence[Event], expected_seq: int) -> None:
        if not self._book.holds(run_id):
            raise LeaseLostError(run_id)
        if any(isinstance(e, Abstained) and e.reason == "cancelled" for e in events):
            # A worker is cancelled when it stops, not the run: it lets go of the run, and
            # another worker resumes it, instead of ending it as cancelled.
            raise LeaseLostError(run_id)
        await self._store.append(run_id, events, expected_seq)

    async def read(self, run_id: str, after: int = -1) -> list[Event]:
        return await self._store.read(run_id, after)

    async def runs(self) -> list[RunSummary]:
        return await self._store.runs()

    def subscribe(self, run_id: str, after: int = -1) -> AsyncIterator[Event]:
        return self._store.subscribe(run_id, after)

    def subscribe_all(self, after: int = -1) -> AsyncIterator[StoredEvent]:
        return self._store.subscribe_all(after)

    async def head_position(self) -> int:
        return await self._store.head_position()

    async def aclose(self) -> None:
        """The underlying store belongs to the worker, which closes it."""


async def keep_lease(
    queue: RunQueue, book: LeaseBook, run_id: str, owner: str, on_lost: anyio.CancelScope
) -> None:
    """Renew a lease until cancelled; once it is lost (or not renewed in time) drop it, cancel `on_lost`."""
    ttl = timedelta(seconds=book.ttl)
    interval = book.ttl / 4
    log = structlog.get_logger("citeloop.worker").bind(run_id=run_id, owner=owner)
    while True:
        await anyio.sleep(interval)
        asked_at = anyio.current_time()
        try:
            # A renewal that outlives the local deadline is worthless: give up on it then.
            # Shielded: cancelling a query mid-flight costs the pool its connection.
            with anyio.CancelScope(shield=True), anyio.fail_after(max(0.01, interval)):
                await queue.renew(run_id, owner, ttl)
        except LeaseLostError:
            pass  # the queue says so: lost for good
        except (TimeoutError, RunFailure) as exc:  # unknown: retry while the local deadline holds
            log.warning("lease_renewal_failed", error=repr(exc))
            if book.holds(run_id):
                continue
        else:
            book.granted(run_id, asked_at)
            continue
        log.warning("lease_lost")
        book.drop(run_id)
        on_lost.cancel()
        return
