"""`ReportState`: where a report run stands after its research, folded from its log (docs/reports.md).

Every routing decision of a report run — write again, review, wait for a human, end at
the cap — is read off this value; nothing is kept beside the log.
"""

from __future__ import annotations

from typing import NamedTuple

from citeloop.events import (
    DraftValidated,
    DraftWritten,
    ReportRules,
    ResearchEnded,
    ReviewGiven,
    ReviewRequested,
)


class ReportState(NamedTuple):
    """The report phase of a run: its rules, and every draft, validation and review so far."""

    rules: ReportRules
    research: ResearchEnded | None = None
    drafts: tuple[DraftWritten, ...] = ()
    validations: tuple[DraftValidated, ...] = ()
    reviews: tuple[ReviewGiven, ...] = ()
    # The latest human review asked for; it is pending until a verdict on its draft follows.
    requested: ReviewRequested | None = None
    # Revisions a human granted beyond the cap: each human REVISE given at the cap lifts it by one.
    lifted: int = 0
    # The reviewer's tool calls (search, open) on the current draft: capped per draft.
    lookups: int = 0

    @property
    def revisions(self) -> int:
        """Drafts after the first: each is a revision, whether validation or a review asked for it."""
        return max(len(self.drafts) - 1, 0)

    @property
    def rejected_drafts(self) -> int:
        return sum(1 for validation in self.validations if not validation.valid)

    @property
    def cap(self) -> int:
        return self.rules.max_revisions + self.lifted

    @property
    def at_cap(self) -> bool:
        return self.revisions >= self.cap

    def validation_of(self, draft: int) -> DraftValidated | None:
        for validation in reversed(self.validations):
            if validation.draft == draft:
                return validation
        return None

    def review_of(self, draft: int) -> ReviewGiven | None:
        for review in reversed(self.reviews):
            if review.draft == draft:
                return review
        return None

    @property
    def last_validated(self) -> DraftValidated | None:
        """The latest draft that passed validation (what `accept-validated` accepts at the cap)."""
        for validation in reversed(self.validations):
            if validation.valid:
                return validation
        return None

    @property
    def waiting(self) -> bool:
        """A human review was asked for and no verdict on that draft has come."""
        requested = self.requested
        return requested is not None and self.review_of(requested.draft) is None
