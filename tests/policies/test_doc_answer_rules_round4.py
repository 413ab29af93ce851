"""Rules from the fourth round of documentation questions (issue 11): refuse rather than answer wrong.

Each rule has a case that must fail (the wrong answer the rule removes) and, where the rule
narrows an answer rather than removing it, the case it still answers. The page is written
here about an invented `tray` module, so none of the cases tunes on a real manual.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from citeloop.events import Page
from citeloop.policies._doc_answer import answer_doc
from citeloop.policies._doc_finish import DOC_MIN_SCORE
from citeloop.policies._doc_questions import doc_question
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus

TRAY = """<html><head><title>tray — Serving trays</title></head><body>
<h1>tray — Serving trays</h1>
<p>The tray module serves things on trays.</p>
<dl><dt>exception tray.error</dt>
<dd><p>Raised on tray errors.</p></dd>
<dt>tray.stack(trays, weights=None)</dt>
<dd><p>Stack trays. When a tray is heavier than 16 pounds, then tray.error is raised.</p>
<p>New in version 3.4.</p>
<p>Changed in version 3.9: Added support for weights.</p></dd>
<dt>class tray.Board(size, rim=None, handles=None, keep_lid_on=False)</dt>
<dd><p>A board of the given size.</p>
<p>Changed in version 3.2: rim and shape were added.</p>
<p>Changed in version 3.6: The handles argument was added.</p></dd>
<dt>tray.spread(items)</dt>
<dd><p>Spread items over a tray of at least two slots.</p>
<pre>&gt;&gt;&gt; items = [4.5, 2.25, 1.0]
&gt;&gt;&gt; spread(items)</pre></dd>
<dt>tray.kind(name)</dt>
<dd><p>Returns one of the following values: None if the tray can&#8217;t be found; the empty string ('') if
the tray&#8217;s kind can&#8217;t be told; or a string naming the kind, such as 'oval'.</p></dd>
<dt>tray.getshape(part=None)</dt>
<dd><p>Returns the current shape for the given tray part as a sequence of all sides.</p></dd>
<dt>tray.lift(tray)</dt>
<dd><p>Lift the tray. If the tray is empty, TrayEmptyError will be raised.</p></dd>
<dt>tray.heavy_lift(tray)</dt>
<dd><p>TrayEmptyError is raised if the tray is empty, any handle is loose, or if the stack is not
level.</p></dd>
<dt>class tray.Cup(size=0, handles=1)</dt>
<dt>class tray.Cup(other_cup)</dt>
<dd><p>A cup, new or as another.</p></dd>
<dt>class tray.Rack(shelves, sort_key=None, *, layout)</dt>
<dd><p>A rack of trays. The default sort_key is len.</p></dd>
<dt>tray.old_stack(trays)</dt>
<dd><p>Stack trays the old way.</p><p>Deprecated since version 3.11, will be removed in version 3.13.</p></dd>
<dt>class tray.Shelf(n)</dt>
<dd><p>A shelf of n slots.</p>
<dl><dt>slots()</dt>
<dd><p>Return a list of the free slots; a full one has none.</p></dd>
<dt>fill(f, n)</dt>
<dd><p>Load from f. If less than n things are available, ShortError is raised.</p></dd>
<dt>label(slot)</dt>
<dd><p>The label of slot. If the slot has no label, None is returned.</p></dd></dl></dd>
<dt>tray.seal(tray)</dt>
<dd><p>Seal the tray. When sealing, it adds two rings of wax to the rim.</p></dd>
<dt>tray.polish(tray)</dt>
<dd><p>Polish the tray and return the polished tray.</p></dd></dl>
</body></html>
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    built = page_corpus(tmp_path_factory.mktemp("tray"), {"tray": TRAY})
    yield built
    built.close()


@pytest.fixture
def pages(corpus: Corpus) -> list[Page]:
    return open_pages(corpus, "tray")


def answers(pages: list[Page], question: str) -> list[str]:
    return doc_answers(pages, question)


def test_a_feature_added_later_is_not_answered_with_the_terms_own_version(pages: list[Page]) -> None:
    # must fail: "New in version 3.4" is when tray.stack came, not its weights
    assert answers(pages, "In which Python version was support for weights added to tray.stack?")[:1] == [
        "3.9"
    ]
    # "The handles argument was added" says when, as "Added the handles argument" would.
    assert answers(pages, "In which Python version was the handles argument added to tray.Board?")[:1] == [
        "3.6"
    ]
    # The term's own version still answers when the term itself is asked about.
    assert answers(pages, "In which Python version was tray.stack added?")[:1] == ["3.4"]


