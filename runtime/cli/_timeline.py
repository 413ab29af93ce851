"""A stored run as a timeline: per step the thought, the action, what came back, and the gate's verdict.

Pure: built from the events alone, so `citeloop show` dispatches nothing and calls no policy.
Each step keeps the typed action, observations and model call of its events (for `--json`)
beside the one-line renderings the terminal shows, and its times: when its first and last
events were recorded.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, assert_never

from citeloop.events import (
    Abstained,
    ActionParsed,
    AdmittedSource,
    AlreadySearched,
    Answered,
    Calculation,
    CallTool,
    CellLocator,
    ClaimAssessed,
    ClaimPremise,
    CsvLocator,
    DraftValidated,
    DraftWritten,
    Event,
    Finish,
    FinishRejected,
    Forked,
    Observation,
    Page,
    ParseRejected,
    PdfLocator,
    PolicyReply,
    ResearchEnded,
    ReviewGiven,
    ReviewRequested,
    RunStarted,
    SearchHits,
    SourceAdmitted,
    Support,
    Text,
    ToolDispatched,
    ToolError,
    ToolObserved,
    ToolOutcomeUnknown,
)
from citeloop.runtime import CompletionItem, completion, fold, settling_claims

_LINE = 100


def _cut(text: str, limit: int = _LINE) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def summarize(observation: Observation) -> str:
    """One line saying what a tool returned (never the whole page body)."""
    match observation:
        case SearchHits() | AlreadySearched():
            prefix = "already searched: " if isinstance(observation, AlreadySearched) else ""
            if not observation.hits:
                return f"{prefix}no hits"
            urls = ", ".join(hit.url for hit in observation.hits[:3])
            more = f" (+{len(observation.hits) - 3} more)" if len(observation.hits) > 3 else ""
            noun = "hit" if len(observation.hits) == 1 else "hits"
            return f"{prefix}{len(observation.hits)} {noun}: {urls}{more}"
        case Page():
            return (
                f'opened {observation.url} "{_cut(observation.title, 40)}" '
                f"({len(observation.body)} chars, sha256 {observation.sha256[:12]})"
            )
        case ToolError():
            where = f" {observation.url}" if observation.url else ""
            detail = f": {_cut(observation.message, 60)}" if observation.message else ""
            return f"error {observation.code}{where}{detail}"
        case Text():
            return f"text: {_cut(observation.text, 80)}"
        case Calculation():
            said = f"calculation {observation.id}: {observation.operation} = {observation.result}"
            return f"{said} {observation.unit}".rstrip()
        case _:
            assert_never(observation)


def describe_action(action: CallTool | Finish) -> str:
    """The action on one line: `search("...")`, `open("...")`, or the finish payload."""
    if isinstance(action, CallTool):
        return f"{action.tool}({json.dumps(action.input, ensure_ascii=False)})"
    return "finish " + _cut(json.dumps(action.payload, ensure_ascii=False), 160)


@dataclass
class ModelCall:
    """One policy reply as recorded: the model, its token usage and how long it took."""

    model: str | None
    usage: dict[str, int] | None
    latency_ms: float | None

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "usage": self.usage, "latency_ms": self.latency_ms}


@dataclass
class Step:
    """One step of the timeline; `verdict` is the parser's or the gate's decision, if any.

    `thought`, `action`, `observation` and `verdict` are one-line renderings for the
    terminal; `typed_action`, `observations` and `decision` are the events' own values.
    """

    step: int
    thought: str = ""
    action: str = ""
    observation: str = ""
    verdict: str = ""
    seqs: list[int] = field(default_factory=list)
    started_at: datetime | None = None
    ended_at: datetime | None = None
    model_call: ModelCall | None = None
    typed_action: dict[str, Any] | None = None
    observations: list[dict[str, Any]] = field(default_factory=list)
    decision: dict[str, Any] | None = None

    @property
    def duration_ms(self) -> float:
        if self.started_at is None or self.ended_at is None:
            return 0.0
        return (self.ended_at - self.started_at).total_seconds() * 1000

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "started_at": self.started_at.isoformat() if self.started_at else None,
            "ended_at": self.ended_at.isoformat() if self.ended_at else None,
            "duration_ms": round(self.duration_ms, 3),
            "thought": self.thought,
            "action": self.typed_action,
            "observations": self.observations,
            "decision": self.decision,
            "model_call": self.model_call.to_json() if self.model_call else None,
            "seqs": self.seqs,
            "text": {"action": self.action, "observation": self.observation, "verdict": self.verdict},
        }


@dataclass(frozen=True)
class Timeline:
    """A run's question, status and steps, read off its events."""

    run_id: str
    question: str
    policy: str
    status: str
    events: int
    steps: tuple[Step, ...]
    outcome: str
    reason: str | None
    started_at: datetime
    ended_at: datetime
    final: Answered | Abstained | None = None
    continues: str | None = None
    # The attachments the run admitted (docs/evidence.md), in the order it admitted them.
    sources: tuple[AdmittedSource, ...] = ()
    # The run this one was forked from and the step it was forked at (its steps before are copied).
    forked_from: tuple[str, int] | None = None
    # The research plan, the claims the matrix reads (an answer's own; else the latest finish's
    # that carried claims), and the completion matrix (docs/evidence.md, "Completion").
    plan: tuple[str, ...] = ()
    claims: tuple[ClaimAssessed, ...] = ()
    completion: tuple[CompletionItem, ...] = ()

    @property
    def duration_ms(self) -> float:
        return (self.ended_at - self.started_at).total_seconds() * 1000

    def model_totals(self) -> dict[str, float]:
        """Token usage summed over every recorded model call, with the calls' count and latency."""
        totals: dict[str, float] = {"calls": 0, "latency_ms": 0.0}
        for step in self.steps:
            call = step.model_call
            if call is None or (call.model is None and call.usage is None and call.latency_ms is None):
                continue  # a policy that records nothing about itself (the deterministic ones)
            totals["calls"] += 1
            totals["latency_ms"] += call.latency_ms or 0.0
            for key, value in (call.usage or {}).items():
                totals[key] = totals.get(key, 0) + value
        return totals

    def to_json(self) -> dict[str, Any]:
        final = self.final
        return {
            "run_id": self.run_id,
            "question": self.question,
            "policy": self.policy,
            "status": self.status,
            "events": self.events,
            "started_at": self.started_at.isoformat(),
            "ended_at": self.ended_at.isoformat(),
            "duration_ms": round(self.duration_ms, 3),
            "continues": self.continues,
            "sources": [_source_json(source) for source in self.sources],
            "forked_from": (
                {"run_id": self.forked_from[0], "at_step": self.forked_from[1]} if self.forked_from else None
            ),
            "outcome": self.outcome,
            "reason": self.reason,
            "final": final.model_dump(mode="json", exclude={"prev"}) if final is not None else None,
            "model": self.model_totals(),
            "steps": [step.to_json() for step in self.steps],
            "plan": list(self.plan),
            "claims": [claim_json(claim) for claim in self.claims],
            "completion": [item.to_json() for item in self.completion],
        }


