"""What the pages show, read off a store: the run list and one run (timeline, evidence, check).

Nothing here writes: the store is opened read-only by the app, and these only read and fold.
The timeline and the run list are the ones `citeloop show` and `citeloop runs` print (one
reading of a log for the terminal and the browser alike).
"""

from __future__ import annotations

from dataclasses import dataclass

from citeloop.events import TERMINAL_TYPES, Abstained, Answered, EventStore
from citeloop.runtime import CheckReport, check_events
from citeloop.runtime.cli._listing import RunQuery, RunRow, list_runs
from citeloop.runtime.cli._timeline import Timeline, build_timeline
from citeloop.runtime.cli._verify import read_judged

from ._bodies import Evidence, evidence


@dataclass(frozen=True, slots=True)
class RunPage:
    """Everything one run's page shows."""

    timeline: Timeline
    evidence: Evidence
    check: CheckReport
    finished: bool
    last_seq: int

    @property
    def answered(self) -> Answered | None:
        final = self.timeline.final
        return final if isinstance(final, Answered) else None

    @property
    def abstained(self) -> Abstained | None:
        final = self.timeline.final
        return final if isinstance(final, Abstained) else None


async def load_run(store: EventStore, ref: str) -> RunPage:
    """One run by id, unique prefix or `last`; a log that breaks its chain is shown, and `check` says so."""
    events = await read_judged(store, ref)
    return RunPage(
        timeline=build_timeline(events),
        evidence=evidence(events),
        check=check_events(events),
        finished=events[-1].type in TERMINAL_TYPES,
        last_seq=events[-1].seq,
    )


async def load_runs(store: EventStore, query: RunQuery) -> list[RunRow]:
    """The runs a list page shows, newest first."""
    return await list_runs(store, query)
