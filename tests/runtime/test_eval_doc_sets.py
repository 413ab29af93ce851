"""The documentation sets of other manuals than the Python one (tests/data/*_doc_qa.jsonl).

The Git manual's pages are AsciiDoc, the Apache HTTP Server's module pages a table of
directive facts over prose, the SQLite manual's a database reference in running prose, the
Postfix manual's howtos naming configuration parameters with their defaults; the
rules were written on Sphinx pages first. Each set is checked as
the Python one is (every answer verified in its page, the fixed split); the evaluation
checks what must hold for any policy, and each dev half is held to the precision targets
of issue 11.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from citeloop.runtime.eval import load_qa, run_qa_evaluation
from citeloop.tools import Corpus

DATA = Path(__file__).parents[1] / "data"
SETS = ("git_doc", "apache_doc", "sqlite_doc", "sqlite_doc3", "postfix_doc")
# Per set: answerable and unanswerable questions, pages. The SQLite set has two rounds of 58
# questions over 8 pages each (its README), each round split on its own.
SIZES = {
    "git_doc": (48, 10, 8),
    "apache_doc": (48, 10, 8),
    "sqlite_doc": (97, 19, 16),  # one question written as unanswerable was relabeled (its README)
    "sqlite_doc3": (48, 10, 8),
    "postfix_doc": (48, 10, 8),
}
# The sets whose dev half rules were written on, and so is held to the targets (sqlite_doc3's and
# postfix_doc's since 2026-12-03: their READMEs).
WRITTEN_ON = ("git_doc", "apache_doc", "sqlite_doc", "sqlite_doc3", "postfix_doc")


def questions(name: str) -> Path:
    return DATA / f"{name}_qa.jsonl"


def pages(name: str) -> Path:
    return DATA / name / "html"


def raw_lines(name: str) -> list[dict[str, Any]]:
    text = questions(name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def collapse(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(autouse=True)
def _private_index_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITELOOP_CACHE_DIR", str(tmp_path / "cache"))


@pytest.mark.parametrize("name", SETS)
def test_the_set_has_its_size_and_its_fixed_split(name: str) -> None:
    qa = load_qa(questions(name))
    answerable = [i for i in qa.items if i.answerable]
    unanswerable = [i for i in qa.items if not i.answerable]
    assert (len(answerable), len(unanswerable)) == SIZES[name][:2]
    assert all(i.type == "unanswerable" for i in unanswerable)
    assert set(Counter(i.type for i in answerable)) <= {"default", "number", "which", "what", "version"}
    # The set's README: within each round and group, rank by the question's sha256; the first half is dev.
    # A relabeled question keeps the split of the group it was written in (`written_as`).
    rounds = {line["id"]: line.get("round", 1) for line in raw_lines(name)}
    written = {
        line["id"]: line.get("written_as", line.get("type")) == "unanswerable" for line in raw_lines(name)
    }
    for round_ in set(rounds.values()):
        for unanswered in (False, True):
            ranked = sorted(
                (i for i in qa.items if rounds[i.id] == round_ and written[i.id] == unanswered),
                key=lambda i: hashlib.sha256(i.question.encode("utf-8")).hexdigest(),
            )
            expected = ["dev"] * (len(ranked) // 2) + ["test"] * (len(ranked) - len(ranked) // 2)
            assert [i.split for i in ranked] == expected


@pytest.mark.parametrize("name", SETS)
def test_every_answer_was_verified_in_its_page(name: str) -> None:
    qa = load_qa(questions(name))
    quotes = {line["id"]: line.get("quote") for line in raw_lines(name)}
    corpus = Corpus.from_path(pages(name))
    try:
        bodies = {url.rsplit("/", 1)[-1]: collapse(corpus.open(url).body) for url in corpus.urls()}  # type: ignore[union-attr]
    finally:
        corpus.close()
    assert len(bodies) == len(list(pages(name).glob("*.html"))) == SIZES[name][2]
    for item in qa.items:
        quote = quotes[item.id]
        if not item.answerable:
            assert item.page is None and quote is None, item.id
            continue
        assert item.page in bodies, f"{item.id}: no page {item.page}"
        assert isinstance(quote, str), item.id
        assert collapse(quote) in bodies[item.page], f"{item.id}: quote not in page"
        assert item.matches(quote), f"{item.id}: no gold answer matches its own quote"


@pytest.mark.slow
@pytest.mark.parametrize("split", ["dev", "test"])
@pytest.mark.parametrize("name", SETS)
def test_each_half_runs_with_valid_citations(name: str, split: str) -> None:
    report = run_qa_evaluation(questions(name), pages(name), split=split).to_json()
    half = (SIZES[name][0] + SIZES[name][1]) // 2
    assert report["questions"] == half
    assert sum(report["counts"].values()) == half
    assert report["citation_validity"] == 1.0


@pytest.mark.parametrize("name", WRITTEN_ON)
def test_dev_half_holds_the_precision_targets(name: str) -> None:
    """The dev half (written on): at most 5% wrong and at least 40% correct among answerable
    questions, every unanswerable one refused. The test half is measured, never tuned on
    (README, "Evaluating on your own questions", has both figures)."""
    report = run_qa_evaluation(questions(name), pages(name), split="dev").to_json()
    answerable = report["answerable"]
    assert answerable["wrong_rate"] <= 0.05 and answerable["correct_rate"] >= 0.40, answerable
    assert report["unanswerable"]["refused_rate"] == 1.0, report["unanswerable"]
    assert report["citation_validity"] == 1.0
