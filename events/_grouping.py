"""Group commit without a background task, shared by the file-backed stores.

Every append joins a queue. When nobody is committing, the caller becomes the *leader*:
it yields once (so the appends that are ready to run join the queue), takes the whole
queue and commits it as one unit, then wakes the others with their own results. Appends
that arrive while a leader commits (possible only when the commit awaits a worker
thread) wait; when the batch ends they are woken and the first to run leads the next
one, so a leader commits exactly one batch (no starvation under sustained load) and no
task outlives the calls that started it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeAlias, TypeVar

import anyio
import anyio.lowlevel

T = TypeVar("T")

Results: TypeAlias = Sequence[BaseException | None]

# Commits a batch and returns one result per item: None for success, or the exception
# that item's caller must see (for example a ConcurrencyError for one stale append).
# A commit that finishes synchronously returns the results themselves; one that must
# await (a worker thread) returns an awaitable of them, which the leader runs shielded.
CommitBatch = Callable[[Sequence[T]], Results | Awaitable[Results]]


class _Pending(Generic[T]):
    __slots__ = ("batch", "done", "error", "item")

    def __init__(self, item: T) -> None:
        self.item = item
        self.done = False
        self.error: BaseException | None = None
        # Set when a leader takes this item: the event that batch's end is announced on.
        self.batch: anyio.Event | None = None


class GroupCommitter(Generic[T]):
    """Runs `commit` on batches of waiting items, one batch at a time.

    Waking is per batch, not per item: one `anyio.Event` wakes every member of a batch,
    which keeps the cost of a waiting append at a few µs with 1,000 concurrent writers.
    """

    def __init__(self, commit: CommitBatch[T]) -> None:
        self._commit = commit
        self._queue: list[_Pending[T]] = []
        self._queued: anyio.Event | None = None  # wakes items queued behind a running batch
        self._leading = False
        self._idle: anyio.Event | None = None

    async def submit(self, item: T) -> None:
        """Commit `item` in the next batch; raise the error the batch assigned to it."""
        pending = _Pending(item)
        self._queue.append(pending)
        while not pending.done:
            if pending.batch is not None:
                # Taken into a batch: it will be written whatever happens to this caller, so
                # wait for the verdict shielded; a cancellation lands after the caller knows.
                with anyio.CancelScope(shield=True):
                    await pending.batch.wait()
            elif not self._leading:
                self._leading = True
                try:
                    # Let the appends that are ready join this batch.
                    await anyio.lowlevel.checkpoint()
                except BaseException:
                    # Cancelled before taking the batch: withdraw, and hand the lead on.
                    self._leading = False
                    self._queue.remove(pending)
                    if self._queue:
                        self._wake_queue()
                    raise
                await self._lead()
            else:
                if self._queued is None:
                    self._queued = anyio.Event()
                try:
                    await self._queued.wait()
                except BaseException:
                    # Cancelled before a leader took the item: withdraw it (never written),
                    # and make sure the items still queued get a leader.
                    if pending.batch is None:
                        self._queue.remove(pending)
                        if self._queue and not self._leading:
                            self._wake_queue()
                        raise
                    # Taken while we were being cancelled: learn the verdict before leaving.
                    with anyio.CancelScope(shield=True):
                        await pending.batch.wait()
                    if pending.error is not None:
                        raise pending.error from None
                    raise
        if pending.error is not None:
            raise pending.error

    def _wake_queue(self) -> None:
        queued, self._queued = self._queued, None
        if queued is not None:
            queued.set()

    async def _lead(self) -> None:
        batch, self._queue = self._queue, []
        announce, self._queued = self._queued or anyio.Event(), None
        for pending in batch:
            pending.batch = announce
        results: Results = ()
        try:
            outcome = self._commit([p.item for p in batch])
            if isinstance(outcome, Sequence):
                results = outcome
            else:
                # Shielded: a batch that was taken is always finished and answered. Only
                # an awaiting commit needs it; a synchronous one cannot be interrupted, and
                # a cancel scope costs ~15 µs per batch on asyncio (a third of a commit).
                with anyio.CancelScope(shield=True):
                    results = await outcome
        except BaseException as exc:  # the whole batch failed (I/O error, closed store)
            results = [exc] * len(batch)
        for pending, result in zip(batch, results, strict=True):
            pending.error = result
            pending.done = True
        self._leading = False
        announce.set()
        if self._queue:
            # Items arrived while the batch was committing (a commit in a worker thread):
            # wake them; the first to run becomes the next leader.
            self._wake_queue()
        else:
            idle, self._idle = self._idle, None
            if idle is not None:
                idle.set()

    async def wait_idle(self) -> None:
        """Return once no batch is being committed (used before closing the store)."""
        while self._leading:
            if self._idle is None:
                self._idle = anyio.Event()
            await self._idle.wait()
