"""The two roots of citeloop's errors: a caller's mistake, and a failure during a run.

Expected outcomes of a run (a rejected finish, a failed open, a spent budget) are
events, never exceptions. Exceptions are for misuse and for infrastructure failures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._events import Event


class CiteloopError(Exception):
    """Base of every exception citeloop raises on purpose."""


class UsageError(CiteloopError):
    """Raised when the caller asked for something that cannot work (bad configuration)."""


class StoreURLError(UsageError):
    """Raised when a store URL has an unknown scheme or a malformed path."""


class UnknownRunError(UsageError):
    """Raised when a run id is not in the store."""


class RunFailure(CiteloopError):
    """Base of failures that happen while a run or a store is working."""


class StoreUnavailableError(RunFailure):
    """Raised when the store cannot be opened, read or written (I/O, corruption, a lost server)."""


class CorruptLogError(StoreUnavailableError):
    """Raised when a stored log cannot be decoded or repaired without losing acknowledged events."""


class TamperedLogError(CorruptLogError):
    """Raised when a run read from a store breaks its hash chain: an event does not name its predecessor.

    `events` holds what was read, for a caller that wants to judge it anyway (`verify`, `check`).
    """

    def __init__(
        self, store: str, run_id: str, seq: int, reason: str, events: tuple[Event, ...] = ()
    ) -> None:
        super().__init__(f"{store}: run {run_id!r}: hash chain broken at seq {seq} ({reason})")
        self.store = store
        self.run_id = run_id
        self.seq = seq
        self.reason = reason
        self.events = events


class ConcurrencyError(RunFailure):
    """Raised when an append names a sequence number another writer has already taken.

    Nothing of the conflicting batch is written.
    """

    def __init__(self, run_id: str, expected_seq: int, actual_seq: int) -> None:
        super().__init__(
            f"run {run_id!r}: append expected next seq {expected_seq}, "
            f"but the log is at {actual_seq} (another writer appended first)"
        )
        self.run_id = run_id
        self.expected_seq = expected_seq
        self.actual_seq = actual_seq


class RunClosedError(RunFailure):
    """Raised when an append targets a run that has ended (a terminal event is stored); nothing is written."""

    def __init__(self, run_id: str) -> None:
        super().__init__(
            f"run {run_id!r} has ended (its terminal event is stored): it accepts no further appends"
        )
        self.run_id = run_id


class LeaseLostError(RunFailure):
    """Raised when a worker renews, or would append to, a run whose lease it no longer holds."""

    def __init__(self, run_id: str) -> None:
        super().__init__(f"run {run_id!r}: this worker's lease has expired or was taken over")
        self.run_id = run_id


class RunBusyError(RunFailure):
    """Raised when a run is already being driven (by another process, or another task) and cannot be taken."""
