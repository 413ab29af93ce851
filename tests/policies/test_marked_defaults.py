"""Defaults marked in a list of values (`policies/_marked_defaults.py`), as the Postfix manual marks
postscreen's actions: "ignore (default for bare newline)". The page is invented, so no case tunes on a
real manual; each rule has a case that must fail without it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from citeloop.events import Page
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus

KETTLE = """<html><head><title>Kettle Brewing Howto</title></head><body>
<h1>Kettle Brewing Howto</h1>
<h2>When the kettle finds a leaf before boiling</h2>
<p>Some kettles sort leaves. When the kettle finds a tea leaf or a coffee bean before the water boils,
the reaction is specified with kettle_tea_reaction or kettle_bean_reaction, respectively.</p>
<dl>
<dt>steep (default for tea leaf)</dt><dd>Steep the leaf for three minutes, then pour.</dd>
<dt>grind (default for coffee bean)</dt><dd>Grind the bean and pour it through the filter.</dd>
<dt>discard (default)</dt><dd>Throw the thing away.</dd>
</dl>
<h2>When the lid is left open</h2>
<p>A kettle whose lid is left open while heating wastes steam. The reaction is specified with
kettle_lid_reaction.</p>
<dl>
<dt>whistle (default)</dt><dd>Whistle until the lid is closed.</dd>
<dt>stop</dt><dd>Stop heating.</dd>
</dl>
</body></html>
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    built = page_corpus(tmp_path_factory.mktemp("marked"), {"kettle": KETTLE})
    yield built
    built.close()


@pytest.fixture
def pages(corpus: Corpus) -> list[Page]:
    return open_pages(corpus, "kettle")


def test_the_value_marked_default_for_the_case_asked(pages: list[Page]) -> None:
    question = "What does the kettle do by default when it finds a tea leaf before the water boils?"
    assert doc_answers(pages, question)[:1] == ["steep"]
    question = "By default, how does the kettle react when it finds a coffee bean before boiling?"
    assert doc_answers(pages, question)[:1] == ["grind"]


def test_the_value_marked_default_of_a_list_with_no_cases(pages: list[Page]) -> None:
    question = "What does the kettle do by default when its lid is left open while heating?"
    assert doc_answers(pages, question)[:1] == ["whistle"]


def test_a_case_no_list_marks_gets_no_answer(pages: list[Page]) -> None:
    # Must fail without the case check: "discard (default)" beside defaults for cases says no case.
    question = (
        "What is the default reaction specified for when the kettle finds a sugar cube before boiling water?"
    )
    assert doc_answers(pages, question) == []


def test_a_question_the_list_does_not_describe_gets_no_answer(pages: list[Page]) -> None:
    # Must fail at a fit of a sentence's share (0.6): the list says nothing of descaling in a sink.
    question = "What does the kettle do by default when its lid is left open during descaling in the sink?"
    assert doc_answers(pages, question) == []
