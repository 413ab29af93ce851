"""Report runs over a question file (`citeloop eval reports`): accepted, refused, and what validation caught.

Each question is asked as a report run (docs/reports.md) over the corpus. An accepted
report is `correct` when one of its footnotes quotes a gold answer, `wrong` when none does
(an accepted report on an unanswerable question is wrong too); a refusal is `refused`
on an answerable question and `unanswerable_refused` otherwise. The quotes, not the
Markdown around them, are judged: a report's facts are its quotes, the question is repeated
in its headings and gaps, and a gold pattern written for a short answer
("^[^0-9]*6[^0-9]*$") would never match a whole report with its footnote numbers. What validation caught
is read off each run's log: the drafts it rejected and their findings, by code.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from citeloop.events import DraftValidated, open_store
from citeloop.policies import ExtractivePolicy, Policy, Reviewer, Writer
from citeloop.runtime import Runtime
from citeloop.tools import Corpus

from .qa import VERDICTS, QaItem, QaSet, Verdict, load_qa

__all__ = ("ReportEvalReport", "ReportRecord", "evaluate_reports", "run_report_evaluation")


@dataclass(frozen=True, slots=True)
class ReportRecord:
    """One question's report run: how it ended and what its drafts went through."""

    item: QaItem
    status: str
    verdict: Verdict | None  # None for a run that neither was accepted nor refused (it failed)
    footnotes: int
    drafts: int
    rejected_drafts: int
    findings: Counter[str]
    seconds: float


@dataclass(frozen=True, slots=True)
class ReportEvalReport:
    """The figures of one evaluation: verdicts, validation's catches, footnotes of accepted reports."""

    name: str
    records: tuple[ReportRecord, ...]
    split: str | None = None

    def counts(self) -> dict[str, int]:
        verdicts = Counter(record.verdict for record in self.records)
        return {verdict: verdicts.get(verdict, 0) for verdict in VERDICTS} | {"failed": verdicts.get(None, 0)}

    def to_json(self) -> dict[str, Any]:
        records = self.records
        findings: Counter[str] = Counter()
        for record in records:
            findings.update(record.findings)
        accepted = [record for record in records if record.status == "accepted"]
        return {
            "file": self.name,
            "split": self.split,
            "questions": len(records),
            "answerable": sum(record.item.answerable for record in records),
            "accepted": len(accepted),
            "refused": sum(record.status == "refused" for record in records),
            "verdicts": self.counts(),
            "drafts": sum(record.drafts for record in records),
            "drafts_rejected": sum(record.rejected_drafts for record in records),
            "runs_with_a_rejected_draft": sum(record.rejected_drafts > 0 for record in records),
            "accepted_after_a_rejection": sum(record.rejected_drafts > 0 for record in accepted),
            "findings": dict(findings.most_common()),
            "footnotes_in_accepted": sum(record.footnotes for record in accepted),
            "seconds_per_question": round(sum(r.seconds for r in records) / len(records), 4)
            if records
            else 0.0,
        }

    def table(self) -> str:
        figures = self.to_json()
        lines = [f"reports over {self.name}" + (f" (split {self.split})" if self.split else "")]
        for key in ("questions", "answerable", "accepted", "refused", "drafts", "drafts_rejected"):
            lines.append(f"  {key:<28}{figures[key]}")
        for verdict, count in figures["verdicts"].items():
            lines.append(f"  {verdict:<28}{count}")
        for code, count in figures["findings"].items():
            lines.append(f"  finding {code:<20}{count}")
        lines.append(f"  {'footnotes_in_accepted':<28}{figures['footnotes_in_accepted']}")
        return "\n".join(lines)


def _verdict(item: QaItem, status: str, quotes: Sequence[str]) -> Verdict | None:
    if status == "accepted":
        return "correct" if item.answerable and any(item.matches(quote) for quote in quotes) else "wrong"
    if status == "refused":
        return "refused" if item.answerable else "unanswerable_refused"
    return None


async def evaluate_reports(
    questions: QaSet,
    corpus: Corpus,
    *,
    policy: Policy | None = None,
    writer: Writer | None = None,
    reviewer: Reviewer | None = None,
    limit: int | None = None,
    max_steps: int = 6,
    progress: Callable[[int, int], None] | None = None,
) -> ReportEvalReport:
    """Ask each question (the first `limit`) as a report run over `corpus` and judge its outcome."""
    items: Sequence[QaItem] = questions.items[:limit] if limit is not None else questions.items
    records: list[ReportRecord] = []
    async with Runtime(
        store=open_store("memory://"),
        tools=corpus.tools(),
        policy=policy or ExtractivePolicy(),
        max_steps=max_steps,
        writer=writer,
        reviewer=reviewer,
    ) as runtime:
        for done, item in enumerate(items, start=1):
            started = time.perf_counter()
            outcome = await runtime.report(item.question)
            seconds = time.perf_counter() - started
            events = await runtime.transcript(outcome.run_id)
            validations = [event for event in events if isinstance(event, DraftValidated)]
            findings = Counter(finding.code for v in validations for finding in v.findings)
            records.append(
                ReportRecord(
                    item=item,
                    status=outcome.status,
                    verdict=_verdict(item, outcome.status, [note.quote for note in outcome.footnotes]),
                    footnotes=len(outcome.footnotes),
                    drafts=len(validations),
                    rejected_drafts=sum(not v.valid for v in validations),
                    findings=findings,
                    seconds=seconds,
                )
            )
            if progress is not None:
                progress(done, len(items))
    return ReportEvalReport(questions.name, tuple(records), questions.split)


def run_report_evaluation(
    path: str | Path,
    corpus: str | Path,
    *,
    split: str | None = None,
    policy: Policy | None = None,
    limit: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ReportEvalReport:
    """Load a question file and a corpus and evaluate report runs: the command line's entry point."""
    questions = load_qa(path, split=split)

    async def main() -> ReportEvalReport:
        pages = await anyio.to_thread.run_sync(Corpus.from_path, corpus)
        try:
            return await evaluate_reports(questions, pages, policy=policy, limit=limit, progress=progress)
        finally:
            pages.close()

    return anyio.run(main)
