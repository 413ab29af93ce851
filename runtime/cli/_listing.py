"""`citeloop runs`: which stored runs to list, newest first, with the status the fold derives.

The store's listing (`EventStore.runs`) says only whether a run ended and how in broad
terms (`running`, `answered`, `abstained`); the lifecycle status (`queued`, `cancelled`,
`failed`, ...) and the answer are read off each listed run's fold, so only the runs that
can still match are read, and no more than the limit once it is reached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from citeloop.events import EventStore, RunSummary
from citeloop.runtime import LifecycleStatus, fold

from ._errors import CliError

# The store's broad status of a run, for each lifecycle status: what a filter can skip unread.
_BROAD: dict[str, str] = {
    "queued": "running",
    "running": "running",
    "answered": "answered",
    "abstained": "abstained",
    "cancelled": "abstained",
    "failed": "abstained",
}
STATUSES: tuple[str, ...] = tuple(_BROAD)
_SPAN = re.compile(r"(\d+)\s*([smhdw])")
_UNIT = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_since(text: str | None, now: datetime | None = None) -> datetime | None:
    """`--since`: a span back from now (`30m`, `2h`, `7d`, `2w`) or an ISO date or time (UTC unless given)."""
    if text is None:
        return None
    now = now or datetime.now(UTC)
    span = _SPAN.fullmatch(text.strip().lower())
    if span:
        return now - timedelta(**{_UNIT[span.group(2)]: int(span.group(1))})
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        expected = "a span (30m, 2h, 7d, 2w) or a date (2025-05-01)"
        raise CliError(f"--since {text!r}: expected {expected}") from None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def parse_statuses(given: list[str] | None) -> frozenset[str]:
    """`--status` values, each one of `STATUSES`."""
    unknown = [status for status in given or () if status not in _BROAD]
    if unknown:
        raise CliError(f"--status {unknown[0]!r}: expected one of {', '.join(STATUSES)}")
    return frozenset(given or ())


@dataclass(frozen=True)
class RunQuery:
    limit: int = 20
    statuses: frozenset[str] = frozenset()
    since: datetime | None = None
    grep: str | None = None


@dataclass(frozen=True)
class RunRow:
    """One listed run: its summary and what its fold says."""

    summary: RunSummary
    status: LifecycleStatus
    answer: str
    reason: str | None
    steps: int

    def to_json(self) -> dict[str, Any]:
        run = self.summary
        return {
            "run_id": run.run_id,
            "status": self.status,
            "question": run.question,
            "answer": self.answer,
            "reason": self.reason,
            "steps": self.steps,
            "events": run.events,
            "started_at": run.started_at.isoformat(),
            "updated_at": run.updated_at.isoformat(),
        }


async def list_runs(store: EventStore, query: RunQuery) -> list[RunRow]:
    """The runs `query` selects, most recently recorded first, at most `query.limit` (0: all)."""
    broad = {_BROAD[status] for status in query.statuses}
    needle = query.grep.casefold() if query.grep else None
    rows: list[RunRow] = []
    # Newest first: the reverse of the order the store recorded them in (a continued run
    # carries its predecessor's start time, so its time alone would misplace it).
    for run in reversed(await store.runs()):
        if query.since is not None and run.started_at < query.since:
            continue
        if broad and run.status not in broad:
            continue
        state = fold(await store.read(run.run_id))
        if query.statuses and state.status not in query.statuses:
            continue
        outcome = state.outcome
        answer = outcome.answer if outcome is not None else ""
        if needle is not None and needle not in run.question.casefold() and needle not in answer.casefold():
            continue
        reason = getattr(outcome, "reason", None)
        rows.append(RunRow(run, state.status, answer, reason, state.steps))
        if query.limit and len(rows) >= query.limit:
            break
    return rows