def premise_brief(premise: ClaimPremise) -> str:
    """A claim premise on one line: the source and where in it, or the calculation's id, and its class."""
    locator = premise.locator
    match locator:
        case None:
            where = str(premise.calculation)
        case CellLocator():
            where = f"{locator.source} {locator.sheet}!{locator.cell} = {locator.value!r}"
        case CsvLocator():
            where = f"{locator.source} row {locator.row} {locator.column!r} = {locator.value!r}"
        case PdfLocator():
            where = f'{locator.source} page {locator.page} "{_cut(locator.quote, 50)}"'
        case _:
            where = f'{locator.source} "{_cut(locator.quote, 50)}"'
    return f"{where} ({premise.evidence_class})"


def claim_json(claim: ClaimAssessed) -> dict[str, Any]:
    """A claim's verdict as `show --json` prints it: the event's own fields, without its time and link."""
    return claim.model_dump(mode="json", exclude={"v", "run_id", "at", "prev", "type"})


def _source_json(source: AdmittedSource) -> dict[str, Any]:
    """An admitted source's identity (its representation stays in the log: `citeloop export`)."""
    return source.model_dump(mode="json", exclude={"representation"}) | {
        "representation": source.representation.kind
    }


def _typed(value: Any) -> dict[str, Any]:
    return value.model_dump(mode="json")  # type: ignore[no-any-return]


def _model_call(reply: PolicyReply) -> ModelCall:
    return ModelCall(reply.model, reply.usage, reply.latency_ms)


def _supports(support: tuple[Support, ...]) -> list[dict[str, str]]:
    return [{"method": s.method, "verdict": s.verdict, "detail": s.detail} for s in support]


def _support_said(support: tuple[Support, ...]) -> str:
    """Each support method's verdict, after the gate's: ` · support answer-in-quote: supported, ...`."""
    if not support:
        return ""
    said = [f"{s.method}: {s.verdict}" + (f" ({s.detail})" if s.detail else "") for s in support]
    return " · support " + ", ".join(said)


def _candidate_said(event: Abstained) -> str:
    """The answer a refusing policy found but did not trust, and its score (docs/gate.md)."""
    if event.candidate is None:
        return ""
    score = "" if event.score is None else f", score {event.score:.2f}"
    return f" (best candidate {event.candidate!r}{score})"


