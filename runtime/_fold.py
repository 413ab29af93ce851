"""The fold: a run's state is a pure function of its events (no I/O, clock or randomness)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Final, TypeVar, assert_never

from citeloop.events import (
    Abstained,
    ActionParsed,
    AlreadySearched,
    Answered,
    Calculation,
    ClaimAssessed,
    DraftValidated,
    DraftWritten,
    Event,
    FinishRejected,
    Forked,
    Hit,
    Page,
    ParseRejected,
    ResearchEnded,
    ReviewGiven,
    ReviewRequested,
    RunStarted,
    SearchHits,
    SourceAdmitted,
    Text,
    ToolDispatched,
    ToolError,
    ToolObserved,
    ToolOutcomeUnknown,
    ToolSpec,
)

from ._report_state import ReportState
from ._state import UNAVAILABLE_TOOL_CODES, RunState, StepEvents, normalize_query

_V = TypeVar("_V")
_FRESH: Final = RunState()
# The events before a run's first step (a tuple of classes: `A | B` would build a union on every call).
_UNSTEPPED: Final = (RunStarted, SourceAdmitted, Forked)
_new_state: Final = tuple.__new__


class FoldError(ValueError):
    """Raised when events cannot belong to one run (wrong run id, a seq out of order)."""


def _owned(mapping: Mapping[str, _V]) -> dict[str, _V]:
    return dict(mapping)


class _Builder:
    """Mutable scratch space so folding n events costs O(n), not O(n^2) copies of the maps.

    The maps are copied on first write only: folding one event into a state (the loop
    does it on every append) copies just the map that event changes. This is the hot
    path of every reopen (docs/benchmarks.md, B4), hence the plain attributes and flags.
    """

    __slots__ = (
        "allowlist",
        "by_step",
        "by_step_owned",
        "calculations",
        "claims",
        "failed_opens",
        "forked_at",
        "hits_seen",
        "max_steps",
        "next_seq",
        "open_attempts",
        "open_failures",
        "opened",
        "opened_owned",
        "outcome",
        "parent_run_id",
        "parse_rejections",
        "pending",
        "pending_owned",
        "plan",
        "policy",
        "question",
        "rejections",
        "report",
        "run_id",
        "searched",
        "searched_owned",
        "sources",
        "steps",
        "support",
        "tools",
        "unavailable",
        "unhandled",
    )

    def __init__(self, state: RunState) -> None:
        self.tools: Mapping[str, ToolSpec]
        self.opened: Mapping[str, Page]
        self.searched: Mapping[str, tuple[Hit, ...]]
        self.pending: Mapping[str, ToolDispatched]
        self.by_step: Sequence[StepEvents]
        # One unpacking of the tuple, in RunState's field order; `freeze` builds it back in
        # the same order (tests/runtime/test_fold_properties.py holds both to `_fields`).
        (
            self.run_id,
            self.question,
            self.max_steps,
            self.allowlist,
            self.tools,
            self.policy,
            self.support,
            self.next_seq,
            self.steps,
            self.opened,
            self.searched,
            self.open_attempts,
            self.open_failures,
            self.hits_seen,
            self.rejections,
            self.parse_rejections,
            self.unavailable,
            self.pending,
            self.failed_opens,
            self.by_step,
            self.unhandled,
            self.outcome,
            self.sources,
            self.plan,
            self.calculations,
            self.claims,
            self.parent_run_id,
            self.forked_at,
            self.report,
        ) = state
        self.opened_owned = self.searched_owned = self.pending_owned = self.by_step_owned = False

    def _pending(self) -> dict[str, ToolDispatched]:
        if not self.pending_owned:
            self.pending = _owned(self.pending)
            self.pending_owned = True
        return self.pending  # type: ignore[return-value]

    def apply(self, event: Event) -> None:
        if event.seq != self.next_seq:
            raise FoldError(f"expected seq {self.next_seq}, got {event.seq} ({event.type})")
        if self.next_seq and event.run_id != self.run_id:
            raise FoldError(f"event of run {event.run_id!r} in run {self.run_id!r}")
        self.next_seq += 1
        if not isinstance(event, _UNSTEPPED):
            self._trace(event)
        # The cases are ordered by how often they occur in a log.
        match event:
            case ToolObserved():
                self.unhandled = None
                if event.call_id is not None:
                    self._pending().pop(event.call_id, None)
                self._observe(event)
            case ActionParsed():
                self.steps += 1
                self.unhandled = event
                report = self.report
                if report is not None and report.research is not None:  # a reviewer's lookup
                    self.report = report._replace(lookups=report.lookups + 1)
            case ToolDispatched():
                self.unhandled = None
                self._pending()[event.call_id] = event
            case RunStarted():
                self.run_id = event.run_id
                self.question = event.question
                self.max_steps = event.max_steps
                self.allowlist = event.allowlist
                if not self.parent_run_id:  # a fork goes on with the policy its Forked names
                    self.policy = event.policy
                self.support = event.support
                self.plan = event.plan
                self.tools = MappingProxyType({spec.name: spec for spec in event.tools})
                self.report = ReportState(event.report) if event.report is not None else None
            case Answered() | Abstained():
                self.unhandled = None
                self.outcome = event
            case ParseRejected():
                self.steps += 1
                self.parse_rejections += 1
            case FinishRejected():
                self.unhandled = None
                self.rejections += 1
            case ToolOutcomeUnknown():
                self._pending().pop(event.call_id, None)
            case ClaimAssessed():
                # A finish's claims arrive together, numbered from 1: a new finish starts a new list.
                self.claims = (event,) if event.index == 1 else (*self.claims, event)
            case SourceAdmitted():
                self.sources = MappingProxyType({**self.sources, event.source.id: event.source})
            case Forked():
                self.run_id = event.run_id
                self.parent_run_id = event.parent_run_id
                self.forked_at = event.at_step
                self.policy = event.policy
            case ResearchEnded() | DraftWritten() | DraftValidated() | ReviewRequested() | ReviewGiven():
                self._report_event(event)
            case _:
                assert_never(event)

    def _report_event(
        self, event: ResearchEnded | DraftWritten | DraftValidated | ReviewRequested | ReviewGiven
    ) -> None:
        report = self.report
        if report is None:
            raise FoldError(f"{event.type} in run {self.run_id!r}, which is not a report run")
        match event:
            case ResearchEnded():
                self.unhandled = None
                self.report = report._replace(research=event)
            case DraftWritten():
                self.report = report._replace(drafts=(*report.drafts, event), lookups=0)
            case DraftValidated():
                self.report = report._replace(validations=(*report.validations, event))
            case ReviewRequested():
                self.report = report._replace(requested=event)
            case ReviewGiven():
                # A human's REVISE at the cap lifts it by one revision (docs/reports.md, "Routing").
                lifts = event.verdict == "REVISE" and event.by.startswith("human") and report.at_cap
                self.report = report._replace(reviews=(*report.reviews, event), lifted=report.lifted + lifts)
            case _:
                assert_never(event)

    def _trace(self, event: Event) -> None:
        if not self.by_step_owned:
            self.by_step = list(self.by_step)
            self.by_step_owned = True
        groups: list[StepEvents] = self.by_step  # type: ignore[assignment]
        step = event.step  # type: ignore[union-attr]  # every event but RunStarted has one
        if groups and groups[-1][0].step == step:  # type: ignore[union-attr]
            groups[-1] += (event,)
        else:
            groups.append((event,))

    def _observe(self, event: ToolObserved) -> None:
        observation = event.observation
        match observation:
            case Page():
                self.open_attempts += 1
                if not self.opened_owned:
                    self.opened = _owned(self.opened)
                    self.opened_owned = True
                # The observation itself is kept: its digest was computed once, when opened.
                self.opened[observation.url] = observation  # type: ignore[index]
            case SearchHits():
                if not self.searched_owned:
                    self.searched = _owned(self.searched)
                    self.searched_owned = True
                self.searched[normalize_query(observation.query)] = observation.hits  # type: ignore[index]
                self.hits_seen += len(observation.hits)
            case ToolError():
                if observation.code in UNAVAILABLE_TOOL_CODES:
                    self.unavailable += 1
                if event.tool == "open":
                    self.open_attempts += 1
                    self.open_failures += 1
                    self.failed_opens = self.failed_opens | {event.input}
            case Calculation():
                # Only the log's own `calculate` answer (no dispatch) under its step's id counts:
                # a calculation in any other observation is never a premise.
                own = event.call_id is None and observation.id == f"calc:{event.step}"
                if own and event.tool == "calculate":
                    self.calculations = MappingProxyType({**self.calculations, observation.id: observation})
            case AlreadySearched() | Text():
                pass
            case _:
                assert_never(observation)

    def freeze(self) -> RunState:
        # Positional, through tuple.__new__: RunState's keyword __new__ would bind 28 names.
        return _new_state(
            RunState,
            (
                self.run_id,
                self.question,
                self.max_steps,
                self.allowlist,
                self.tools,
                self.policy,
                self.support,
                self.next_seq,
                self.steps,
                MappingProxyType(self.opened) if self.opened_owned else self.opened,
                MappingProxyType(self.searched) if self.searched_owned else self.searched,
                self.open_attempts,
                self.open_failures,
                self.hits_seen,
                self.rejections,
                self.parse_rejections,
                self.unavailable,
                MappingProxyType(self.pending) if self.pending_owned else self.pending,
                self.failed_opens,
                tuple(self.by_step) if self.by_step_owned else self.by_step,
                self.unhandled,
                self.outcome,
                self.sources,
                self.plan,
                self.calculations,
                self.claims,
                self.parent_run_id,
                self.forked_at,
                self.report,
            ),
        )


def fold(events: Iterable[Event], state: RunState | None = None) -> RunState:
    """Fold events into a run state, starting from `state` (a fresh run by default).

    `fold(a + b) == fold(b, fold(a))` for every split of a run's log.
    """
    builder = _Builder(state if state is not None else _FRESH)
    for event in events:
        builder.apply(event)
    return builder.freeze()


def apply(state: RunState, event: Event) -> RunState:
    """One step of the fold."""
    return fold((event,), state)
