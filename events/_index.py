"""`EventIndex`: every event of a store in process memory, per run and in global order.

The memory store is only this; the JSONL store keeps one beside its file (built when the
file is opened, the truth for its expected-seq check since it is the file's one writer).
Subscribers wait on a wake-up that every addition replaces, so a waiter that saw
generation N wakes on N+1 and loses nothing across the stored-then-live boundary.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence

import anyio

from ._events import TERMINAL_TYPES, Event
from ._store import RunStatus, RunSummary, StoredEvent, run_started, status_after


class EventIndex:
    """Runs and the global order of their events; checks nothing but contiguity."""

    def __init__(self) -> None:
        self._runs: dict[str, list[Event]] = {}
        self._status: dict[str, RunStatus] = {}
        self._global: list[Event] = []
        self._appended: anyio.Event | None = None

    def head(self, run_id: str) -> int:
        """The seq the run's next event must have (0 for an unknown run)."""
        return len(self._runs.get(run_id, ()))

    def ended(self, run_id: str) -> bool:
        """Whether the run's terminal event is indexed (it accepts no further appends)."""
        return self._status.get(run_id, "running") != "running"

    def add(self, events: Sequence[Event]) -> None:
        """Index a batch of one run whose first seq is the run's head, and wake subscribers."""
        run_id = events[0].run_id
        log = self._runs.setdefault(run_id, [])
        if events[0].seq != len(log):
            raise ValueError(f"run {run_id!r} jumps from seq {len(log)} to {events[0].seq}")
        log.extend(events)
        self._global.extend(events)
        self._status[run_id] = status_after(events, self._status.get(run_id, "running"))
        self.wake()

    def wake(self) -> None:
        wakeup, self._appended = self._appended, None
        if wakeup is not None:
            wakeup.set()

    def _wakeup(self) -> anyio.Event:
        if self._appended is None:
            self._appended = anyio.Event()
        return self._appended

    def read(self, run_id: str, after: int = -1) -> list[Event]:
        return list(self._runs.get(run_id, ())[after + 1 :])

    def summaries(self) -> list[RunSummary]:
        summaries = []
        for run_id, log in self._runs.items():
            first, started = log[0], run_started(log)
            summaries.append(
                RunSummary(
                    run_id=run_id,
                    question=started.question if started is not None else "",
                    status=self._status[run_id],
                    events=len(log),
                    started_at=first.at,
                    updated_at=log[-1].at,
                )
            )
        return summaries

    async def subscribe(
        self, run_id: str, after: int, check_open: Callable[[], None]
    ) -> AsyncIterator[Event]:
        next_seq = after + 1
        while True:
            check_open()
            wakeup = self._wakeup()
            log = self._runs.get(run_id, [])
            while next_seq < len(log):
                event = log[next_seq]
                next_seq += 1
                yield event
                if event.type in TERMINAL_TYPES:
                    return
            await wakeup.wait()

    def head_position(self) -> int:
        return len(self._global) - 1

    async def subscribe_all(self, after: int, check_open: Callable[[], None]) -> AsyncIterator[StoredEvent]:
        position = after + 1
        while True:
            check_open()
            wakeup = self._wakeup()
            while position < len(self._global):
                yield StoredEvent(position, self._global[position])
                position += 1
            await wakeup.wait()
