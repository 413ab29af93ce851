"""Review S (2026-12-05, near misses): its one answered near miss - an exception a sentence names for
another case than the one the question states."""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.policies._doc_questions import doc_question
from citeloop.policies._which_checks import case_unsaid, case_words
from citeloop.tools import Corpus
from helpers.doc_pages import ask

PYTHON = Path(__file__).parents[1] / "data" / "python_doc" / "html"


def test_a_sentence_saying_nothing_of_the_case_asked_does_not_answer_it() -> None:
    asked = doc_question("What exception does plistlib.load() raise when it is given ill-formed XML?", True)
    assert asked is not None
    binary = "The parser for the binary format raises InvalidFileException when the file cannot be parsed."
    assert case_unsaid(case_words(asked), binary)
    assert not case_unsaid(case_words(asked), "Ill-formed XML makes the Expat parser raise ExpatError.")
    # No case stated, nothing to say.
    plain = doc_question("What exception does plistlib.load() raise?", True)
    assert plain is not None and not case_words(plain) and not case_unsaid(case_words(plain), binary)


@pytest.mark.anyio
async def test_the_binary_parser_s_exception_is_no_answer_for_ill_formed_xml() -> None:
    corpus = Corpus.from_path(PYTHON)
    try:
        xml = await ask(corpus, "What exception does plistlib.load() raise when it is given ill-formed XML?")
        binary = await ask(
            corpus,
            "Which exception does the plistlib binary format parser raise when the file cannot be parsed?",
        )
    finally:
        corpus.close()
    assert "InvalidFileException" not in xml.answer
    assert binary.status == "answered" and "InvalidFileException" in binary.answer
