"""What a report's writer and reviewer see, and what they are (docs/reports.md).

The runtime builds these views from the fold of the run's log on every turn: the sources
are the opened pages and admitted text attachments themselves (never a paraphrase), and
the history is every earlier draft with its validation codes and review notes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Protocol, runtime_checkable

from citeloop.events import PolicyReply, ReviewVerdict

# How many read-only lookups (search, open) a reviewer may make on one draft before its verdict:
# the runtime enforces it, the model reviewer's prompt states it.
REVIEW_LOOKUPS: Final = 3


@dataclass(frozen=True, slots=True)
class ReportSource:
    """One citable source as the writer is given it: its id (the URL or attachment id) and text."""

    id: str
    title: str
    text: str
    sha256: str


@dataclass(frozen=True, slots=True)
class DraftRound:
    """An earlier draft and what came of it: validation codes (with details) and review notes."""

    draft: int
    text: str
    findings: tuple[str, ...] = ()  # "code: detail", one per finding; empty when it validated
    verdict: ReviewVerdict | None = None
    review_notes: str = ""


@dataclass(frozen=True, slots=True)
class ReportView:
    """The question, the research plan, the sources, the research's own answer, and earlier rounds."""

    run_id: str
    question: str
    sources: tuple[ReportSource, ...]
    rounds: tuple[DraftRound, ...] = ()
    plan: tuple[str, ...] = ()
    # The research policy's finish as the gate judged it ("" and () when its budget ran out):
    # the accepted answer, the sources it cited and its quotes; or its refusal ("cannot: ...")
    # with nothing cited. A hint, not a source: only a draft's footnotes cite.
    research_answer: str = ""
    research_citations: tuple[str, ...] = ()
    research_evidence: tuple[str, ...] = ()
    # The revisions still allowed after the draft asked for now (docs/reports.md: capped at 3 by default).
    revisions_left: int = 0
    # The reviewer's own lookups on the draft under review, each its call and what it returned
    # (tool output fenced as untrusted data); a reviewer may make a few before its verdict.
    lookups: tuple[str, ...] = ()


@runtime_checkable
class Writer(Protocol):
    """Writes a report draft: Markdown with `[^n]` markers and `[^n]: <source> "<quote>"` definitions."""

    @property
    def name(self) -> str: ...

    async def write(self, view: ReportView) -> str | PolicyReply: ...


@runtime_checkable
class Reviewer(Protocol):
    """Reviews a validated draft (the last round of the view): `ACCEPT`, or `REVISE: <notes>`."""

    @property
    def name(self) -> str: ...

    async def review(self, view: ReportView) -> str | PolicyReply: ...
