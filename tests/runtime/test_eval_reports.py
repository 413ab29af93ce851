"""`citeloop eval reports`: report runs over a question file, judged by the quotes of their footnotes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from citeloop.runtime.eval import load_qa
from citeloop.runtime.eval.reports import evaluate_reports
from citeloop.tools import Corpus

pytestmark = pytest.mark.anyio

QUESTIONS = [
    # A gold pattern anchored for a short answer: it matches the quote, never the whole report.
    {"id": "anchored", "question": "Who founded Acme Robotics?", "answers": [{"re": "^Acme Robotics was"}]},
    {"id": "wrong", "question": "Who founded Acme Robotics?", "answers": ["Kenji Ito"]},
    # The question repeats in the report's heading and gap line: that is no answer.
    {"id": "echo", "question": "What is the capital of Mars?", "answers": ["capital of Mars"]},
    {"id": "unanswerable", "question": "What is the capital of Mars?", "answers": []},
]


@pytest.fixture(scope="module")
def demo() -> Iterator[Corpus]:
    corpus = Corpus.demo()
    yield corpus
    corpus.close()


async def test_each_verdict_follows_from_the_footnotes(tmp_path: Path, demo: Corpus) -> None:
    path = tmp_path / "questions.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in QUESTIONS), encoding="utf-8")
    report = await evaluate_reports(load_qa(path), demo)
    verdicts = {record.item.id: record.verdict for record in report.records}
    assert verdicts == {
        "anchored": "correct",
        "wrong": "wrong",
        "echo": "refused",
        "unanswerable": "unanswerable_refused",
    }
    figures = report.to_json()
    assert figures["accepted"] == 2 and figures["refused"] == 2
    # The refused runs wrote a draft of gaps only, twice: validation refused both (no citations).
    assert figures["drafts_rejected"] == 4 and figures["findings"] == {"no_citations": 4}
    assert figures["footnotes_in_accepted"] == 2
    assert "finding no_citations" in report.table()
