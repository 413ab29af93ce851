"""`DeterministicReviewer`: ACCEPT when every part of the question is covered or disclosed.

The parts are the question cut at "and" and commas, and the plan's items
(policies/_report_text.py). A part is covered by a cited sentence of the body that holds
more than half of its content words (by stem, or by their first five letters), read with
the titles of the sources it cites, and disclosed by a sentence under a disclosure heading
(`## Gaps`, `## Not found`, ...) that holds them. Validation has already held every cited
sentence to its quotes, so the reviewer asks only what validation cannot: whether the report
answers what was asked, or says it could not. A question of one part is answered by a cited
sentence quoting the research's own answer sentence (policies/_report_research.py).
"""

from __future__ import annotations

from typing import Final

from ._report_research import research_claims
from ._report_text import uncovered_parts
from ._report_view import ReportView
from ._report_writer import UNCOVERED

REVIEWER_NAME: Final = "deterministic-reviewer"


class DeterministicReviewer:
    """A `Reviewer`: `ACCEPT`, or `REVISE:` with one line per part neither covered nor disclosed."""

    @property
    def name(self) -> str:
        return REVIEWER_NAME

    async def review(self, view: ReportView) -> str:
        return self.verdict(view)

    def verdict(self, view: ReportView) -> str:
        """The verdict on the view's last draft (a view with no draft has nothing to accept)."""
        if not view.rounds:
            return "REVISE: there is no draft to review"
        titles = {source.id: source.title for source in view.sources}
        answered = research_claims(view) or ()
        missing = uncovered_parts(view.rounds[-1].text, view.question, view.plan, titles, answered)
        if not missing:
            return "ACCEPT"
        return "REVISE:\n" + "\n".join(f"- {UNCOVERED} {part}" for part in missing)