def test_a_feature_no_note_names_is_refused(pages: list[Page]) -> None:
    # must fail: neither the term's version nor another feature's answers
    assert answers(pages, "In which Python version was the depth argument added to tray.Board?") == []


def test_a_number_is_not_read_from_a_code_example(pages: list[Page]) -> None:
    assert answers(pages, "How many items does tray.spread need at least?") == []  # must fail: "[4.5"


def test_what_a_function_returns_under_one_of_its_listed_conditions(pages: list[Page]) -> None:
    # must fail: "one of the following values: None" is the first branch, not the one asked for
    found = answers(pages, "What does tray.kind return if the tray's kind can't be told?")
    assert found[:1] == ["the empty string ('')"]
    assert answers(pages, "What does tray.kind return if the tray can't be found?")[:1] == ["None"]


def test_an_exception_answers_only_a_question_asking_for_one(pages: list[Page]) -> None:
    found = answers(pages, "Which tray format character stacks a heavy tray?")
    assert "tray.error" not in found  # must fail: a raised exception is no format character
    assert "tray.error" in answers(pages, "Which exception is raised when a tray is heavier than 16 pounds?")


def test_the_word_naming_the_module_does_not_make_a_function_match(pages: list[Page]) -> None:
    # must fail: of the words that say what it does, only "all" and "part" are in getshape's sentence
    found = answers(pages, "Which tray function returns the list of all installed tray parts?")
    assert "tray.getshape" not in found
    assert answers(pages, "Which tray function returns the shape of a tray part?")[:1] == ["tray.getshape"]


def test_a_which_answer_is_quoted_from_under_the_term_the_question_names(pages: list[Page]) -> None:
    asked = doc_question("Which exception does tray.lift raise if the tray is empty?", True)
    assert asked is not None
    found = answer_doc(asked, pages)
    # must fail: heavy_lift's sentence holds more of the question's words, but it is not about lift
    assert found[0].evidence == "If the tray is empty, TrayEmptyError will be raised."


def test_a_default_is_read_from_each_signature_of_an_overloaded_term(pages: list[Page]) -> None:
    # must fail: only the last of the signatures listed together was read as the term
    assert answers(pages, "What is the default number of handles of tray.Cup?")[:1] == ["handles=1"]


def test_a_parameter_of_three_words_is_matched_as_the_question_writes_it(pages: list[Page]) -> None:
    # must fail: "keep_lid_on" was split into words no parameter name matched
    found = answers(pages, "What is the default value of keep_lid_on in tray.Board?")
    assert found[:1] == ["keep_lid_on=False"]


def test_a_default_stated_for_another_parameter_of_the_signature_is_none(pages: list[Page]) -> None:
    # must fail: "layout" is in the signature above the sentence, but the sentence gives sort_key's default
    assert answers(pages, "What is the default layout of tray.Rack?") == []
    assert answers(pages, "What is the default sort key of tray.Rack?")[:1] == ["len"]


def test_a_removal_under_the_term_asked_about_is_confident(pages: list[Page]) -> None:
    asked = doc_question("In which Python version will tray.old_stack be removed?", True)
    assert asked is not None
    found = answer_doc(asked, pages)
    assert [c.answer for c in found[:1]] == ["3.13"]
    # must fail: the note under the term does not repeat its name, and the term did not count
    assert found[0].score >= DOC_MIN_SCORE


def test_what_a_method_returns_is_read_under_it_whatever_its_class_is_called(pages: list[Page]) -> None:
    # must fail: the class's name was taken for a condition the sentence had to hold
    assert answers(pages, "What does Shelf.slots return?")[:1] == ["a list of the free slots"]


def test_a_value_said_to_be_returned_answers_what_is_returned(pages: list[Page]) -> None:
    # must fail: "None is returned" says what is returned without "return(s) X"
    assert answers(pages, "What does Shelf.label return if the slot has no label?")[:1] == ["None"]


def test_a_count_written_as_a_word_answers_how_many(pages: list[Page]) -> None:
    # must fail: only a count in digits was read
    assert answers(pages, "How many rings does tray.seal add to the rim?")[:1] == ["two rings"]


def test_a_which_sentence_under_the_method_asked_about_counts_its_term(pages: list[Page]) -> None:
    # must fail: "fill" and "shelf" are only in the terms above the sentence (fill under class tray.Shelf)
    found = answers(pages, "Which exception does Shelf.fill raise when fewer than n things are available?")
    assert found[:1] == ["ShortError"]
    # Under another method of the class, the same sentence would not count fill's term.
    assert (
        answers(pages, "Which exception does Shelf.label raise when fewer than n things are available?") == []
    )
