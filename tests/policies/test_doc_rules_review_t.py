"""Review T (2026-12-05): its answered near miss that a rule now refuses - a change note of another kind
for when a function "gained" a parameter."""

from __future__ import annotations

from helpers.doc_pages import corpus_answers


def test_gaining_a_parameter_is_asked_as_adding_one() -> None:
    # gzip: "Changed in version 3.11: Speed is improved by decompressing members at once ..." says
    # nothing of mtime; "Changed in version 3.8: Added the mtime parameter ..." is compress()'s.
    assert "3.11" not in corpus_answers(
        "python_doc", "In which Python version did gzip.decompress() gain an mtime parameter?"
    )
    assert corpus_answers(
        "python_doc", "In which Python version did gzip.compress() gain an mtime parameter?"
    )[:1] == ["3.8"]
