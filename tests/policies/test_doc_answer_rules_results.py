"""What a call gives back as "The result is ...", an empty string returned, a variable named before
"environment variable", and a flag that is a module's constant (from python_doc's dev half).

The pages are invented (a "kettle" module). Each rule has a case that must fail.
"""

from __future__ import annotations

import pytest
from citeloop.events import Page, open_store
from citeloop.policies import ExtractivePolicy
from citeloop.runtime import Runtime
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus

KETTLE = """<html><head><title>kettle \u2014 Kettle control</title></head><body>
<h1>kettle \u2014 Kettle control\u00b6</h1>
<p>You can also turn the alarm on at startup by setting the KETTLEALARM environment variable.</p>
<dl>
<dt>Pot.stat()\u00b6</dt>
<dd><p>Get the pot status. The result is a tuple of 2 integers: (cup count, pot size).</p></dd>
<dt>Pot.level()\u00b6</dt>
<dd><p>Get the water level.</p></dd>
<dt>kettle.readline(name, number)\u00b6</dt>
<dd><p>Read a line of the recipe. This function will never raise an exception \u2014 it will return ''
on errors.</p></dd>
<dt>kettle.DEBUG_KEEPALL\u00b6</dt>
<dd><p>When set, all cold cups found will be appended to spares rather than being washed.</p></dd>
<dt>kettle.DEBUG_STATS\u00b6</dt>
<dd><p>Print statistics while boiling.</p></dd>
</dl>
</body></html>"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    return page_corpus(tmp_path_factory.mktemp("kettle-results"), {"kettle": KETTLE})


@pytest.fixture(scope="module")
def pages(corpus: Corpus) -> list[Page]:
    return open_pages(corpus, "kettle")


def test_the_result_is_what_a_call_returns(pages: list[Page]) -> None:
    assert doc_answers(pages, "What does Pot.stat return?")[:1] == [
        "a tuple of 2 integers: (cup count, pot size)"
    ]
    # Must fail: the result stated under stat() is not what level() returns.
    assert doc_answers(pages, "What does Pot.level return?") == []


@pytest.mark.anyio
async def test_an_empty_string_returned_is_an_answer_the_gate_accepts(corpus: Corpus) -> None:
    async with Runtime(store=open_store("memory://"), tools=corpus.tools(), policy=ExtractivePolicy()) as rt:
        outcome = await rt.run("What does kettle.readline return on errors?")
    assert outcome.status == "answered" and outcome.answer == "''"


def test_a_variable_named_before_environment_variable(pages: list[Page]) -> None:
    asked = "Which environment variable turns the alarm on at startup?"
    assert doc_answers(pages, asked)[:1] == ["KETTLEALARM"]


def test_a_flag_may_be_a_modules_constant(pages: list[Page]) -> None:
    asked = (
        "Which kettle debugging flag makes the kettle append all cold cups to spares instead of washing them?"
    )
    assert doc_answers(pages, asked)[:1] == ["kettle.DEBUG_KEEPALL"]
    # Must fail: an option is still a command-line flag ("-x"), never a constant.
    asked = "Which kettle option makes the kettle append all cold cups to spares instead of washing them?"
    assert "kettle.DEBUG_KEEPALL" not in doc_answers(pages, asked)
