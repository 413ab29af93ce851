"""Running an evaluation: every question of a dataset through the real `Runtime`, and the threshold sweep.

The corpus is built from the dataset's own paragraphs. The sweep needs one pass: the
policy runs at `min_confidence=0`, and its first finish states its confidence in the
thought ("confidence 0.612 ..."); since nothing before the finish depends on the
threshold, a run at threshold t answers exactly when that confidence is >= t. Policies
without that knob get a single point.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Final

import anyio
from citeloop.events import ActionParsed, Event, Finish, UsageError, open_store
from citeloop.policies import ExtractivePolicy, Policy
from citeloop.runtime import Runtime
from citeloop.tools import Corpus

from .datasets import Dataset, DatasetKind, EvalItem, load_dataset, select_split
from .metrics import RunRecord, citations_valid, evidence_holds_gold, summarize
from .report import EvalReport

DEFAULT_THRESHOLDS: tuple[float, ...] = tuple(round(0.05 * i, 2) for i in range(20))
_CONFIDENCE = re.compile(r"confidence (\d+(?:\.\d+)?)")


async def evaluate(
    dataset: Dataset,
    *,
    policy: Policy | None = None,
    limit: int | None = None,
    max_steps: int = 6,
    progress: Callable[[int, int], None] | None = None,
    sweep: bool = False,
    thresholds: Sequence[float] = DEFAULT_THRESHOLDS,
    split: str | None = None,
) -> EvalReport:
    """Run each question (the first `limit`) through a `Runtime` over the dataset's corpus.

    `split` keeps one HotpotQA half (`dev` or `held-out`, `hotpotqa_split`) before `limit`
    applies; the corpus stays every paragraph of the file. With `sweep`, the policy must be an
    `ExtractivePolicy`: it runs at threshold 0 and the report holds the trade-off curve; its
    main figures are those at the policy's own threshold.
    """
    chosen: Policy = policy if policy is not None else ExtractivePolicy()
    items = select_split(dataset.items, split) if split is not None else dataset.items
    items = items[:limit] if limit is not None else items
    run_policy = sweep_policy(chosen) if sweep else chosen
    corpus = Corpus.from_pages(dataset.pages, name=dataset.name)
    try:
        records = await run_records(items, corpus, run_policy, max_steps=max_steps, progress=progress)
    finally:
        corpus.close()
    name = policy_name(chosen)
    label = f"{dataset.name} [{split}]" if split is not None else dataset.name
    if not sweep:
        return EvalReport(label, name, tuple(records))
    assert isinstance(chosen, ExtractivePolicy)
    curve = tuple(_point(records, t) for t in sorted({*thresholds, chosen.min_confidence}))
    at_default = tuple(at_threshold(r, chosen.min_confidence) for r in records)
    return EvalReport(label, name, at_default, curve, operating_point(records, OPERATING_ABSTENTION))


def sweep_policy(chosen: Policy) -> ExtractivePolicy:
    """The policy a sweep runs: `chosen` at threshold 0 (a `UsageError` when it has no threshold)."""
    if not isinstance(chosen, ExtractivePolicy):
        raise UsageError("--sweep needs a policy with a confidence threshold (extractive)")
    return ExtractivePolicy(min_confidence=0.0, max_opens=chosen.max_opens)


def policy_name(policy: Policy) -> str:
    return str(getattr(policy, "name", type(policy).__name__))


async def run_records(
    items: Sequence[EvalItem],
    corpus: Corpus,
    policy: Policy,
    *,
    max_steps: int = 6,
    progress: Callable[[int, int], None] | None = None,
) -> list[RunRecord]:
    """Run each question through one `Runtime` over `corpus` (an in-memory store) and record it."""
    records: list[RunRecord] = []
    async with Runtime(
        store=open_store("memory://"), tools=corpus.tools(), policy=policy, max_steps=max_steps
    ) as rt:
        for done, item in enumerate(items, start=1):
            started = time.perf_counter()
            outcome = await rt.run(item.question)
            seconds = time.perf_counter() - started
            events = await rt.transcript(outcome.run_id)
            records.append(
                RunRecord(item, outcome, seconds, citations_valid(outcome, events), _first_confidence(events))
            )
            if progress is not None:
                progress(done, len(items))
    return records


def run_evaluation(
    kind: DatasetKind,
    path: str | Path,
    *,
    policy: Policy | None = None,
    limit: int | None = None,
    sweep: bool = False,
    progress: Callable[[int, int], None] | None = None,
    split: str | None = None,
) -> EvalReport:
    """Load a file and evaluate it: the synchronous entry point for the command line."""
    dataset = load_dataset(kind, path)

    async def main() -> EvalReport:
        return await evaluate(
            dataset, policy=policy, limit=limit, sweep=sweep, progress=progress, split=split
        )

    return anyio.run(main)


def stderr_progress(done: int, total: int) -> None:
    """A one-line progress bar on stderr, redrawn in place."""
    width = 30
    filled = width * done // max(1, total)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _first_confidence(events: Sequence[Event]) -> float | None:
    for event in events:
        if isinstance(event, ActionParsed) and isinstance(event.action, Finish):
            match = _CONFIDENCE.search(event.thought)
            return float(match.group(1)) if match else None
    return None


def at_threshold(record: RunRecord, threshold: float) -> RunRecord:
    """The record as a run at `threshold` would have ended (see the module docstring).

    A run whose first finish stated a confidence below `threshold` would have refused
    there (`missing_fact`), whatever the swept run did after it: answered, or refused for
    another reason after a rejected finish. A run whose finishes state no confidence (the
    extractive policy's documentation answers, which the threshold does not govern) ends
    as it did.
    """
    below = record.confidence is not None and record.confidence < threshold
    if below and (record.outcome.status == "answered" or record.outcome.reason != "missing_fact"):
        refused = replace(
            record.outcome,
            status="abstained",
            answer="cannot: below the confidence threshold",
            citations=(),
            evidence="",
            locators=(),
            reason="missing_fact",
        )
        return replace(record, outcome=refused)
    return record


# The refusal of unanswerable questions the operating point keeps (the SQuAD 2.0 target of issue 11).
OPERATING_ABSTENTION: Final = 0.80


def operating_point(records: Sequence[RunRecord], min_abstention: float) -> dict[str, float] | None:
    """The lowest threshold at which the swept run refuses at least `min_abstention` of its
    unanswerable questions, and its figures: the grid of the sweep can miss it by up to a step.

    Exact over the records' confidences (a run answers at threshold t when its first finish's
    confidence is at least t, `at_threshold`); None without unanswerable or answerable questions.
    Chosen on the evaluated questions themselves, so it is an in-sample figure.
    """
    positive = [r for r in records if r.item.answerable]
    negative = [r for r in records if not r.item.answerable]
    if not positive or not negative:
        return None

    def answers(record: RunRecord, threshold: float) -> bool:
        # As `at_threshold` decides: an answer stands unless its stated confidence is below.
        return record.outcome.status == "answered" and (
            record.confidence is None or record.confidence >= threshold
        )

    def abstention(threshold: float) -> float:
        return sum(not answers(r, threshold) for r in negative) / len(negative)

    candidates = sorted({0.0, *(r.confidence for r in records if r.confidence is not None)})
    # The refusal rate only grows with the threshold: bisect for the first candidate that reaches it.
    low, high = 0, len(candidates)
    while low < high:
        middle = (low + high) // 2
        if abstention(candidates[middle]) >= min_abstention:
            high = middle
        else:
            low = middle + 1
    if low == len(candidates):
        return None
    threshold = candidates[low]
    holding = sum(answers(r, threshold) and evidence_holds_gold(r) for r in positive)
    return {
        "threshold": threshold,
        "min_abstention": min_abstention,
        "evidence_contains_gold": round(holding / len(positive), 4),
        "abstention_rate": round(abstention(threshold), 4),
    }


def _point(records: Sequence[RunRecord], threshold: float) -> dict[str, float]:
    summary = summarize([at_threshold(r, threshold) for r in records])
    return {
        "threshold": threshold,
        "answered_rate": summary["answered_rate"],
        "evidence_contains_gold": summary["has_answer"]["evidence_contains_gold"],
        "abstention_rate": summary["no_answer"]["abstention_rate"],
    }
