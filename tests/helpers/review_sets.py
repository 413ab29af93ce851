"""For the review-set tests: every question of a HotpotQA-format file run over its own paragraphs."""

from __future__ import annotations

from pathlib import Path

from citeloop.policies import ExtractivePolicy
from citeloop.runtime.eval import load_dataset
from citeloop.runtime.eval._run import run_records
from citeloop.runtime.eval.metrics import RunRecord
from citeloop.tools import Corpus


async def run_review_set(path: Path) -> list[RunRecord]:
    """The extractive policy's record of each question of `path`, asked over the file's paragraphs."""
    dataset = load_dataset("hotpotqa", path)
    corpus = Corpus.from_pages(dataset.pages, name=path.stem)
    try:
        return await run_records(dataset.items, corpus, ExtractivePolicy())
    finally:
        corpus.close()
