"""The writer's and reviewer's view of a report run, rendered from its fold (docs/reports.md).

The sources are the bodies the run opened and the text attachments it admitted, exactly
as the log holds them — never a summary — so a writer cannot cite what it was not given.
"""

from __future__ import annotations

from citeloop.events import ActionParsed, CallTool, DraftWritten, TextRepresentation, ToolObserved
from citeloop.policies import DraftRound, ReportSource, ReportView

from ._project import ViewOptions, render_observation
from ._report_decide import report_of
from ._state import RunState, StepEvents

_OPTIONS = ViewOptions()


def report_view(state: RunState) -> ReportView:
    """The view a writer (or a reviewer, for the last round) is given of `state`."""
    report = report_of(state)
    sources = [ReportSource(url, page.title, page.body, page.sha256) for url, page in state.opened.items()]
    for source_id, source in state.sources.items():
        if isinstance(source.representation, TextRepresentation):
            text = source.representation
            sources.append(ReportSource(source_id, source.origin, text.text, text.sha256))
    rounds = []
    for drafted in report.drafts:
        validation = report.validation_of(drafted.draft)
        review = report.review_of(drafted.draft)
        findings = () if validation is None else tuple(f"{f.code}: {f.detail}" for f in validation.findings)
        rounds.append(
            DraftRound(
                draft=drafted.draft,
                text=drafted.reply.text or "",
                findings=findings,
                verdict=None if review is None else review.verdict,
                review_notes="" if review is None else review.notes,
            )
        )
    research = report.research
    return ReportView(
        run_id=state.run_id,
        question=state.question,
        sources=tuple(sources),
        rounds=tuple(rounds),
        plan=state.plan,
        research_answer="" if research is None else research.answer,
        research_citations=() if research is None else research.citations,
        research_evidence=() if research is None else research.evidence,
        revisions_left=max(report.cap - len(report.drafts), 0),
        lookups=_lookups(state),
    )


def _lookups(state: RunState) -> tuple[str, ...]:
    """The reviewer's calls since the last draft, each with what it returned, as a text policy reads them."""
    since: list[StepEvents] = []
    for group in reversed(state.by_step):
        if any(isinstance(event, DraftWritten) for event in group):
            break
        since.append(group)
    shown: list[str] = []
    for group in reversed(since):
        for event in group:
            if isinstance(event, ActionParsed) and isinstance(event.action, CallTool):
                shown.append(f"{event.action.tool}: {event.action.input}")
            elif isinstance(event, ToolObserved) and shown:
                shown[-1] += "\n" + render_observation(event.observation, _OPTIONS)
    return tuple(shown)
