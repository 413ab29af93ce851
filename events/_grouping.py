"""Group commit without a background task, shared by the file-backed stores.

Every append joins a queue. When nobody is committing, the caller becomes the *leader*:
it yields once (so the appends that are ready to run join the queue), takes the whole
queue and commits it as one unit, then wakes the others with their own results. Appends
that arrive while a leader commits wait; when it is done it hands leadership to the first
of them, so no caller ever commits more than one batch after its own (no starvation
under sustained load) and no task outlives the calls that started it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

import anyio
import anyio.lowlevel

T = TypeVar("T")

# Commits a batch and returns one result per item: None for success, or the exception
# that item's caller must see (for example a ConcurrencyError for one stale append).
CommitBatch = Callable[[Sequence[T]], Awaitable[Sequence[BaseException | None]]]


class _Pending(Generic[T]):
    __slots__ = ("done", "error", "item", "lead", "taken")

    def __init__(self, item: T) -> None:
        self.item = item
        self.done = anyio.Event()
        self.error: BaseException | None = None
        self.taken = False
        self.lead = False


class GroupCommitter(Generic[T]):
    """Runs `commit` on batches of waiting items, one batch at a time."""

    def __init__(self, commit: CommitBatch[T]) -> None:
        self._commit = commit
        self._queue: list[_Pending[T]] = []
        self._leading = False
        self._idle: anyio.Event | None = None

    async def submit(self, item: T) -> None:
        """Commit `item` in the next batch; raise the error the batch assigned to it."""
        pending = _Pending(item)
        self._queue.append(pending)
        if not self._leading:
            self._leading = True
            pending.lead = True
        else:
            try:
                await pending.done.wait()
            except BaseException:
                # Cancelled while waiting. Leadership must never be dropped (the queue
                # would stall), and an item not yet taken is withdrawn: it was never written.
                if not pending.taken:
                    self._queue.remove(pending)
                if pending.lead:
                    with anyio.CancelScope(shield=True):
                        await self._lead()
                raise
        if pending.lead:
            # Shielded: a batch that was taken is always finished and answered.
            with anyio.CancelScope(shield=True):
                await self._lead()
        if pending.error is not None:
            raise pending.error

    async def _lead(self) -> None:
        await anyio.lowlevel.checkpoint()
        batch, self._queue = self._queue, []
        for pending in batch:
            pending.taken = True
        results: Sequence[BaseException | None] = ()
        if batch:
            try:
                results = await self._commit([p.item for p in batch])
            except BaseException as exc:  # the whole batch failed (I/O error, closed store)
                results = [exc] * len(batch)
        for pending, result in zip(batch, results, strict=True):
            pending.error = result
            pending.lead = False
            pending.done.set()
        if self._queue:
            successor = self._queue[0]
            successor.lead = True
            successor.done.set()
        else:
            self._leading = False
            idle, self._idle = self._idle, None
            if idle is not None:
                idle.set()

    async def wait_idle(self) -> None:
        """Return once no batch is being committed (used before closing the store)."""
        while self._leading:
            if self._idle is None:
                self._idle = anyio.Event()
            await self._idle.wait()
