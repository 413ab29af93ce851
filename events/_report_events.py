"""The events of a report run (docs/reports.md): research ended, drafts written and validated, reviews.

They extend the run vocabulary of `_events`, whose `Event` union holds them.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from pydantic import Field

from ._event_base import Locator, PolicyReply, _empty, _Event, _Frozen

# Who reviews a report's drafts: the configured reviewer policy, or a human (the run waits).
ReviewMode: TypeAlias = Literal["policy", "human"]
# How a report run ends when its revisions reach the cap without an accepted draft.
OnCap: TypeAlias = Literal["refuse", "accept-validated"]
ReviewVerdict: TypeAlias = Literal["ACCEPT", "REVISE"]


class ReportRules(_Frozen):
    """The rules a report run is held to, fixed at its start (docs/reports.md)."""

    writer: str
    reviewer: str
    review: ReviewMode = "policy"
    max_revisions: int = Field(default=3, ge=0)
    on_cap: OnCap = "refuse"


class ResearchEnded(_Event):
    """A report run's research is over: its policy finished (`answer`) or its budget ran out.

    What was opened and admitted until here is what the writer is given (docs/reports.md).
    """

    type: Literal["ResearchEnded"] = "ResearchEnded"
    step: int
    reason: Literal["finished", "budget"]
    answer: str = ""
    # What the policy's finish cited and quoted, as it gave them (unchecked here: the report's
    # footnotes are what validation checks). Left out of the encoding when empty.
    citations: tuple[str, ...] = Field(default=(), exclude_if=_empty)
    evidence: tuple[str, ...] = Field(default=(), exclude_if=_empty)


class Footnote(Locator):
    """A draft's footnote `[^n]` as located: the source (URL or attachment id) and its quote's span."""

    n: int


class DraftFinding(_Frozen):
    """One thing validation found wrong with a draft: its code and where (docs/reports.md)."""

    code: str
    detail: str
    footnote: int | None = Field(default=None, exclude_if=lambda value: value is None)


class DraftWritten(_Event):
    """The writer's draft (Markdown with `[^n]` footnotes), exactly as it replied."""

    type: Literal["DraftWritten"] = "DraftWritten"
    step: int
    draft: int = Field(ge=1)
    writer: str
    reply: PolicyReply


class DraftValidated(_Event):
    """The deterministic validation of a draft: its findings (none when valid) and footnotes."""

    type: Literal["DraftValidated"] = "DraftValidated"
    step: int
    draft: int = Field(ge=1)
    findings: tuple[DraftFinding, ...] = ()
    footnotes: tuple[Footnote, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.findings

    @property
    def codes(self) -> tuple[str, ...]:
        """The distinct finding codes, in the order validation reports them."""
        return tuple(dict.fromkeys(finding.code for finding in self.findings))


class ReviewRequested(_Event):
    """A human review of a validated draft is awaited: the run is `waiting` until a verdict."""

    type: Literal["ReviewRequested"] = "ReviewRequested"
    step: int
    draft: int = Field(ge=1)


class ReviewGiven(_Event):
    """A review verdict on a validated draft, by the reviewer policy or a human (`by`)."""

    type: Literal["ReviewGiven"] = "ReviewGiven"
    step: int
    draft: int = Field(ge=1)
    verdict: ReviewVerdict
    notes: str = ""
    by: str
    # The reviewer policy's reply as it came; None for a human's verdict.
    reply: PolicyReply | None = Field(default=None, exclude_if=lambda value: value is None)
