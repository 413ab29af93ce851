"""Running a question file (`citeloop eval qa`) through the real `Runtime` over a corpus folder or file.

The sweep is the one of the SQuAD / HotpotQA evaluation (runtime/eval/_run.py): one pass
at threshold 0, each run then read as it would have ended at each threshold.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import anyio
from citeloop.policies import ExtractivePolicy, Policy
from citeloop.tools import Corpus

from ._run import DEFAULT_THRESHOLDS, at_threshold, policy_name, run_records, sweep_policy
from .metrics import RunRecord
from .qa import QaItem, QaSet, load_qa
from .qa_report import QaReport, summarize_qa


async def evaluate_qa(
    questions: QaSet,
    corpus: Corpus,
    *,
    policy: Policy | None = None,
    limit: int | None = None,
    max_steps: int = 6,
    progress: Callable[[int, int], None] | None = None,
    sweep: bool = False,
    thresholds: Sequence[float] = DEFAULT_THRESHOLDS,
) -> QaReport:
    """Run each question (the first `limit`) through a `Runtime` over `corpus` and judge its outcome.

    The corpus stays the caller's to close. With `sweep`, the policy must be an
    `ExtractivePolicy`; the main figures are then those at its own threshold.
    """
    chosen: Policy = policy if policy is not None else ExtractivePolicy()
    items = questions.items[:limit] if limit is not None else questions.items
    run_policy = sweep_policy(chosen) if sweep else chosen
    records = await run_records(
        [i.as_eval_item() for i in items], corpus, run_policy, max_steps=max_steps, progress=progress
    )
    name = policy_name(chosen)
    if not sweep:
        return QaReport(questions.name, name, items, tuple(records), questions.split)
    assert isinstance(chosen, ExtractivePolicy)
    curve = tuple(_point(items, records, t) for t in sorted({*thresholds, chosen.min_confidence}))
    at_default = tuple(at_threshold(r, chosen.min_confidence) for r in records)
    return QaReport(questions.name, name, items, at_default, questions.split, curve)


def run_qa_evaluation(
    path: str | Path,
    corpus: str | Path,
    *,
    split: str | None = None,
    policy: Policy | None = None,
    limit: int | None = None,
    sweep: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> QaReport:
    """Load a question file and a corpus and evaluate: the synchronous entry point for the command line."""
    questions = load_qa(path, split=split)

    async def main() -> QaReport:
        # Built (or its stored index checked) off the event loop: a large folder takes seconds.
        pages = await anyio.to_thread.run_sync(Corpus.from_path, corpus)
        try:
            return await evaluate_qa(
                questions, pages, policy=policy, limit=limit, sweep=sweep, progress=progress
            )
        finally:
            pages.close()

    return anyio.run(main)


def _point(items: Sequence[QaItem], records: Sequence[RunRecord], threshold: float) -> dict[str, float]:
    summary = summarize_qa(items, [at_threshold(r, threshold) for r in records])
    return {"threshold": threshold, "answered_rate": summary["answered_rate"], **summary["counts"]}
