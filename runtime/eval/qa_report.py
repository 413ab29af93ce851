"""The report of a question-file evaluation: the four verdicts, their rates, citation validity, the sweep."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .metrics import RunRecord
from .qa import VERDICTS, QaItem, verdict

__all__ = ("QaReport", "summarize_qa")


def summarize_qa(items: Sequence[QaItem], records: Sequence[RunRecord]) -> dict[str, Any]:
    """The figures over runs, `records[i]` being the run of `items[i]`."""
    if len(items) != len(records):
        raise ValueError(f"{len(items)} items but {len(records)} runs")
    verdicts = [verdict(i, r.outcome.status, r.outcome.answer) for i, r in zip(items, records, strict=True)]
    counts = Counter(verdicts)
    total = len(records)
    positive = [(i, r) for i, r in zip(items, records, strict=True) if i.answerable]
    negative = len(items) - len(positive)
    answered = [r for r in records if r.outcome.status == "answered"]
    wrong_unanswerable = sum(
        not i.answerable and r.outcome.status == "answered" for i, r in zip(items, records, strict=True)
    )
    evidence_holds = sum(
        r.outcome.status == "answered" and i.matches(r.outcome.evidence_text) for i, r in positive
    )
    reasons = Counter(r.outcome.reason for r in records if r.outcome.reason)
    return {
        "questions": total,
        "counts": {v: counts[v] for v in VERDICTS},
        "rates": {v: _ratio(counts[v], total) for v in VERDICTS},
        "answerable": {
            "count": len(positive),
            "correct_rate": _ratio(counts["correct"], len(positive)),
            "wrong_rate": _ratio(counts["wrong"] - wrong_unanswerable, len(positive)),
            "refused_rate": _ratio(counts["refused"], len(positive)),
            "evidence_holds_answer": _ratio(evidence_holds, len(positive)),
        },
        "unanswerable": {
            "count": negative,
            "refused_rate": _ratio(counts["unanswerable_refused"], negative),
            "answered": wrong_unanswerable,
        },
        "answered_rate": _ratio(len(answered), total),
        "citation_validity": _ratio(sum(r.citations_valid for r in answered), len(answered), empty=1.0),
        "abstain_reasons": dict(sorted(reasons.items())),
        "steps_per_question": _ratio(sum(r.outcome.steps for r in records), total),
        "seconds_per_question": round(sum(r.seconds for r in records) / total, 5) if total else 0.0,
    }


@dataclass(frozen=True, slots=True)
class QaReport:
    """The figures of one question-file evaluation (`to_json` gives the `--json` object)."""

    dataset: str
    policy: str
    items: tuple[QaItem, ...]
    records: tuple[RunRecord, ...]
    split: str | None = None
    sweep: tuple[dict[str, float], ...] = field(default=())

    def counts(self) -> dict[str, int]:
        """How many runs fell in each of the four verdicts."""
        counts: dict[str, int] = summarize_qa(self.items, self.records)["counts"]
        return counts

    def to_json(self) -> dict[str, Any]:
        report: dict[str, Any] = {"dataset": self.dataset, "split": self.split, "policy": self.policy}
        report.update(summarize_qa(self.items, self.records))
        if self.sweep:
            report["sweep"] = list(self.sweep)
        report["runs"] = [_run_json(i, r) for i, r in zip(self.items, self.records, strict=True)]
        return report

    def table(self) -> str:
        """A short human-readable table of the figures (and the sweep, if any)."""
        data = self.to_json()
        counts, rates = data["counts"], data["rates"]
        has, no = data["answerable"], data["unanswerable"]
        split = f" (split {self.split})" if self.split else ""
        lines = [f"{self.dataset}{split} with {self.policy}: {data['questions']} questions"]
        lines += [f"  {v:<22} {counts[v]:>5}   {rates[v]:.3f}" for v in VERDICTS]
        lines += [
            f"  answerable ({has['count']})  correct {has['correct_rate']:.3f}"
            f"   wrong {has['wrong_rate']:.3f}   refused {has['refused_rate']:.3f}"
            f"   evidence holds answer {has['evidence_holds_answer']:.3f}",
            f"  unanswerable ({no['count']})  refused {no['refused_rate']:.3f}   answered {no['answered']}",
            f"  citation validity      {data['citation_validity']:.3f}",
            f"  steps / question       {data['steps_per_question']:.2f}",
            f"  seconds / question     {data['seconds_per_question']:.4f}",
        ]
        if self.sweep:
            lines.append("  threshold  answered  correct  wrong  refused  unanswerable-refused")
            lines += [
                f"  {p['threshold']:9.2f}  {p['answered_rate']:8.3f}  {p['correct']:7.0f}  {p['wrong']:5.0f}"
                f"  {p['refused']:7.0f}  {p['unanswerable_refused']:20.0f}"
                for p in self.sweep
            ]
        return "\n".join(lines)


def _run_json(item: QaItem, record: RunRecord) -> dict[str, Any]:
    outcome = record.outcome
    return {
        "id": item.id,
        "question": item.question,
        "verdict": verdict(item, outcome.status, outcome.answer),
        "answer": outcome.answer,
        "evidence_holds_answer": item.answerable and item.matches(outcome.evidence_text),
        "citations": list(outcome.citations),
        "reason": outcome.reason,
        "citations_valid": record.citations_valid,
    }


def _ratio(part: float, whole: int, *, empty: float = 0.0) -> float:
    return round(part / whole, 4) if whole else empty
