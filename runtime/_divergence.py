"""What `check` reports: each divergence it finds, how one names an event, and the report.

A divergence names the recorded event and what today's code gives instead by the
decision each stands for (`describe_event`), never by its timestamp, so a report reads
the same whenever it is made.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from citeloop.events import (
    Abstained,
    ActionParsed,
    Answered,
    ChainStatus,
    ClaimAssessed,
    Event,
    FinishRejected,
    Forked,
    ParseRejected,
    RunStarted,
    Support,
    ToolDispatched,
    ToolObserved,
    ToolOutcomeUnknown,
)

DivergenceKind = Literal[
    "parse",  # today's parser reads a recorded reply differently
    "gate",  # today's gate gives a finish another verdict
    "locators",  # an accepted answer's locators are not where today's code puts them
    "answer",  # a recorded answer, its citations, evidence or digest differ from its finish
    "dispatch",  # a recorded dispatch or observation differs from what its action decides
    "recovery",  # what a stopped process's dispatch became differs from today's rule
    "digest",  # an opened page's body no longer matches its recorded sha256
    "unexplained",  # an event that no recorded input decides (a forged or spliced log)
    "incomplete",  # the log ends (or the next event differs) where a decision had more to record
    "sequence",  # events that cannot belong to one run in this order
    "chain",  # an event does not name the sha256 of its predecessor (an edited, spliced or forged log)
    "lineage",  # a fork's copied prefix or its Forked is not what its parent's log gives
]


@dataclass(frozen=True, slots=True)
class Divergence:
    """One step where today's code decides differently from what the log recorded."""

    seq: int
    step: int
    kind: DivergenceKind
    recorded: str
    today: str


# What `check` could say of a run's lineage: "unforked" (not a fork), "checked" (its parent's
# log was given: its `Forked` and copied prefix were judged against it, any difference being a
# `lineage` divergence) or "parent_missing" (a fork whose parent's log is not in the store: its
# lineage could not be checked, which is said, not taken as agreement).
LineageStatus = Literal["unforked", "checked", "parent_missing"]


@dataclass(frozen=True, slots=True)
class CheckReport:
    """The result of `check`: empty `divergences` means today's code agrees with the log.

    `lineage` says whether a fork's lineage was checked (`LineageStatus`): a fork whose
    parent is missing has nothing to diverge from there, but is reported `parent_missing`.
    """

    run_id: str
    events: int
    divergences: tuple[Divergence, ...] = field(default=())
    # "chained", "unchained" (written before the chain: nothing to check) or "broken".
    chain: ChainStatus = "unchained"
    lineage: LineageStatus = "unforked"

    @property
    def ok(self) -> bool:
        return not self.divergences

    @property
    def chained(self) -> bool:
        """Whether the run carries a hash chain at all (a broken one included)."""
        return self.chain != "unchained"

    def to_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "events": self.events,
            "ok": self.ok,
            "chain": self.chain,
            "lineage": self.lineage,
            "divergences": [
                {"seq": d.seq, "step": d.step, "kind": d.kind, "recorded": d.recorded, "today": d.today}
                for d in self.divergences
            ],
        }


def event_step(event: Event) -> int:
    """The step a divergence at `event` is reported at (a `RunStarted` has none: 0)."""
    return event.step if not isinstance(event, RunStarted) else 0


def describe_event(event: Event) -> str:
    """An event as a divergence report names it: the decision, not its timestamp."""
    match event:
        case ParseRejected():
            return f"rejected: {event.code}"
        case ActionParsed():
            return f"action: {event.action.model_dump_json()}"
        case FinishRejected():
            return f"rejected: {event.code}{_verdicts(event.support)}"
        case Answered():
            return f"accepted{_verdicts(event.support)}"
        case Abstained():
            return f"abstained: {event.reason}"
        case ToolDispatched():
            return f"dispatch {event.call_id} {event.tool}({event.input!r}) read_only={event.read_only}"
        case ToolObserved():
            return f"observed {event.tool}({event.input!r}): {event.observation.kind}"
        case ToolOutcomeUnknown():
            return f"outcome unknown: {event.tool}({event.input!r})"
        case RunStarted():
            return "run started"
        case ClaimAssessed():
            return f"claim {event.index}: {event.verdict} ({event.method}: {event.detail})"
        case Forked():
            return f"forked from {event.parent_run_id} at step {event.at_step}"
    return event.type


def _verdicts(support: tuple[Support, ...]) -> str:
    if not support:
        return ""
    return " (" + ", ".join(f"{verdict.method}: {verdict.verdict}" for verdict in support) + ")"
