"""Review T (2026-12-05): its answered near miss that a rule now refuses - a change note of another kind
for when a function "gained" a parameter."""

from __future__ import annotations

from pathlib import Path

from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers

PYTHON = Path(__file__).parents[1] / "data" / "python_doc" / "html"


def _answers(question: str) -> list[str]:
    corpus = Corpus.from_path(PYTHON)
    try:
        pages = [page for page in (corpus.open(url) for url in corpus.urls()) if page is not None]
        return doc_answers(pages, question)
    finally:
        corpus.close()


def test_gaining_a_parameter_is_asked_as_adding_one() -> None:
    # gzip: "Changed in version 3.11: Speed is improved by decompressing members at once ..." says
    # nothing of mtime; "Changed in version 3.8: Added the mtime parameter ..." is compress()'s.
    assert "3.11" not in _answers("In which Python version did gzip.decompress() gain an mtime parameter?")
    assert _answers("In which Python version did gzip.compress() gain an mtime parameter?")[:1] == ["3.8"]
