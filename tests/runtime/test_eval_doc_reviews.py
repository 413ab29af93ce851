"""The review sets (tests/data/doc_reviews/): fresh questions over the six documentation corpora.

Each set was written by a helper from the pages alone and measured before anyone read it (its
README). The answers are checked against their pages here, and every set is held to the precision
targets of issue 11 that hold for questions nobody fitted - at most 5% of the answerable questions
answered wrong, at least 95% of the unanswerable ones refused, every citation valid - not to the
recall target, which the unread sets do not meet (README, "Evaluating on your own questions").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from citeloop.runtime.eval import load_qa, run_qa_evaluation
from citeloop.tools import Corpus

REVIEWS = Path(__file__).parents[1] / "data" / "doc_reviews"
DATA = REVIEWS.parent
LETTERS = sorted({path.name.split("_")[1] for path in REVIEWS.glob("review_*_*.jsonl")})


def _files(letter: str) -> list[tuple[Path, Path]]:
    """Each file of review `letter` with the corpus its questions are asked over."""
    found = sorted(REVIEWS.glob(f"review_{letter}_*.jsonl"))
    return [(path, DATA / path.stem.removeprefix(f"review_{letter}_") / "html") for path in found]


@pytest.fixture(autouse=True)
def _private_index_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CITELOOP_CACHE_DIR", str(tmp_path / "cache"))


def test_every_review_covers_the_six_corpora() -> None:
    assert len(LETTERS) >= 10
    for letter in LETTERS:
        corpora = {corpus.parent.name for _, corpus in _files(letter)}
        assert corpora <= {"apache_doc", "git_doc", "postfix_doc", "python_doc", "sqlite_doc", "sqlite_doc3"}
        assert len(corpora) >= 5, letter


@pytest.mark.parametrize("letter", LETTERS)
def test_every_answer_is_in_its_page(letter: str) -> None:
    for path, pages in _files(letter):
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        corpus = Corpus.from_path(pages)
        try:
            bodies = {url.split("/html/", 1)[-1]: corpus.open(url) for url in corpus.urls()}
        finally:
            corpus.close()
        by_file = {
            key.rsplit("/", 1)[-1]: " ".join(page.body.split())
            for key, page in bodies.items()
            if page is not None
        }
        items = {item.id: item for item in load_qa(path).items}
        for line in lines:
            item = items[line["id"]]
            if not item.answerable:
                continue
            body = by_file[line["page"].rsplit("/", 1)[-1]]
            quote = " ".join(line["quote"].split())
            assert quote in body or quote.replace(" ", "") in body.replace(" ", ""), f"{line['id']}: quote"
            assert item.matches(line["quote"]), f"{line['id']}: no gold answer matches its own quote"


@pytest.mark.slow
@pytest.mark.parametrize("letter", LETTERS)
def test_every_review_holds_the_precision_targets(letter: str) -> None:
    answerable = wrong = unanswerable = refused = 0
    for path, pages in _files(letter):
        report = run_qa_evaluation(path, pages).to_json()
        assert report["citation_validity"] == 1.0, path.name
        answerable += report["answerable"]["count"]
        wrong += round(report["answerable"]["wrong_rate"] * report["answerable"]["count"])
        unanswerable += report["unanswerable"]["count"]
        refused += report["counts"]["unanswerable_refused"]
    assert wrong <= 0.05 * answerable, (letter, wrong, answerable)
    # Issue 11's target: at least 95% of unanswerable questions refused - every one of a set asking 12,
    # all but one of review Q's 36 near misses.
    assert refused >= 0.95 * unanswerable, (letter, refused, unanswerable)
