"""The log contract every store implements, and the small checks they share."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol, TypeAlias, runtime_checkable

from ._errors import UsageError
from ._events import TERMINAL_TYPES, Event, Forked, RunStarted
from ._resource import Closeable

RunStatus: TypeAlias = Literal["running", "answered", "abstained"]


@dataclass(frozen=True, slots=True)
class RunSummary:
    """One line of a store's run listing."""

    run_id: str
    question: str
    status: RunStatus
    events: int
    started_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event with its position in the store's global order (for tailing every run)."""

    position: int
    event: Event


@runtime_checkable
class EventStore(Closeable, Protocol):
    """An append-only log of runs. Every method is safe to call from many tasks at once."""

    @property
    def url(self) -> str:
        """The URL this store was opened from, with any secret redacted."""
        ...

    async def append(self, run_id: str, events: Sequence[Event], expected_seq: int) -> None:
        """Append a batch atomically, once durable at the store's durability setting.

        `expected_seq` is the seq of the batch's first event, which must equal the
        number of events the run already has. Otherwise `ConcurrencyError` is raised
        and nothing is written.
        """
        ...

    async def read(self, run_id: str, after: int = -1) -> list[Event]:
        """The run's events with `seq > after`, in order (empty for an unknown run)."""
        ...

    async def runs(self) -> list[RunSummary]:
        """Every stored run, oldest first."""
        ...

    def subscribe(self, run_id: str, after: int = -1) -> AsyncIterator[Event]:
        """The run's stored events with `seq > after`, then live ones; ends after the terminal event."""
        ...

    def subscribe_all(self, after: int = -1) -> AsyncIterator[StoredEvent]:
        """Every run's events with global `position > after`, then live ones; never ends by itself."""
        ...

    async def head_position(self) -> int:
        """The position of the newest event `subscribe_all` can return now, -1 when none.

        `subscribe_all(await store.head_position())` follows only what is stored after the
        call, without reading the store's history first (a live tail, the viewer's list).
        """
        ...


def check_batch(run_id: str, events: Sequence[Event], expected_seq: int) -> None:
    """Refuse a batch that is malformed in itself (the caller's bug, not a conflict)."""
    if not events:
        raise UsageError("append needs at least one event")
    for offset, event in enumerate(events):
        if event.run_id != run_id:
            raise UsageError(f"event for run {event.run_id!r} appended to run {run_id!r}")
        if event.seq != expected_seq + offset:
            raise UsageError(
                f"run {run_id!r}: batch seqs must run from {expected_seq} without gaps, "
                f"got {event.seq} at offset {offset}"
            )
    if any(event.type in TERMINAL_TYPES for event in events[:-1]):
        raise UsageError(f"run {run_id!r}: a terminal event must be the last of its run")
    if expected_seq == 0 and run_started(events) is None:
        raise UsageError(f"run {run_id!r}: the first event must be RunStarted (or Forked, then RunStarted)")


def run_started(events: Sequence[Event]) -> RunStarted | None:
    """The `RunStarted` that opens a log (or its first batch): seq 0, or seq 1 after a `Forked`.

    A forked run begins with `Forked` and then the parent's `RunStarted`, copied
    (docs/events.md, "Forking"); None when `events` opens no run.
    """
    if events and isinstance(events[0], Forked):
        events = events[1:]
    return events[0] if events and isinstance(events[0], RunStarted) else None


def status_after(events: Sequence[Event], current: RunStatus = "running") -> RunStatus:
    """The run status once `events` are appended to a run whose status is `current`."""
    status = current
    for event in events:
        if event.type == "Answered":
            status = "answered"
        elif event.type == "Abstained":
            status = "abstained"
    return status
