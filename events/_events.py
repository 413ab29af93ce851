"""The event vocabulary: one discriminated union of frozen, past-tense facts about a run.

The base every event shares is in `_event_base`; a report run's own events in `_report_events`.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal, TypeAlias

from pydantic import Field, JsonValue, TypeAdapter

from ._actions import Action
from ._event_base import Locator, PolicyReply, Support, SupportVerdict, ToolSpec, _empty, _Event
from ._evidence import AdmittedSource, ClaimPremise, EvidenceClass
from ._observations import Observation
from ._report_events import (
    DraftValidated,
    DraftWritten,
    ReportRules,
    ResearchEnded,
    ReviewGiven,
    ReviewRequested,
)

AbstainReason: TypeAlias = Literal[
    "no_hits",
    "not_found",
    "missing_fact",
    "budget",
    "invalid_finish",
    "policy_error",
    "cancelled",
    "low_confidence",
    "conflicting_sources",
    "unsupported_claims",
    "insufficient_grounding",
]


class RunStarted(_Event):
    """A run began: the question and the rules it will be held to."""

    type: Literal["RunStarted"] = "RunStarted"
    question: str
    max_steps: int = Field(ge=1)
    tools: tuple[ToolSpec, ...]
    allowlist: tuple[str, ...]
    policy: str
    meta: dict[str, JsonValue] = Field(default_factory=dict)
    # The support methods a positive finish is held to, by name (docs/gate.md, "Support").
    # Empty in a log written before support was checked: left out of the encoding then, so
    # such a log keeps its bytes and replays as it was decided (no support check).
    support: tuple[str, ...] = Field(default=(), exclude_if=_empty)
    # The research plan: the items (claims or sub-questions) a complete answer must settle,
    # given by the user (docs/evidence.md, "Completion"). Left out of the encoding when empty.
    plan: tuple[str, ...] = Field(default=(), exclude_if=_empty)
    # Set for a report run (docs/reports.md): how its drafts are reviewed and capped.
    report: ReportRules | None = Field(default=None, exclude_if=lambda value: value is None)


class SourceAdmitted(_Event):
    """A source the run admitted besides opened pages (an attachment): recorded once, before step 1."""

    type: Literal["SourceAdmitted"] = "SourceAdmitted"
    step: int = 0
    source: AdmittedSource


class Forked(_Event):
    """The first event of a run forked from another at a step: which run, which step (docs/events.md).

    The fork keeps the parent's first `at_step` steps: its events up to `parent_seq`, copied
    after this one. `parent_head` is the chain hash of the parent's event at `parent_seq`, so
    the lineage can be checked against the parent's log; `policy` names the policy the fork
    goes on with (the copied `RunStarted` names the parent's).
    """

    type: Literal["Forked"] = "Forked"
    step: int = 0
    parent_run_id: str
    at_step: int = Field(ge=0)
    parent_seq: int = Field(ge=0)
    parent_head: str
    policy: str


class ActionParsed(_Event):
    """A policy reply passed the strict parser."""

    type: Literal["ActionParsed"] = "ActionParsed"
    step: int
    reply: PolicyReply
    thought: str
    action: Action


class ParseRejected(_Event):
    """A policy reply failed the strict parser; the policy sees `protocol error: <code>`."""

    type: Literal["ParseRejected"] = "ParseRejected"
    step: int
    reply: PolicyReply
    code: str
    detail: str = ""


class ToolDispatched(_Event):
    """A tool call. For a tool of unknown effect, durable before the tool starts; a read-only
    tool's call is appended with its `ToolObserved`, in one batch, after the tool returns."""

    type: Literal["ToolDispatched"] = "ToolDispatched"
    step: int
    call_id: str
    tool: str
    input: str
    read_only: bool


class ToolObserved(_Event):
    """What a tool call returned. `call_id` is None for a search answered from the log."""

    type: Literal["ToolObserved"] = "ToolObserved"
    step: int
    call_id: str | None
    tool: str
    input: str
    observation: Observation


class ToolOutcomeUnknown(_Event):
    """After a crash, a dispatched tool of unknown effect was not run again; its outcome is unknown."""

    type: Literal["ToolOutcomeUnknown"] = "ToolOutcomeUnknown"
    step: int
    call_id: str
    tool: str
    input: str


class FinishRejected(_Event):
    """A finish failed the grounding gate; the policy sees `finish rejected: <code>`."""

    type: Literal["FinishRejected"] = "FinishRejected"
    step: int
    code: str
    payload: dict[str, JsonValue]
    # The support verdicts when the support check rejected the finish (`unsupported_answer`).
    support: tuple[Support, ...] = Field(default=(), exclude_if=_empty)


class ClaimAssessed(_Event):
    """One claim of a finish and its verdict: the premises as located, the method that judged it.

    `index` counts the finish's claims from 1; `item` is the plan item it settles, if any.
    A claim whose premise did not locate is `unsupported` under the method `locator`.
    """

    type: Literal["ClaimAssessed"] = "ClaimAssessed"
    step: int
    index: int
    text: str
    claimed_class: EvidenceClass
    method: str
    premises: tuple[ClaimPremise, ...]
    verdict: SupportVerdict
    detail: str = ""
    item: int | None = Field(default=None, exclude_if=lambda value: value is None)


class Answered(_Event):
    """Terminal: a finish passed the gate. One locator per evidence span."""

    type: Literal["Answered"] = "Answered"
    step: int
    answer: str
    citations: tuple[str, ...]
    # One quote, or (a multi-quote finish) several, each located in a cited source.
    evidence: str | tuple[str, ...]
    locators: tuple[Locator, ...]
    answer_sha256: str
    # One verdict per support method that judged the answer; empty (and left out of the
    # encoding) in a run that checks no support, as every run written before it did.
    support: tuple[Support, ...] = Field(default=(), exclude_if=_empty)
    # The class of each locator's source, in `locators` order; empty in a log written before
    # classes were recorded (all of it `retrieved` then).
    evidence_classes: tuple[EvidenceClass, ...] = Field(default=(), exclude_if=_empty)
    # Plan items (1-based) the answer discloses as unsettled: equal to the completion matrix's gaps.
    gaps: tuple[int, ...] = Field(default=(), exclude_if=_empty)
    # How the answer was accepted when it was not the plain way: a report accepted at its
    # revision cap says so here (docs/reports.md). Left out of the encoding when empty.
    note: str = Field(default="", exclude_if=lambda value: not value)


class Abstained(_Event):
    """Terminal: the run cannot answer. `answer` starts with `cannot:`."""

    type: Literal["Abstained"] = "Abstained"
    step: int
    reason: AbstainReason
    answer: str
    detail: str = ""
    # `low_confidence` / `conflicting_sources` asked by the policy's finish (docs/gate.md):
    # the candidate answer it did not trust and its score. Left out of the encoding when None.
    candidate: str | None = Field(default=None, exclude_if=lambda value: value is None)
    score: float | None = Field(default=None, exclude_if=lambda value: value is None)


Event = Annotated[
    RunStarted
    | SourceAdmitted
    | Forked
    | ActionParsed
    | ParseRejected
    | ToolDispatched
    | ToolObserved
    | ToolOutcomeUnknown
    | FinishRejected
    | ClaimAssessed
    | ResearchEnded
    | DraftWritten
    | DraftValidated
    | ReviewRequested
    | ReviewGiven
    | Answered
    | Abstained,
    Field(discriminator="type"),
]

TERMINAL_TYPES: Final = frozenset({"Answered", "Abstained"})

_EVENT: Final[TypeAdapter[Event]] = TypeAdapter(Event)
_EVENTS: Final[TypeAdapter[list[Event]]] = TypeAdapter(list[Event])


def encode_event(event: Event) -> bytes:
    """The canonical JSON bytes of one event."""
    return event.__pydantic_serializer__.to_json(event)


def decode_event(data: bytes | str) -> Event:
    """Decode and validate one event from its JSON."""
    return _EVENT.validate_json(data)


def decode_events(rows: list[bytes]) -> list[Event]:
    """Decode many stored rows in one validator call (much cheaper than one call per row)."""
    if not rows:
        return []
    return _EVENTS.validate_json(b"[" + b",".join(rows) + b"]")


def event_from_dict(data: dict[str, Any]) -> Event:
    """Validate one event from already-parsed JSON."""
    return _EVENT.validate_python(data)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the event union, for consumers in other languages."""
    return _EVENT.json_schema()
