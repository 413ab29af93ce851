"""Rules from the sixth round of documentation questions (issue 11): refuse rather than answer wrong.

Each rule has a case that must fail (the wrong answer the rule removes) and, where the rule
narrows an answer rather than removing it, the case it still answers. The page is written
here about an invented `lantern` module, so none of the cases tunes on a real manual.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from citeloop.events import Page
from citeloop.policies._doc_questions import doc_question
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus

LANTERN = """<html><head><title>lantern — Portable light</title></head><body>
<h1>lantern — Portable light</h1>
<p>The lantern module lights rooms. By default, the light log is written to lantern.log.</p>
<dl><dt>lantern.dim()</dt>
<dd><p>Return True if the wick was trimmed, False otherwise, and log the trim when debugging is on.</p></dd>
<dt>lantern.flame()</dt>
<dd><p>Returns a string naming the current flame colour, or None if the colour cannot be measured.</p></dd>
<dt>lantern.glass()</dt>
<dd><p>Returns the glass colour, or None if the glass can&#8217;t be seen.</p></dd>
<dt>lantern.next_spark()</dt>
<dd><p>If the wick burns out, spark is returned (the empty string ('') in non-storm mode, and None in
storm mode).</p></dd>
<dt>lantern.isbright(a, b)</dt>
<dd><p>The default tolerance is 1e-05, which assures that two lamps are the same within about 5 lumen
steps.</p></dd>
<dt>class lantern.Lantern(oil)</dt>
<dd><p>The oil can be poured in three ways.</p></dd></dl>
</body></html>
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    built = page_corpus(tmp_path_factory.mktemp("lantern"), {"lantern": LANTERN})
    yield built
    built.close()


@pytest.fixture
def pages(corpus: Corpus) -> list[Page]:
    return open_pages(corpus, "lantern")


def answers(pages: list[Page], question: str) -> list[str]:
    return doc_answers(pages, question)


def test_a_passive_verb_after_by_default_is_no_value(pages: list[Page]) -> None:
    # must fail: "By default, the light log is written to ..." gave the default "written"; the
    # code-shaped place it is written to is the default asked for.
    found = answers(pages, "Where does lantern write the light log by default?")
    assert "written" not in found
    assert found[:1] == ["lantern.log"]


def test_a_value_returned_under_a_condition_is_answered_with_it(pages: list[Page]) -> None:
    # must fail: the bare "True", which dim() returns only if the wick was trimmed; and not what the
    # sentence goes on to say after "otherwise"
    assert answers(pages, "What does lantern.dim return?")[:1] == [
        "True if the wick was trimmed, False otherwise"
    ]


def test_or_none_if_c_answers_the_question_asked_under_c(pages: list[Page]) -> None:
    # must fail: "a string naming the current flame colour", the value when the colour is measured
    assert answers(pages, "What does lantern.flame return if the colour cannot be measured?")[:1] == ["None"]
    # The condition negated the other way is not C: no branch holds it.
    assert answers(pages, "What does lantern.flame return if the colour can be measured?") == []
    # must fail: "can't" as pages print it (U+2019), was not read as a negation
    assert answers(pages, "What does lantern.glass return if the glass can't be seen?")[:1] == ["None"]


def test_a_bracket_of_values_by_mode_answers_the_mode_asked(pages: list[Page]) -> None:
    # must fail: "spark", the name the bracket gives the values of
    assert answers(pages, "What does lantern.next_spark return when the wick burns out in storm mode?")[
        :1
    ] == ["None"]
    assert answers(pages, "What does lantern.next_spark return when the wick burns out in non-storm mode?")[
        :1
    ] == ["the empty string ('')"]


def test_how_many_asked_of_a_default_is_a_count_not_the_default() -> None:
    asked = doc_question(
        "Within about how many lumen steps does the default tolerance of lantern.isbright assure two lamps"
        " are the same?",
        True,
    )
    assert asked is not None
    assert (asked.kind, asked.noun) == ("value", "lumen")  # must fail: a "default" question, answered 1e-05
    by_default = doc_question("How many steps does lantern.isbright take by default?", True)
    assert by_default is not None and by_default.kind == "default"


def test_how_many_after_a_preposition_is_a_count(pages: list[Page]) -> None:
    asked = doc_question("In how many ways can the oil of lantern.Lantern be poured?", True)
    assert asked is not None
    assert (asked.kind, asked.noun) == ("value", "ways")  # must fail: an unhandled question, refused
    assert answers(pages, "In how many ways can the oil of lantern.Lantern be poured?")[:1] == ["three ways"]
    assert answers(
        pages,
        "Within about how many lumen steps does the default tolerance of lantern.isbright assure two lamps"
        " are the same?",
    )[:1] == ["5 lumen"]


def test_a_single_condition_answers_only_what_it_says(pages: list[Page]) -> None:
    # must fail: None, the value for another condition sharing the word "colour"
    assert answers(pages, "What does lantern.flame return if the colour is red?") == []
    # must fail: None, storm mode's value, for calm mode
    assert answers(pages, "What does lantern.next_spark return when the wick burns out in calm mode?") == []
