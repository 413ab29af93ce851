"""An in-process store: for tests, and for runs that need no durability."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from types import TracebackType
from typing import Self

import anyio

from ._errors import ConcurrencyError, StoreUnavailableError
from ._events import TERMINAL_TYPES, Event, RunStarted
from ._store import RunStatus, RunSummary, StoredEvent, check_batch, status_after


class MemoryStore:
    """Keeps every event in lists; an append is 'durable' once it is in them."""

    def __init__(self) -> None:
        self._runs: dict[str, list[Event]] = {}
        self._status: dict[str, RunStatus] = {}
        self._updated: dict[str, datetime] = {}
        self._global: list[Event] = []
        # Replaced on every append, so a waiter that saw generation N wakes on N+1.
        self._appended: anyio.Event | None = None
        self._closed = False

    @property
    def url(self) -> str:
        return "memory://"

    def _wakeup(self) -> anyio.Event:
        if self._appended is None:
            self._appended = anyio.Event()
        return self._appended

    def _check_open(self) -> None:
        if self._closed:
            raise StoreUnavailableError("the memory store is closed")

    async def append(self, run_id: str, events: Sequence[Event], expected_seq: int) -> None:
        self._check_open()
        check_batch(run_id, events, expected_seq)
        log = self._runs.get(run_id, [])
        if len(log) != expected_seq:
            raise ConcurrencyError(run_id, expected_seq, len(log))
        self._runs[run_id] = log
        log.extend(events)
        self._global.extend(events)
        self._status[run_id] = status_after(events, self._status.get(run_id, "running"))
        self._updated[run_id] = events[-1].at
        wakeup, self._appended = self._appended, None
        if wakeup is not None:
            wakeup.set()
        await anyio.lowlevel.checkpoint()

    async def read(self, run_id: str, after: int = -1) -> list[Event]:
        self._check_open()
        await anyio.lowlevel.checkpoint()
        return list(self._runs.get(run_id, ())[after + 1 :])

    async def runs(self) -> list[RunSummary]:
        self._check_open()
        await anyio.lowlevel.checkpoint()
        summaries = []
        for run_id, log in self._runs.items():
            first = log[0]
            question = first.question if isinstance(first, RunStarted) else ""
            summaries.append(
                RunSummary(
                    run_id=run_id,
                    question=question,
                    status=self._status[run_id],
                    events=len(log),
                    started_at=first.at,
                    updated_at=self._updated[run_id],
                )
            )
        return summaries

    async def subscribe(self, run_id: str, after: int = -1) -> AsyncIterator[Event]:
        next_seq = after + 1
        while True:
            self._check_open()
            wakeup = self._wakeup()
            log = self._runs.get(run_id, [])
            while next_seq < len(log):
                event = log[next_seq]
                next_seq += 1
                yield event
                if event.type in TERMINAL_TYPES:
                    return
            await wakeup.wait()

    async def subscribe_all(self, after: int = -1) -> AsyncIterator[StoredEvent]:
        position = after + 1
        while True:
            self._check_open()
            wakeup = self._wakeup()
            while position < len(self._global):
                yield StoredEvent(position, self._global[position])
                position += 1
            await wakeup.wait()

    async def aclose(self) -> None:
        self._closed = True
        wakeup, self._appended = self._appended, None
        if wakeup is not None:
            wakeup.set()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