def _row(events: tuple[Event, ...]) -> Step:
    """One step of the fold's `by_step` as a timeline row."""
    row = Step(events[0].step)  # type: ignore[union-attr]  # the fold never groups RunStarted
    row.started_at, row.ended_at = events[0].at, events[-1].at
    for event in events:
        match event:
            case ActionParsed():
                row.thought = event.thought
                row.action = describe_action(event.action)
                row.typed_action = _typed(event.action)
                row.model_call = _model_call(event.reply)
                if isinstance(event.action, CallTool):
                    row.verdict = "parsed"
                    row.decision = {"kind": "parsed"}
            case ParseRejected():
                row.action = _cut(event.reply.text or json.dumps(event.reply.structured), 120)
                row.verdict = f"protocol error: {event.code}" + (f" ({event.detail})" if event.detail else "")
                row.model_call = _model_call(event.reply)
                row.decision = {"kind": "parse_rejected", "code": event.code, "detail": event.detail}
            case ToolObserved():
                row.observation = summarize(event.observation)
                typed = {"tool": event.tool, "input": event.input, **_typed(event.observation)}
                row.observations.append(typed)
            case ToolOutcomeUnknown():
                row.observation = f"outcome unknown: {event.tool}({event.input!r}) was not run again"
                row.observations.append({"tool": event.tool, "input": event.input, "kind": "outcome_unknown"})
            case FinishRejected():
                row.verdict = f"finish rejected: {event.code}{_support_said(event.support)}"
                support = _supports(event.support)
                row.decision = {"kind": "finish_rejected", "code": event.code, "support": support}
            case Answered():
                row.verdict = f"accepted: answered{_support_said(event.support)}"
                row.decision = {"kind": "answered", "support": _supports(event.support)}
            case Abstained():
                row.verdict = f"abstained: {event.reason}{_candidate_said(event)}"
                row.decision = {
                    "kind": "abstained",
                    "reason": event.reason,
                    "detail": event.detail,
                    "candidate": event.candidate,
                    "score": event.score,
                }
            case ClaimAssessed():
                said = f"claim {event.index}: {event.verdict} ({event.method}) {_cut(event.text, 60)}"
                row.verdict = f"{row.verdict}\n{said}" if row.verdict else said
            case RunStarted() | ToolDispatched():
                pass
            case SourceAdmitted() | Forked():  # never in a step: the fold keeps them apart
                pass
            case ResearchEnded():
                row.verdict = f"research ended: {event.reason}"
                row.decision = {"kind": "research_ended", "reason": event.reason, "answer": event.answer}
            case DraftWritten():
                row.action = f"draft {event.draft} by {event.writer}: {_cut(event.reply.text or '', 100)}"
                row.model_call = _model_call(event.reply)
            case DraftValidated():
                codes = ", ".join(event.codes)
                row.verdict = f"draft {event.draft}: " + (f"rejected ({codes})" if codes else "validated")
                row.decision = {
                    "kind": "draft_validated",
                    "draft": event.draft,
                    "findings": [finding.model_dump(mode="json") for finding in event.findings],
                    "footnotes": len(event.footnotes),
                }
            case ReviewRequested():
                row.verdict = f"draft {event.draft}: waiting for a human review"
                row.decision = {"kind": "review_requested", "draft": event.draft}
            case ReviewGiven():
                notes = f": {_cut(event.notes, 80)}" if event.notes else ""
                row.verdict = f"draft {event.draft}: {event.verdict} by {event.by}{notes}"
                row.decision = {
                    "kind": "review",
                    "draft": event.draft,
                    "verdict": event.verdict,
                    "by": event.by,
                }
                if event.reply is not None:
                    row.model_call = _model_call(event.reply)
            case _:
                assert_never(event)
        row.seqs.append(event.seq)
    return row


def build_timeline(events: Sequence[Event]) -> Timeline:
    """A run's steps as the fold groups them (one fold, shared with the loop and the policy's view)."""
    state = fold(events)
    outcome = state.outcome
    first = events[0]
    continues = first.meta.get("continues") if isinstance(first, RunStarted) else None
    return Timeline(
        run_id=state.run_id,
        question=state.question,
        policy=state.policy,
        status=state.status,
        events=len(events),
        steps=tuple(_row(group) for group in state.by_step),
        outcome=outcome.answer if outcome is not None else "",
        reason=outcome.reason if isinstance(outcome, Abstained) else None,
        started_at=first.at,
        ended_at=events[-1].at,
        final=outcome,
        continues=continues if isinstance(continues, str) else None,
        sources=tuple(state.sources.values()),
        forked_from=(state.parent_run_id, state.forked_at) if state.parent_run_id else None,
        plan=state.plan,
        claims=settling_claims(state),
        completion=completion(state),
    )
