"""An in-process store: for tests, and for runs that need no durability."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

import anyio

from ._errors import ConcurrencyError, RunClosedError, StoreUnavailableError
from ._events import Event
from ._index import EventIndex
from ._resource import AsyncResource
from ._store import RunSummary, StoredEvent, check_batch


class MemoryStore(AsyncResource):
    """Keeps every event in lists; an append is 'durable' once it is in them."""

    def __init__(self) -> None:
        self._index = EventIndex()
        self._closed = False

    @property
    def url(self) -> str:
        return "memory://"

    def _check_open(self) -> None:
        if self._closed:
            raise StoreUnavailableError("the memory store is closed")

    async def append(self, run_id: str, events: Sequence[Event], expected_seq: int) -> None:
        # The checkpoint comes first: a cancellation must land before the events are in,
        # never after (the caller would be told "not written" about written events).
        await anyio.lowlevel.checkpoint()
        self._check_open()
        check_batch(run_id, events, expected_seq)
        if self._index.ended(run_id):
            raise RunClosedError(run_id)
        head = self._index.head(run_id)
        if head != expected_seq:
            raise ConcurrencyError(run_id, expected_seq, head)
        self._index.add(events)

    async def read(self, run_id: str, after: int = -1) -> list[Event]:
        self._check_open()
        await anyio.lowlevel.checkpoint()
        return self._index.read(run_id, after)

    async def runs(self) -> list[RunSummary]:
        self._check_open()
        await anyio.lowlevel.checkpoint()
        return self._index.summaries()

    def subscribe(self, run_id: str, after: int = -1) -> AsyncIterator[Event]:
        return self._index.subscribe(run_id, after, self._check_open)

    def subscribe_all(self, after: int = -1) -> AsyncIterator[StoredEvent]:
        return self._index.subscribe_all(after, self._check_open)

    async def head_position(self) -> int:
        self._check_open()
        await anyio.lowlevel.checkpoint()
        return self._index.head_position()

    async def aclose(self) -> None:
        self._closed = True
        self._index.wake()
