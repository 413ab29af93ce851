"""Rules from the fifth round of documentation questions (issue 11): refuse rather than answer wrong.

Each rule has a case that must fail (the wrong answer the rule removes) and, where the rule
narrows an answer rather than removing it, the case it still answers. The page is written
here about an invented `kettle` module, so none of the cases tunes on a real manual.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from citeloop.events import Page
from citeloop.policies._doc_answer import answer_doc
from citeloop.policies._doc_questions import doc_question
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus

KETTLE = """<html><head><title>kettle — Boiling water</title></head><body>
<h1>kettle — Boiling water</h1>
<p>The kettle module boils water.</p>
<dl><dt>class kettle.Kettle(size, lid=False)</dt>
<dd><p>A kettle of the given size.</p>
<p>Changed in version 3.2: lid is now False by default.</p>
<dl><dt>copy()</dt>
<dd><p>Return a copy (&#8220;twin&#8221;) of the kettle object.</p></dd></dl></dd>
<dt>kettle.guide()</dt>
<dd><p>Describe the heatable water of the kettle.</p></dd>
<dt>kettle.warm()</dt>
<dd><p>Warms the water before the morning tea.</p></dd>
<dt>kettle.pour(cup)</dt>
<dd><p>Pour into cup.</p>
<pre>&gt;&gt;&gt; k = kettle.Kettle(2)
&gt;&gt;&gt; kettle.brew_coffee(k)</pre></dd>
<dt>kettle.WHISTLE</dt>
<dd><p>A whistle with 3 hole lid and 12 hole base.</p></dd>
<dt>kettle.SPOUT</dt>
<dd><p>The spout size.</p>
<p>New in version 3.4.</p></dd>
<dt>kettle.HANDLE</dt>
<dd><p>The handle size.</p>
<p>New in version 3.4.</p></dd>
<dt>kettle.steam(level)</dt>
<dd><p>Let off steam.</p>
<p>Changed in version 3.8: Added the --hiss option.</p></dd>
<dt>class kettle.Urn(size)</dt>
<dd><p>An urn.</p>
<dl><dt>drain()</dt>
<dd><p>Returns the water left.</p></dd></dl></dd>
<dt>kettle.pump(rate=None)</dt>
<dd><p>rate specifies the pumping speed. For cold water it must be between 1 and 9, the default is 4.</p></dd>
<dt>kettle.hum(noise)</dt>
<dd><p>Hum. The default, 0, makes no noise.</p></dd>
<dt>kettle.fill(cup)</dt>
<dd><p>If the cup is full, the function returns None instead of a cup.
This function returns the filled cup.</p></dd>
<dt>-w</dt>
<dd><p>Whistle loudly even if the lid is closed.</p></dd>
<dt>class kettle.Tap</dt>
<dd><p>A tap.</p>
<dl><dt>flow(rate)</dt>
<dd><p>If there is no such rate in taps.cfg, return None.</p></dd></dl></dd>
<dt>kettle.shape()</dt>
<dd><p>For round kettles, the returned value is b'ROUND'.</p></dd>
<dt>kettle.pour_all()</dt>
<dd><p>Once the kettle is empty, empty cups are returned.</p></dd>
<dt>kettle.CUP</dt>
<dd><p>A cup has a rim size of two inches.</p></dd>
<dt>kettle.boil(water, limit)</dt>
<dd><p>Boil water. The limit parameter caps the boil; it defaults to kettle.max_boil().</p>
<p>Changed in version 3.9: Raised the default boil limit from 10 to kettle.max_boil().</p></dd></dl>
</body></html>
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    built = page_corpus(tmp_path_factory.mktemp("kettle"), {"kettle": KETTLE})
    yield built
    built.close()


@pytest.fixture
def pages(corpus: Corpus) -> list[Page]:
    return open_pages(corpus, "kettle")


def answers(pages: list[Page], question: str) -> list[str]:
    return doc_answers(pages, question)


def test_in_which_version_asks_for_a_version_whatever_default_it_names(pages: list[Page]) -> None:
    # must fail: "by default" made it a default question, answered "lid=False" from the signature
    assert answers(pages, "In which Python version did lid become False by default in kettle.Kettle?")[
        :1
    ] == ["3.2"]
    assert answers(pages, "What is the default lid of kettle.Kettle?")[:1] == ["lid=False"]


def test_a_which_answer_is_not_read_from_an_interactive_example(pages: list[Page]) -> None:
    assert answers(pages, "Which kettle function brews coffee?") == []  # must fail: "kettle.brew_coffee(k)"


def test_the_thing_a_which_function_acts_on_must_be_where_the_answer_is(pages: list[Page]) -> None:
    # must fail: kettle.warm, whose sentence holds all the other words
    assert answers(pages, "Which kettle function warms the milk before the morning tea?") == []
    assert answers(pages, "Which kettle function warms the water before the morning tea?")[:1] == [
        "kettle.warm"
    ]


def test_the_verb_asked_is_not_matched_by_a_longer_word_built_on_it(pages: list[Page]) -> None:
    assert (
        answers(pages, "Which kettle function heats the water?") == []
    )  # must fail: "heatable" read as "heats"


def test_of_several_counts_the_one_of_the_thing_asked_about(pages: list[Page]) -> None:
    # must fail: the first count of holes, the lid's, was taken for the base's
    assert answers(pages, "How many holes does the base of kettle.WHISTLE have?")[:1] == ["12 hole"]
    assert answers(pages, "How many holes does the spout of kettle.WHISTLE have?") == []


def test_a_count_said_to_measure_something_else_does_not_answer(pages: list[Page]) -> None:
    assert (
        answers(pages, "How many inches tall is a kettle.CUP?") == []
    )  # must fail: the rim size's "two inches"
    assert answers(pages, "How many inches is the rim size of kettle.CUP?")[:1] == ["two inches"]


def test_what_is_returned_runs_past_an_aside_the_phrase_goes_on_after(pages: list[Page]) -> None:
    # must fail: the span stopped at the bracket, "a copy"
    assert answers(pages, "What does Kettle.copy return?")[:1] == ["a copy (“twin”) of the kettle object"]


def test_a_value_the_question_itself_states_is_not_its_answer(pages: list[Page]) -> None:
    # must fail: "kettle.max_boil(", the value the question says the default was raised to
    assert (
        answers(
            pages, "What was the default boil limit of kettle.boil before it was raised to kettle.max_boil()?"
        )
        == []
    )


def test_a_stated_default_that_is_a_call_keeps_its_brackets(pages: list[Page]) -> None:
    # must fail: the value stopped at the closing bracket, "kettle.max_boil("
    assert answers(pages, "What is the default limit of kettle.boil?")[:1] == ["kettle.max_boil()"]


def test_a_repeated_note_is_quoted_with_the_lines_that_place_it_under_its_term(pages: list[Page]) -> None:
    asked = doc_question("In which Python version was kettle.HANDLE added?", True)
    assert asked is not None
    found = answer_doc(asked, pages)
    assert [c.answer for c in found[:1]] == ["3.4"]
    # must fail: "New in version 3.4." is first found under kettle.SPOUT, and read as SPOUT's
    assert found[0].evidence == "The handle size. New in version 3.4."
    assert " ".join(pages[0].body.split()).count(found[0].evidence) == 1


def test_the_module_named_as_where_a_feature_was_added_is_not_the_feature(pages: list[Page]) -> None:
    # must fail: "kettle" was taken for the feature the note had to name
    assert answers(pages, "In which Python version was the --hiss option added to kettle?")[:1] == ["3.8"]


def test_a_which_qualifier_may_be_the_class_a_method_sits_under(pages: list[Page]) -> None:
    # must fail: only the method's own term was searched for "Urn"
    assert answers(pages, "Which Urn method returns the water left?")[:1] == ["drain"]


def test_a_stated_default_counts_the_parameter_its_paragraph_names_before_it(pages: list[Page]) -> None:
    # must fail: "rate" is in the sentence before, not in the one giving the default
    assert answers(pages, "What is the default rate of kettle.pump?")[:1] == ["4"]


def test_a_default_given_between_commas(pages: list[Page]) -> None:
    assert answers(pages, "What is the default noise of kettle.hum?")[:1] == [
        "0"
    ]  # must fail: the form was not read


def test_a_command_line_option_is_asked_for_as_an_option(pages: list[Page]) -> None:
    # must fail: "command-line" made it a question asking for a command
    assert answers(pages, "Which kettle command-line option whistles loudly even if the lid is closed?")[
        :1
    ] == ["-w"]


def test_what_f_returns_asked_without_a_condition_is_not_what_it_returns_under_one(pages: list[Page]) -> None:
    found = answers(pages, "What does kettle.fill return?")
    assert found == ["the filled cup"]  # must fail: "None instead of a cup", returned only if the cup is full


def test_code_a_condition_names_is_not_the_owner_of_the_term(pages: list[Page]) -> None:
    # must fail: "taps.cfg" was taken for the class flow() had to sit under
    assert answers(pages, "What does Tap.flow return if taps.cfg has no rate?")[:1] == ["None"]


def test_what_a_term_named_in_words_returns(pages: list[Page]) -> None:
    # must fail: "the kettle fill function" was looked for as the term's name
    assert answers(pages, "What does the kettle fill function return?")[:1] == ["the filled cup"]


def test_the_returned_value_is_what_is_returned(pages: list[Page]) -> None:
    # must fail: only "return(s) X" and "X is returned" were read
    assert answers(pages, "What does kettle.shape return for round kettles?")[:1] == ["b'ROUND'"]


def test_what_is_returned_once_something_happened(pages: list[Page]) -> None:
    # must fail: "once" was no condition, and "empty cups are returned" was read as "cups"
    assert answers(pages, "What does kettle.pour_all return once the kettle is empty?")[:1] == ["empty cups"]
