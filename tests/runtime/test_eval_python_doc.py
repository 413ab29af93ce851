"""The documentation development set (tests/data/python_doc_qa.jsonl over pages of the Python 3.11 manual).

The set itself is checked here: every answerable question names the page and the sentence
its answer was verified in, the sentence is in that page as the corpus reads it, and the
gold answers match the sentence. The evaluation on it checks only what must hold for any
policy; the figures themselves are the team's to move (README, "Evaluating on your own
questions").
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from citeloop.runtime.eval import load_qa, run_qa_evaluation
from citeloop.tools import Corpus
from helpers.cli import run_citeloop

DATA = Path(__file__).parents[1] / "data"
QUESTIONS = DATA / "python_doc_qa.jsonl"
PAGES = DATA / "python_doc" / "html"
VERDICTS = ("correct", "wrong", "refused", "unanswerable_refused")
ORIGINAL = 92  # lines of the set as first written; the rest are dev additions


def raw_lines() -> list[dict[str, Any]]:
    return [json.loads(line) for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]


def collapse(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(autouse=True)
def _private_index_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITELOOP_CACHE_DIR", str(tmp_path / "cache"))


def test_the_set_has_its_size_its_kinds_and_its_fixed_split() -> None:
    qa = load_qa(QUESTIONS)
    answerable = [i for i in qa.items if i.answerable]
    unanswerable = [i for i in qa.items if not i.answerable]
    assert len(answerable) >= 60 and len(unanswerable) >= 20
    kinds = Counter(i.type for i in answerable)
    assert set(kinds) == {"default", "number", "which", "what", "version"}, kinds
    assert all(i.type == "unanswerable" for i in unanswerable)
    # The split rule (tests/data/python_doc/README.md): the first 92 lines are the original set;
    # within its answerable and within its unanswerable questions, rank by the sha256 of the
    # question; the first half is dev. The lines after them were written later over pages the
    # original set never cites, and are all dev.
    original, added = qa.items[:ORIGINAL], qa.items[ORIGINAL:]
    for group in ([i for i in original if i.answerable], [i for i in original if not i.answerable]):
        ranked = sorted(group, key=lambda i: hashlib.sha256(i.question.encode("utf-8")).hexdigest())
        expected = ["dev"] * (len(ranked) // 2) + ["test"] * (len(ranked) - len(ranked) // 2)
        assert [i.split for i in ranked] == expected
    assert added and all(i.split == "dev" for i in added)
    original_pages = {i.page for i in original if i.page}
    assert not original_pages & {i.page for i in added if i.page}
    assert len(load_qa(QUESTIONS, split="test").items) == 46


def test_every_answer_was_verified_in_its_page() -> None:
    qa = load_qa(QUESTIONS)
    quotes = {line["id"]: line.get("quote") for line in raw_lines()}
    corpus = Corpus.from_path(PAGES)
    try:
        bodies = {url.rsplit("/html/", 1)[-1]: collapse(corpus.open(url).body) for url in corpus.urls()}  # type: ignore[union-attr]
    finally:
        corpus.close()
    assert len(bodies) == len(list(PAGES.rglob("*.html")))
    for item in qa.items:
        quote = quotes[item.id]
        if not item.answerable:
            assert item.page is None and quote is None, item.id
            continue
        assert item.page in bodies, f"{item.id}: no page {item.page}"
        assert isinstance(quote, str) and collapse(quote) in bodies[item.page], (
            f"{item.id}: quote not in page"
        )
        assert item.matches(quote), f"{item.id}: no gold answer matches its own quote"


def test_gold_answers_reject_the_near_misses() -> None:
    """The numeric golds take the stated value and nothing around it (spot checks of the rule)."""
    by_id = {i.id: i for i in load_qa(QUESTIONS).items}
    gzip_level, port, protocol = by_id["py001"], by_id["py017"], by_id["py063"]
    assert gzip_level.matches("9") and gzip_level.matches("compresslevel=9")
    assert not gzip_level.matches("an integer from 0 to 9") and not gzip_level.matches("19")
    assert port.matches("port 8000") and not port.matches("port 80") and not port.matches("18000")
    assert protocol.matches("New in version 3.11.") and not protocol.matches("3.1")
    assert not protocol.matches("3.11.1")


def test_eval_on_ten_dev_questions_through_the_command(tmp_path: Path) -> None:
    """CI-sized: whatever the policy, citations hold, the verdicts add up, nothing crashes."""
    env = {**os.environ, "CITELOOP_CACHE_DIR": str(tmp_path / "cache")}
    result = run_citeloop(
        "eval", "qa", str(QUESTIONS), "--corpus", str(PAGES), "--split", "dev", "--limit", "10", "--json",
        cwd=tmp_path, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["questions"] == 10 and report["split"] == "dev"
    assert sum(report["counts"][v] for v in VERDICTS) == 10
    assert report["answerable"]["count"] + report["unanswerable"]["count"] == 10
    assert report["citation_validity"] == 1.0
    assert all(run["citations_valid"] for run in report["runs"])
    assert [run["verdict"] for run in report["runs"]].count("correct") == report["counts"]["correct"]


def test_dev_half_holds_the_precision_targets(tmp_path: Path) -> None:
    """The dev half through the command (a few seconds): the issue 11 targets, as a regression guard.

    Among answerable questions at most 5% wrong and at least 40% correct; unanswerable ones
    refused (90% here: one question of ten is 10%). The test half is measured, never tuned
    on (CHANGELOG has both figures).
    """
    env = {**os.environ, "CITELOOP_CACHE_DIR": str(tmp_path / "cache")}
    result = run_citeloop(
        "eval", "qa", str(QUESTIONS), "--corpus", str(PAGES), "--split", "dev", "--json",
        cwd=tmp_path, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    answerable = report["answerable"]
    assert answerable["wrong_rate"] <= 0.05 and answerable["correct_rate"] >= 0.40, answerable
    assert report["unanswerable"]["refused_rate"] >= 0.9, report["unanswerable"]
    assert report["citation_validity"] == 1.0


@pytest.mark.slow
@pytest.mark.parametrize("split", ["dev", "test"])
def test_full_eval_on_each_half(split: str) -> None:
    report = run_qa_evaluation(QUESTIONS, PAGES, split=split).to_json()
    answerable, unanswerable = {"dev": (282, 64), "test": (36, 10)}[split]
    assert report["questions"] == answerable + unanswerable
    assert sum(report["counts"].values()) == answerable + unanswerable
    assert report["answerable"]["count"] == answerable and report["unanswerable"]["count"] == unanswerable
    assert report["citation_validity"] == 1.0
