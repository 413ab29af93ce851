"""The outcome a caller gets back from a run: read off the fold, never kept beside it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, cast

from citeloop.events import Abstained, Answered, ClaimAssessed, EvidenceClass, Locator

from ._state import RunState

# How a run ended: RunState.status of a finished run.
# A report run that waits for a human review (docs/reports.md) is `waiting`, with no answer yet.
OutcomeStatus: TypeAlias = Literal["answered", "abstained", "cancelled", "failed", "waiting"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a run ended. `reason` is None for an answer; `answer` starts with `cannot:` otherwise.

    `status` is the fold's (`RunState.status`): `abstained` for a grounded refusal,
    `cancelled`, or `failed` when the policy failed or a tool was unavailable.
    """

    run_id: str
    question: str
    status: OutcomeStatus
    answer: str
    citations: tuple[str, ...]
    # One quote, or several for a multi-quote finish (Answered.evidence).
    evidence: str | tuple[str, ...]
    locators: tuple[Locator, ...]
    reason: str | None
    steps: int
    # The class of each locator and claim premise (Answered.evidence_classes), the plan items
    # the answer discloses as gaps, and the verdicts of the accepted finish's claims.
    evidence_classes: tuple[EvidenceClass, ...] = ()
    gaps: tuple[int, ...] = ()
    claims: tuple[ClaimAssessed, ...] = ()

    @property
    def evidence_text(self) -> str:
        """The evidence as one text: a multi-quote finish's quotes joined by a line break."""
        return self.evidence if isinstance(self.evidence, str) else "\n".join(self.evidence)

    @classmethod
    def from_state(cls, state: RunState) -> Outcome:
        """The outcome of a finished run's state."""
        outcome = state.outcome
        if isinstance(outcome, Answered):
            return cls(
                run_id=state.run_id,
                question=state.question,
                status="answered",
                answer=outcome.answer,
                citations=outcome.citations,
                evidence=outcome.evidence,
                locators=outcome.locators,
                reason=None,
                steps=state.steps,
                evidence_classes=outcome.evidence_classes,
                gaps=outcome.gaps,
                # The fold keeps the latest finish's claims: the accepted one's, for an answer.
                claims=tuple(claim for claim in state.claims if claim.step == outcome.step),
            )
        if isinstance(outcome, Abstained):
            return cls(
                run_id=state.run_id,
                question=state.question,
                status=cast(OutcomeStatus, state.status),  # a finished run's status is one of these
                answer=outcome.answer,
                citations=(),
                evidence="",
                locators=(),
                reason=outcome.reason,
                steps=state.steps,
            )
        if state.status == "waiting":
            return cls(
                run_id=state.run_id,
                question=state.question,
                status="waiting",
                answer="",
                citations=(),
                evidence="",
                locators=(),
                reason=None,
                steps=state.steps,
            )
        raise ValueError(f"run {state.run_id!r} has not finished")

    def to_json(self) -> dict[str, Any]:
        """The `citeloop ask --json` object (docs/gate.md, "The outcome a caller gets")."""
        return {
            "run_id": self.run_id,
            "status": self.status,
            "answer": self.answer,
            "citations": list(self.citations),
            "evidence": self.evidence,
            "locators": [
                {
                    "url": loc.url,
                    "sha256": loc.sha256,
                    "start": loc.start,
                    "end": loc.end,
                    "start_utf16": loc.start_utf16,
                    "end_utf16": loc.end_utf16,
                    "quote": loc.quote,
                }
                for loc in self.locators
            ],
            "reason": self.reason,
            "steps": self.steps,
            "evidence_classes": list(self.evidence_classes),
            "gaps": list(self.gaps),
            "claims": [
                {
                    "index": claim.index,
                    "text": claim.text,
                    "class": claim.claimed_class,
                    "method": claim.method,
                    "verdict": claim.verdict,
                    "detail": claim.detail,
                    "item": claim.item,
                }
                for claim in self.claims
            ],
        }
