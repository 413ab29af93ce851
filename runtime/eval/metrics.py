"""Evaluation metrics: what one run produced, whether its citations hold, and the figures over many runs.

Citation validity is recomputed from each run's log, independently of the fold and the
gate: every accepted citation must name a page the run opened (a `Page` observation in
its log), and every locator's quote must equal `body[start:end]` of that page, whose
sha256 (hashed here again) must match.

Outcomes are counted as `correct` (the answer equals a gold answer after SQuAD's
normalization), `wrong` (an answer sharing no word with any gold answer, or any answer to
an unanswerable question), `partial` (the rest of the answers) and `refused`. Where the
dataset names gold paragraphs (HotpotQA's supporting facts), `gold_paragraphs` says how
often an answer cited both of them, or at least one.
"""

from __future__ import annotations

import hashlib
import string
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from citeloop.events import Answered, Event, Page, ToolObserved
from citeloop.runtime import Outcome

from .datasets import EvalItem

__all__ = ("RunRecord", "citations_valid", "f1_score", "normalize_answer", "summarize")


@dataclass(frozen=True, slots=True)
class RunRecord:
    """What one question's run produced, checked against its log."""

    item: EvalItem
    outcome: Outcome
    seconds: float
    citations_valid: bool
    confidence: float | None  # from the first finish's thought, for the sweep


def citations_valid(outcome: Outcome, events: Sequence[Event]) -> bool:
    """Whether an answer's citations and locators hold against the pages its own log shows opened."""
    if outcome.status != "answered":
        return True
    opened: dict[str, str] = {}
    for event in events:
        if isinstance(event, ToolObserved) and isinstance(event.observation, Page):
            opened[event.observation.url] = event.observation.body
    answered = [e for e in events if isinstance(e, Answered)]
    if len(answered) != 1 or not outcome.citations or not outcome.locators:
        return False
    if any(url not in opened for url in outcome.citations):
        return False
    for locator in outcome.locators:
        body = opened.get(locator.url)
        if body is None or locator.url not in outcome.citations:
            return False
        if body[locator.start : locator.end] != locator.quote:
            return False
        if hashlib.sha256(body.encode("utf-8")).hexdigest() != locator.sha256:
            return False
    return True


def normalize_answer(text: str) -> str:
    """SQuAD's normalization: lower case, no punctuation, no articles, single spaces."""
    text = "".join(c for c in text.lower() if c not in string.punctuation)
    return " ".join(w for w in text.split() if w not in ("a", "an", "the"))


def f1_score(prediction: str, gold: str) -> float:
    """Token-level F1 between normalized answers (SQuAD's definition)."""
    pred, ref = normalize_answer(prediction).split(), normalize_answer(gold).split()
    common = sum((Counter(pred) & Counter(ref)).values())
    if not pred or not ref or not common:
        return float(pred == ref)
    precision, recall = common / len(pred), common / len(ref)
    return 2 * precision * recall / (precision + recall)


def summarize(records: Sequence[RunRecord]) -> dict[str, Any]:
    """The report's figures over a set of run records."""
    total = len(records)
    answered = [r for r in records if r.outcome.status == "answered"]
    positive = [r for r in records if r.item.answerable]
    negative = [r for r in records if not r.item.answerable]
    contains = whole = em = f1 = 0.0
    verdicts = Counter(_verdict(r) for r in records)
    with_gold = [r for r in positive if r.item.gold_urls]
    both_cited = sum(_gold_cited(r) == len(r.item.gold_urls) for r in with_gold)
    one_cited = sum(_gold_cited(r) > 0 for r in with_gold)
    for record in positive:
        if record.outcome.status != "answered":
            continue
        evidence = normalize_answer(record.outcome.evidence_text)
        contains += evidence_holds_gold(record)
        padded = f" {evidence} "
        whole += any(f" {normalize_answer(g)} " in padded for g in _quotable(record.item.answers))
        em += max(
            (
                float(normalize_answer(record.outcome.answer) == normalize_answer(g))
                for g in record.item.answers
            ),
            default=0.0,
        )
        f1 += max((f1_score(record.outcome.answer, g) for g in record.item.answers), default=0.0)
    reasons = Counter(r.outcome.reason for r in records if r.outcome.reason)
    report: dict[str, Any] = {
        "questions": total,
        "answered_rate": _ratio(len(answered), total),
        "citation_validity": _ratio(sum(r.citations_valid for r in answered), len(answered), empty=1.0),
        "has_answer": {
            "count": len(positive),
            "answered_rate": _ratio(sum(r.outcome.status == "answered" for r in positive), len(positive)),
            "evidence_contains_gold": _ratio(contains, len(positive)),
            # The same as whole words: "no" is in "not" or "known" as a string, not as a word.
            "evidence_contains_gold_words": _ratio(whole, len(positive)),
            "em": _ratio(em, len(positive)),
            "f1": _ratio(f1, len(positive)),
        },
        "no_answer": {
            "count": len(negative),
            "abstention_rate": _ratio(sum(r.outcome.status == "abstained" for r in negative), len(negative)),
        },
        "counts": {
            "answered": len(answered),
            **{name: verdicts[name] for name in ("correct", "partial", "wrong", "refused")},
        },
        "abstain_reasons": dict(sorted(reasons.items())),
        "steps_per_question": _ratio(sum(r.outcome.steps for r in records), total),
        "seconds_per_question": round(sum(r.seconds for r in records) / total, 5) if total else 0.0,
    }
    if with_gold:
        report["gold_paragraphs"] = {
            "count": len(with_gold),
            "both_cited": _ratio(both_cited, len(with_gold)),
            "one_cited": _ratio(one_cited, len(with_gold)),
        }
    return report


def evidence_holds_gold(record: RunRecord) -> bool:
    """Whether an answered record's evidence holds one of its gold answers (after normalization)."""
    evidence = normalize_answer(record.outcome.evidence_text)
    return any(normalize_answer(g) in evidence for g in _quotable(record.item.answers))


def _quotable(answers: Sequence[str]) -> list[str]:
    """The gold answers a quote can hold: not empty, and not a verdict ("yes", "no"), which evidence
    settles but never says ("no" is in "known"); a yes-or-no answer counts in EM and F1 only."""
    return [g for g in answers if normalize_answer(g) not in ("", "yes", "no")]


def _verdict(record: RunRecord) -> str:
    """`correct`, `partial`, `wrong` or `refused` (the module docstring)."""
    outcome, item = record.outcome, record.item
    if outcome.status != "answered":
        return "refused"
    if not item.answerable:
        return "wrong"
    answer = normalize_answer(outcome.answer)
    if any(answer == normalize_answer(gold) for gold in item.answers):
        return "correct"
    return "partial" if any(f1_score(outcome.answer, gold) > 0 for gold in item.answers) else "wrong"


def _gold_cited(record: RunRecord) -> int:
    """How many of the item's gold paragraphs an answer cites (0 for a refusal)."""
    if record.outcome.status != "answered":
        return 0
    return sum(url in record.outcome.citations for url in record.item.gold_urls)


def _ratio(part: float, whole: int, *, empty: float = 0.0) -> float:
    return round(part / whole, 4) if whole else empty
