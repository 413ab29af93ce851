"""A report run's decisions after its research, as pure functions (docs/reports.md).

Like runtime/_decide.py: (folded state, next input) -> the events to append; no I/O, no
clock (the caller passes `at`). The driver asks the writer and the reviewer; `check`
replays a stored report run through these same functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Literal, TypeAlias

from citeloop.events import (
    Abstained,
    ActionParsed,
    Answered,
    CallTool,
    DraftValidated,
    DraftWritten,
    Event,
    Footnote,
    Locator,
    PolicyReply,
    ReviewGiven,
    ReviewRequested,
    ReviewVerdict,
    ToolSpec,
    UsageError,
)
from citeloop.policies import REVIEW_LOOKUPS, Rejected, parse_policy_reply, parse_review

from ._claims_gate import evidence_classes
from ._decide import decide_action
from ._locate import answer_digest
from ._report_state import ReportState
from ._report_validate import validate_draft
from ._state import RunState

# What a report run does next once its research is over, read off the fold alone.
ReportMove: TypeAlias = Literal["write", "validate", "review", "request_review", "wait", "accept", "give_up"]

INSUFFICIENT_GROUNDING = "cannot: INSUFFICIENT GROUNDING"
# The run's support methods that judge a report's sentences: those that read one sentence
# against its quotes. `focus-entity` and `number-unit` judge a whole answer to the question
# (each sentence would have to name its subject, or hold a number), docs/reports.md.
SENTENCE_METHODS = frozenset({"answer-in-quote"})
# What a reviewer may look up before its verdict, and how often per draft.
REVIEW_TOOLS = ("search", "open")


class ReviewNotAwaitedError(UsageError):
    """A human verdict was offered for a run that is not waiting for one (docs/reports.md)."""


def report_of(state: RunState) -> ReportState:
    if state.report is None:
        raise ValueError(f"run {state.run_id!r} is not a report run")
    return state.report


def report_move(state: RunState) -> ReportMove:
    """The next move of a report run whose research has ended; the order is the routing (docs/reports.md)."""
    report = report_of(state)
    if not state.citable():
        return "give_up"  # nothing was opened or admitted: no draft can be grounded
    if not report.drafts:
        return "write"
    draft = report.drafts[-1].draft
    validation = report.validation_of(draft)
    if validation is None:
        return "validate"  # a draft recorded without its verdict (a log cut between the two)
    if not validation.valid:
        return "give_up" if report.at_cap or _repeated(report) else "write"
    review = report.review_of(draft)
    if review is None:
        if report.rules.review == "policy":
            return "review"
        pending = report.requested is not None and report.requested.draft == draft
        return "wait" if pending else "request_review"
    if review.verdict == "ACCEPT":
        return "accept"
    return "give_up" if report.at_cap else "write"


def _repeated(report: ReportState) -> bool:
    """The last draft, rejected, is word for word an earlier one: the writer cannot repair it.

    Asking again would spend the revisions (and a model's calls) on the same refusal.
    """
    *earlier, last = report.drafts
    return any(draft.reply.text == last.reply.text for draft in earlier)


def _next_step(state: RunState) -> int:
    """Each round of the report phase is a step of its own, after the last one recorded."""
    last = state.by_step[-1][0].step if state.by_step else state.steps  # type: ignore[union-attr]
    return last + 1


def decide_draft(state: RunState, reply: PolicyReply, writer: str, at: datetime) -> list[Event]:
    """The writer's draft and, in the same batch, its deterministic validation."""
    report = report_of(state)
    number = len(report.drafts) + 1
    written = DraftWritten(
        run_id=state.run_id,
        seq=state.next_seq,
        at=at,
        step=_next_step(state),
        draft=number,
        writer=writer,
        reply=reply,
    )
    return [written, _validated(state, written, offset=1)]


def decide_validation(state: RunState, at: datetime) -> list[Event]:
    """The verdict on the last draft when the log holds the draft without it."""
    written = report_of(state).drafts[-1]
    return [_validated(state, written, at=at)]


def _validated(
    state: RunState, written: DraftWritten, *, offset: int = 0, at: datetime | None = None
) -> DraftValidated:
    support = tuple(name for name in state.support if name in SENTENCE_METHODS)
    findings, footnotes = validate_draft(
        written.reply.text or "", state.citable(), question=state.question, support=support
    )
    return DraftValidated(
        run_id=state.run_id,
        seq=state.next_seq + offset,
        at=at or written.at,
        step=written.step,
        draft=written.draft,
        findings=findings,
        footnotes=footnotes,
    )


def decide_review(
    state: RunState, reply: PolicyReply, reviewer: str, at: datetime, tools: Mapping[str, ToolSpec]
) -> list[Event]:
    """The reviewer policy's reply on the last draft: a verdict, or a lookup with a read-only tool.

    A reviewer is never without tools: it may `search` or `open` (ReAct, docs/protocol.md) up
    to `REVIEW_LOOKUPS` times a draft before its verdict; the call is recorded and carried
    out as a research step's is. A reply that is neither asks for a revision, with why.
    """
    parsed = parse_review(reply.text or "") if reply.structured is None else None
    if isinstance(parsed, tuple):
        verdict, notes = parsed
        return [_review(state, verdict, notes, reviewer, at, reply)]
    lookup = _lookup(state, reply, at, tools)
    if lookup is not None:
        return lookup
    why = f"{parsed.code}: {parsed.detail}" if parsed is not None else "a tool call it may not make"
    notes = f"the reviewer's reply was not a verdict ({why})"
    return [_review(state, "REVISE", notes, reviewer, at, reply)]


def _lookup(
    state: RunState, reply: PolicyReply, at: datetime, tools: Mapping[str, ToolSpec]
) -> list[Event] | None:
    """A reviewer's read-only tool call, decided as a research step's; None when it is not one it may make."""
    report = report_of(state)
    if report.lookups >= REVIEW_LOOKUPS:
        return None
    allowed = tuple(name for name in REVIEW_TOOLS if name in tools and tools[name].read_only)
    parsed = parse_policy_reply(reply, allowed)
    if isinstance(parsed, Rejected) or not isinstance(parsed.action, CallTool):
        return None
    step = _next_step(state)
    head = ActionParsed(
        run_id=state.run_id,
        seq=state.next_seq,
        at=at,
        step=step,
        reply=reply,
        thought=parsed.thought,
        action=parsed.action,
    )
    return [head, *decide_action(state, step, parsed.action, tools, at, offset=1)]


def decide_review_request(state: RunState, at: datetime) -> list[Event]:
    """Ask for a human review of the last draft: the run is `waiting` until a verdict is appended."""
    draft = report_of(state).drafts[-1].draft
    return [
        ReviewRequested(run_id=state.run_id, seq=state.next_seq, at=at, step=_next_step(state), draft=draft)
    ]


def decide_human_review(
    state: RunState, verdict: ReviewVerdict, notes: str, by: str, at: datetime
) -> list[Event]:
    """A human's verdict on the draft the run waits on; refused when it waits on none."""
    if state.outcome is not None:
        raise ReviewNotAwaitedError(f"run {state.run_id} has ended ({state.status}): it takes no review")
    report = report_of(state)
    if not report.waiting:
        raise ReviewNotAwaitedError(f"run {state.run_id} is {state.status}, not waiting for a review")
    if not by.startswith("human"):
        by = f"human:{by}"
    return [_review(state, verdict, notes, by, at, None)]


def _review(
    state: RunState, verdict: ReviewVerdict, notes: str, by: str, at: datetime, reply: PolicyReply | None
) -> ReviewGiven:
    draft = report_of(state).drafts[-1].draft
    return ReviewGiven(
        run_id=state.run_id,
        seq=state.next_seq,
        at=at,
        step=_next_step(state),
        draft=draft,
        verdict=verdict,
        notes=notes,
        by=by,
        reply=reply,
    )


def decide_report_end(state: RunState, at: datetime) -> list[Event]:
    """The report's terminal event: the accepted draft, or the refusal the cap rule names."""
    report = report_of(state)
    step = _next_step(state)
    if report_move(state) == "accept":
        validation = report.validation_of(report.drafts[-1].draft)
        assert validation is not None
        return [_accepted(state, validation, step, at)]
    fallback = report.last_validated if report.rules.on_cap == "accept-validated" else None
    if fallback is not None:
        why = f"the revision cap ({report.cap})" if report.at_cap else "a repeated rejected draft"
        note = (
            f"accepted at {why}: draft {fallback.draft} passed validation "
            "but no review accepted it (--on-cap accept-validated)"
        )
        return [_accepted(state, fallback, step, at, note=note)]
    return [
        Abstained(
            run_id=state.run_id,
            seq=state.next_seq,
            at=at,
            step=step,
            reason="insufficient_grounding",
            answer=f"{INSUFFICIENT_GROUNDING}: {_why(state, report)}",
            detail=_findings_detail(report),
        )
    ]


def _why(state: RunState, report: ReportState) -> str:
    if not state.citable():
        return "the research opened no page and admitted no source to cite"
    if not report.drafts:
        return "no draft was written"
    if not report.at_cap:
        return f"the writer repeated a draft that failed validation ({len(report.drafts)} drafts)"
    return f"no draft was accepted within {report.cap} revisions ({len(report.drafts)} drafts)"


def _findings_detail(report: ReportState) -> str:
    """The last draft's validation codes or review notes: what the writer could not fix."""
    if not report.validations:
        return ""
    last = report.validations[-1]
    if not last.valid:
        return "last draft rejected by validation: " + ", ".join(last.codes)
    review = report.review_of(last.draft)
    return f"last draft not accepted by review: {review.notes}" if review is not None else ""


def _accepted(
    state: RunState, validation: DraftValidated, step: int, at: datetime, *, note: str = ""
) -> Answered:
    report = report_of(state)
    text = next(draft for draft in report.drafts if draft.draft == validation.draft).reply.text or ""
    locators = tuple(_plain(footnote) for footnote in validation.footnotes)
    return Answered(
        run_id=state.run_id,
        seq=state.next_seq,
        at=at,
        step=step,
        answer=text,
        citations=tuple(dict.fromkeys(locator.url for locator in locators)),
        evidence=tuple(locator.quote for locator in locators),
        locators=locators,
        answer_sha256=answer_digest(text),
        evidence_classes=evidence_classes(state, locators, ()),
        note=note,
    )


def _plain(footnote: Footnote) -> Locator:
    return Locator(**footnote.model_dump(exclude={"n"}))


def footnotes_of(answered: Answered, report: ReportState) -> Sequence[Footnote]:
    """The footnotes of the draft an accepted report is: read back from its validation."""
    for validation in reversed(report.validations):
        drafted = next(draft for draft in report.drafts if draft.draft == validation.draft)
        if (drafted.reply.text or "") == answered.answer and validation.valid:
            return validation.footnotes
    return ()
