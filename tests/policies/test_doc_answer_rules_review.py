"""Rules from the review of the fifth round's documentation rules (issue 11): refuse rather than answer wrong.

Each case is the shape of a wrong answer the review reproduced on the Python manual, written
here about an invented `teapot` module so that none of the cases tunes on a real manual.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from citeloop.events import Page
from citeloop.policies._default_forms import DEFAULT_FORMS
from citeloop.policies._doc_counts import _counted_thing
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus

TEAPOT = """<html><head><title>teapot — Making tea</title></head><body>
<h1>teapot — Making tea</h1>
<p>The teapot module makes tea.</p>
<dl><dt>teapot.brew(leaf, cup=None, strong=False)</dt>
<dd><p>Brew the leaf into cup. If strong is false (the default), the tea is weak.</p></dd>
<dt>teapot.pour(spout=None)</dt>
<dd><p>Pour through the spout. The algorithm used by pour() defaults to integer arithmetic.</p></dd>
<dt>class teapot.Pot(host='', port=0)</dt>
<dd><p>A pot on the given host and port. The default port number is 21.</p></dd>
<dt>teapot.size(name)</dt>
<dd><p>On success, the size of the pot is returned as an integer, otherwise None is returned.</p></dd>
<dt>teapot.level()</dt>
<dd><p>Indicates the level of the pot.
Otherwise, the shelves are searched until a level is found, and that value is returned.</p></dd>
<dt>teapot.steep(leaves, filterfunc=None)</dt>
<dd><p>Steep the leaves, keeping those filterfunc passes.</p>
<pre>&gt;&gt;&gt; def strong(s):
...     return (not (s == 'weak' or s.startswith('mild')))
&gt;&gt;&gt; teapot.steep('oolong', filterfunc=strong)</pre></dd>
<dt>teapot.RECORD</dt>
<dd><p>A record holds a maximum of 8 fields.</p></dd></dl>
</body></html>
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    built = page_corpus(tmp_path_factory.mktemp("teapot"), {"teapot": TEAPOT})
    yield built
    built.close()


@pytest.fixture
def pages(corpus: Corpus) -> list[Page]:
    return open_pages(corpus, "teapot")


def answers(pages: list[Page], question: str) -> list[str]:
    return doc_answers(pages, question)


def test_a_default_sentence_about_another_parameter_does_not_answer(pages: list[Page]) -> None:
    # must fail: "cup" earlier in the paragraph let "If strong is false (the default)" answer "false"
    assert "false" not in answers(pages, "What is the default cup of teapot.brew?")
    # must fail: "spout" earlier in the paragraph let "... defaults to integer arithmetic" answer
    assert "integer" not in answers(pages, "What is the default spout of teapot.pour?")


def test_a_default_sentence_with_its_own_subject_does_not_outrank_the_signature(pages: list[Page]) -> None:
    # must fail: "The default port number is 21" counted "host" from the sentence before, and its
    # stated default outranked the signature's placeholder
    assert answers(pages, "What is the default host of teapot.Pot?")[:1] == ["host=''"]


def test_what_is_returned_otherwise_is_no_unconditional_return(pages: list[Page]) -> None:
    # must fail: ", otherwise None is returned" read as the value "otherwise None"
    assert answers(pages, "What does teapot.size return?") == []
    # must fail: "..., and that value is returned" read as the value "and that value"
    assert answers(pages, "What does teapot.level return?") == []


def test_what_f_returns_is_not_read_from_an_interactive_example(pages: list[Page]) -> None:
    # must fail: "return (not (s == ..." of a ">>>" example answered "(not"
    assert answers(pages, "What does teapot.steep return?") == []


def test_a_maximum_qualifies_a_count_it_is_not_another_thing_counted(pages: list[Page]) -> None:
    # must fail: "a maximum of 8 fields" was read as a count of the maximum
    assert answers(pages, "How many fields does a teapot.RECORD hold?")[:1] == ["8 fields"]


def test_what_a_count_counts_is_found_in_time_after_a_long_token() -> None:
    text = "x" * 100_000 + " holds 8 fields."
    match = re.search(r"8 fields", text)
    assert match is not None
    started = time.perf_counter()
    _counted_thing(text, match, after=False)
    assert time.perf_counter() - started < 1.0  # must fail: the search behind the count took seconds


def test_a_value_before_the_default_is_found_in_time_after_a_long_token() -> None:
    text = "a" * 20_000 + " is the default mode."
    started = time.perf_counter()
    for form in DEFAULT_FORMS:
        form.search(text)
    assert time.perf_counter() - started < 1.0  # must fail: "X (the default)" was tried from every letter
    the_default = next(form for form in DEFAULT_FORMS if r"\((?:the )?default" in form.pattern)
    assert the_default.search("If mode is 'rb' (the default), bytes are read.") is not None
