"""Amounts asked in the user's words ("How deeply can X be nested ...?"): the one amount of the sentence
holding most of the question's words, and no answer where that is not clear (`_doc_amounts`)."""

from __future__ import annotations

from pathlib import Path

from helpers.doc_pages import doc_answers, one_page

TEAPOT_LIMITS = """
<h1>TeaPot limits</h1>
<h2>Steeping</h2>
<p>In order to avoid wasting leaves, any infusion that has more than 12 levels of steeping is
considered bitter. The kettle warms cups for 3 minutes by default.</p>
<p>A value of 0 means no warming at all.</p>
<p>TeaPot does not support pours containing more than 64 cups.</p>
<p>TeaPot does not support pours containing more than 80 saucers.</p>
<p>New in version 3.6: the strainer holds the leaves.</p>
<p>When the steep(8) daemon finds an empty pot, the tea is poured back into the kettle.</p>
<h2>Cleaning</h2>
<p>By default, TeaPot scrubs away the stains of leaves older than 30 days, unless they are marked.</p>
<pre>>>> brew(leaves, cups = 4)</pre>
"""


def answers(tmp_path: Path, question: str) -> list[str]:
    return doc_answers(one_page(tmp_path / "teapot", "TeaPot limits", TEAPOT_LIMITS), question)


def test_the_one_amount_of_the_sentence_the_question_describes(tmp_path: Path) -> None:
    asked = "How deeply can an infusion be steeped before TeaPot considers it bitter?"
    assert answers(tmp_path, asked) == ["12 levels"]


def test_two_sentences_stating_other_amounts_as_well_are_no_answer(tmp_path: Path) -> None:
    # Must fail: "64 cups" and "80 saucers" are stated by sentences holding the same words of the question.
    assert answers(tmp_path, "How deeply can TeaPot pours contain cups and saucers?") == []


def test_a_default_a_release_a_meaning_and_code_are_no_amount_asked(tmp_path: Path) -> None:
    # Must fail: "for 3 minutes by default" is a default, no bound on how long the kettle warms.
    assert answers(tmp_path, "How long does the TeaPot kettle warm cups at most?") == []
    # Must fail: "version 3.6" is a release, not how long the strainer is.
    assert answers(tmp_path, "How long is the TeaPot strainer that holds the leaves?") == []
    # Must fail: "A value of 0 means ..." says what a value does; "cups = 4" is an example of code.
    assert answers(tmp_path, "How long is TeaPot warming when a value means no warming at all?") == []
    assert answers(tmp_path, "How large are the TeaPot cups that brew leaves?") == []


def test_an_amount_asked_inside_another_question_is_not_read(tmp_path: Path) -> None:
    # Must fail: a "which" question that says "how deeply" asks for a setting, not for an amount.
    asked = (
        "Which TeaPot parameters set how deeply an infusion can be steeped before it is considered bitter?"
    )
    assert "12 levels" not in answers(tmp_path, asked)


def test_a_default_amount_is_read_from_a_sentence_stating_the_default(tmp_path: Path) -> None:
    # Must fail without reading amounts for a default question: no "the default is" form gives it.
    asked = "By default, how old must leaf stains be before TeaPot scrubs them away?"
    assert answers(tmp_path, asked) == ["30 days"]


def test_a_default_question_is_not_answered_by_a_bound(tmp_path: Path) -> None:
    # Must fail if a default question read any sentence: "more than 12 levels ... is considered bitter"
    # is a bound, stated of every infusion, not what TeaPot does unless told otherwise.
    asked = "By default, how many levels of steeping make a TeaPot infusion bitter?"
    assert answers(tmp_path, asked) == []


def test_a_manual_section_is_no_amount(tmp_path: Path) -> None:
    # Must fail: "steep(8)" names the daemon's manual page, section 8; it counts nothing.
    asked = "How long does the TeaPot steep daemon wait to pour the tea back when it finds an empty pot?"
    assert answers(tmp_path, asked) == []
