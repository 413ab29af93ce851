"""What a report run gives back: its status, the report, footnotes and reviews (docs/reports.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from citeloop.events import Abstained, Answered, Footnote, ReviewGiven

from ._report_decide import footnotes_of, report_of
from ._state import RunState

ReportStatus: TypeAlias = Literal["accepted", "refused", "waiting", "running"]


@dataclass(frozen=True, slots=True)
class ReportOutcome:
    """Where a report run stands, read off its fold: `accepted`, `refused`, or `waiting` for a human.

    `report` is the accepted draft's Markdown ("" otherwise); `reason` names why it was
    refused (`insufficient_grounding`, or how the research or a policy failed); `note` says
    when a report was accepted at the revision cap rather than by review.
    """

    run_id: str
    question: str
    status: ReportStatus
    report: str
    footnotes: tuple[Footnote, ...]
    reviews: tuple[ReviewGiven, ...]
    revisions: int
    drafts_rejected: int
    reason: str | None
    answer: str
    detail: str = ""
    note: str = ""
    # The run's lifecycle status (RunState.status): tells a refusal from a failed or cancelled run.
    run_status: str = ""
    # The draft a waiting run awaits a review of (its text), "" otherwise.
    awaiting: str = ""
    # The research's own end: its gated answer, or its refusal ("cannot: ..."); "" while it runs
    # or when its budget ran out. A refused report says with it why nothing could be cited.
    research: str = ""

    @classmethod
    def from_state(cls, state: RunState) -> ReportOutcome:
        report = report_of(state)
        outcome = state.outcome
        status: ReportStatus
        if isinstance(outcome, Answered):
            status = "accepted"
        elif isinstance(outcome, Abstained):
            status = "refused"
        else:
            status = "waiting" if report.waiting else "running"
        return cls(
            run_id=state.run_id,
            question=state.question,
            status=status,
            report=outcome.answer if isinstance(outcome, Answered) else "",
            footnotes=tuple(footnotes_of(outcome, report)) if isinstance(outcome, Answered) else (),
            reviews=report.reviews,
            revisions=report.revisions,
            drafts_rejected=report.rejected_drafts,
            reason=outcome.reason if isinstance(outcome, Abstained) else None,
            answer=outcome.answer if outcome is not None else "",
            detail=outcome.detail if isinstance(outcome, Abstained) else "",
            note=outcome.note if isinstance(outcome, Answered) else "",
            run_status=state.status,
            awaiting=(report.drafts[-1].reply.text or "") if report.waiting else "",
            research=report.research.answer if report.research is not None else "",
        )

    def to_json(self) -> dict[str, Any]:
        """The `citeloop report --json` object: the keys docs/reports.md lists, then a few more."""
        return {
            "run_id": self.run_id,
            "status": self.status,
            "report": self.report,
            "footnotes": [
                {
                    "n": note.n,
                    "url": note.url,
                    "sha256": note.sha256,
                    "start": note.start,
                    "end": note.end,
                    "quote": note.quote,
                }
                for note in self.footnotes
            ],
            "reviews": [
                {"verdict": review.verdict, "notes": review.notes, "by": review.by} for review in self.reviews
            ],
            "revisions": self.revisions,
            "reason": self.reason,
            "drafts_rejected": self.drafts_rejected,
            "answer": self.answer,
            "detail": self.detail,
            "note": self.note,
            "awaiting": self.awaiting,
            "research": self.research,
        }
