"""`RunState`: everything the runtime knows about a run, as a frozen value folded from its log."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Literal, NamedTuple, TypeAlias

from citeloop.events import (
    Abstained,
    AbstainReason,
    ActionParsed,
    AdmittedSource,
    Answered,
    Calculation,
    ClaimAssessed,
    Event,
    Hit,
    Page,
    TextRepresentation,
    ToolDispatched,
    ToolSpec,
)

from ._report_state import ReportState

# A page this run opened successfully: the `Page` observation itself, with the sha256
# recorded when it was opened, so reopening never hashes a body again.
OpenedPage: TypeAlias = Page


def normalize_query(query: str) -> str:
    """Two searches are 'the same' when they differ only in case and white space."""
    return " ".join(query.casefold().split())


_NO_ENTRIES: Mapping[str, Any] = MappingProxyType({})

# Where a run stands, read off its log (docs/events.md, the lifecycle): `queued` (only its
# start is recorded), `running`, or how it ended: `answered`, `abstained` (a grounded
# refusal), `cancelled`, or `failed` (its policy failed, or a tool was unavailable).
LifecycleStatus: TypeAlias = Literal[
    "queued", "running", "waiting", "answered", "abstained", "cancelled", "failed"
]

# Tool errors that say the tool could not do its work, not that what was asked is not there.
UNAVAILABLE_TOOL_CODES: frozenset[str] = frozenset({"timeout", "tool_raised"})

# A run's events after its start, grouped by step in log order: one tuple per step,
# beginning with the policy reply's event when there was one. The policy's view and the
# `show` timeline are both rendered from it, so a step is folded once for everyone.
StepEvents: TypeAlias = tuple[Event, ...]


class RunState(NamedTuple):
    """The fold of a run's events: an immutable value. Build it with `fold`; never by hand.

    A NamedTuple rather than a frozen dataclass because a reopen builds one per run and the
    loop one per append: a frozen dataclass's `__init__` costs several times more.
    """

    run_id: str = ""
    question: str = ""
    max_steps: int = 0
    allowlist: tuple[str, ...] = ()
    tools: Mapping[str, ToolSpec] = _NO_ENTRIES
    policy: str = ""
    # The support methods a positive finish is held to, by name (RunStarted.support).
    support: tuple[str, ...] = ()
    next_seq: int = 0
    steps: int = 0
    opened: Mapping[str, Page] = _NO_ENTRIES
    searched: Mapping[str, tuple[Hit, ...]] = _NO_ENTRIES
    open_attempts: int = 0
    open_failures: int = 0
    hits_seen: int = 0
    rejections: int = 0
    parse_rejections: int = 0
    # Tool calls that came back unavailable (UNAVAILABLE_TOOL_CODES): an abstention after one is `failed`.
    unavailable: int = 0
    pending: Mapping[str, ToolDispatched] = _NO_ENTRIES
    failed_opens: frozenset[str] = frozenset()
    by_step: tuple[StepEvents, ...] = ()
    # A parsed action whose consequence (dispatch, observation, gate verdict) is not in the
    # log yet: the process stopped in between, and resume must carry it out, not ask again.
    unhandled: ActionParsed | None = None
    outcome: Answered | Abstained | None = None
    # Sources admitted besides opened pages (attachments), by id (SourceAdmitted).
    sources: Mapping[str, AdmittedSource] = _NO_ENTRIES
    # The research plan a complete answer must settle (RunStarted.plan).
    plan: tuple[str, ...] = ()
    # The results of the `calculate` tool, by calculation id (docs/evidence.md).
    calculations: Mapping[str, Calculation] = _NO_ENTRIES
    # The claim verdicts of the latest finish that carried claims, in claim order.
    claims: tuple[ClaimAssessed, ...] = ()
    # The run this one was forked from, and at which step (Forked); "" when not forked.
    parent_run_id: str = ""
    forked_at: int = 0
    # A report run's phase after its research (RunStarted.report); None for an ordinary run.
    report: ReportState | None = None

    @property
    def started(self) -> bool:
        return self.next_seq > 0

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    @property
    def status(self) -> LifecycleStatus:
        """The one place a run's status is derived (docs/events.md, the lifecycle)."""
        outcome = self.outcome
        if outcome is None:
            if self.report is not None and self.report.waiting:
                return "waiting"
            return "queued" if self.next_seq <= 1 else "running"
        if isinstance(outcome, Answered):
            return "answered"
        if outcome.reason == "cancelled":
            return "cancelled"
        if outcome.reason == "policy_error" or self.unavailable:
            return "failed"
        return "abstained"

    @property
    def repair_used(self) -> bool:
        """Whether the one repair turn is spent: derived from the count of rejected finishes."""
        return self.rejections >= 1

    @property
    def budget_spent(self) -> bool:
        return self.steps >= self.max_steps

    def opened_bodies(self) -> dict[str, str]:
        """The gate's view: each successfully opened URL, and each text attachment, mapped to its text.

        An attachment whose representation is not text (a PDF, a table) is cited through a
        claim's locators of its own kind, never as one flat text (docs/evidence.md).
        """
        bodies = {url: page.body for url, page in self.opened.items()}
        for source_id, source in self.sources.items():
            if isinstance(source.representation, TextRepresentation):
                bodies[source_id] = source.representation.text
        return bodies

    def citable(self) -> dict[str, tuple[str, str]]:
        """Each citable text (`opened_bodies`) mapped to `(text, sha256 of that text)`."""
        pages = {url: (page.body, page.sha256) for url, page in self.opened.items()}
        for source_id, source in self.sources.items():
            if isinstance(source.representation, TextRepresentation):
                pages[source_id] = (source.representation.text, source.representation.sha256)
        return pages

    def own_abstain_reason(self, asked: AbstainReason | None = None) -> AbstainReason:
        """The reason for a policy's own abstention, read off what the run did (docs/gate.md).

        `asked` is the reason the finish asked for (its `abstain` hint: `missing_fact`,
        `low_confidence` or `conflicting_sources`). What the log shows wins over it: with
        nothing opened the reason is `not_found` or `no_hits`, and `conflicting_sources`
        needs two opened pages (else `missing_fact`).
        """
        if not self.opened and self.open_attempts and self.open_failures == self.open_attempts:
            return "not_found"
        if not self.opened and self.hits_seen == 0:
            return "no_hits"
        if asked == "conflicting_sources" and len(self.opened) < 2:
            return "missing_fact"
        return asked or "missing_fact"
