"""A default stated in its own sentence under a code term the question describes ("Defaults to
concatenate." under `notes.rewriteMode`), as `described_defaults` reads "(default: 50)" brackets."""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.policies._doc_answer import answer_doc
from citeloop.policies._doc_questions import doc_question
from helpers.doc_pages import doc_answers, one_page

BREW_TERMS = """
<h1>brew-config(1)</h1>
<dl>
<dt>brew.refillMode</dt>
<dd><p>When pouring tea during a refill, determines what to do if the cup already holds tea. Must be
one of overwrite, blend, or ignore. Defaults to blend.</p></dd>
<dt>brew.showLeaves</dt>
<dd><p>If this is set to true, the brew show command will display the leaves of each pot. Defaults to
true.</p></dd>
<dt>brew.cupSizes</dt>
<dd><p>Limits on the sizes of the cups a kettle fills. The default is 4 for mugs.</p></dd>
</dl>
"""


def answers(tmp_path: Path, question: str) -> list[str]:
    return doc_answers(one_page(tmp_path / "brew", "brew-config(1)", BREW_TERMS), question)


def test_the_default_sentence_of_the_term_described(tmp_path: Path) -> None:
    asked = (
        "When tea is poured during a refill and the cup already holds tea, what does brewing do by default?"
    )
    pages = one_page(tmp_path / "brew", "brew-config(1)", BREW_TERMS)
    found = answer_doc(doc_question(asked, True) or pytest.fail(asked), pages)
    described = [c for c in found if c.how == "the default of the term described"]
    assert [c.answer for c in described] == ["blend"]
    assert described[0].evidence.startswith("brew.refillMode When pouring tea")  # the term, and what it is
    assert {c.answer for c in found if c.score >= described[0].score} == {"blend"}


def test_a_state_answers_only_a_question_asking_for_one(tmp_path: Path) -> None:
    # Must fail: "Defaults to true." says the setting is on, not what the command displays.
    asked = "What does the brew show command display of each pot by default?"
    assert "true" not in answers(tmp_path, asked)


def test_a_default_for_some_cases_only_is_none(tmp_path: Path) -> None:
    # Must fail: "4 for mugs" is the default of one case, not of the cup sizes.
    asked = "What are the limits on the sizes of the cups a kettle fills by default?"
    assert not any(answer.startswith("4") for answer in answers(tmp_path, asked))
