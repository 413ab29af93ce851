"""Rules from the third round of documentation questions (issue 11): refuse rather than answer wrong.

Each rule has a case that must fail (the wrong answer the rule removes) and, where the rule
narrows an answer rather than removing it, the case it still answers. The pages are written
here about invented `crate` and `clock` modules, so none of the cases tunes on a real manual.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from citeloop.events import Page
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus

CRATE = """<html><head><title>crate — Shipping crates</title></head><body>
<h1>crate — Shipping crates</h1>
<p>Deprecated since version 3.11, will be removed in version 3.13: The crate module is deprecated.</p>
<dl><dt>class crate.Crate(host, port=CRATE3_PORT, level=0)</dt>
<dd><p>A crate on a host. If port is omitted, the standard crate port (7070) is used.</p></dd>
<dt>Crate.connect(host='', port=0)</dt>
<dd><p>Connect to the host. The default port number is 7071.</p></dd>
<dt>Crate.seal(force=0)</dt>
<dd><p>Seal the crate.</p></dd>
<dt>Crate.login(user='guest', passwd='')</dt>
<dd><p>Log in. If user is 'root', the default passwd is 'toor'.</p></dd>
<dt>crate.pack(source, shebang=None)</dt>
<dd><p>Pack source. The default is to write no shebang line.</p></dd>
<dt>Crate.has_label(name)</dt>
<dd><p>Return True if name is a label of the crate, False otherwise.</p></dd>
<dt>crate.open_lid(crate)</dt>
<dd><p>Open the lid of the crate in a new window.</p></dd>
<dt>crate.wait(n)</dt>
<dd><p>Wait for n ticks of the clock module; here the tick is 20 ms.</p></dd></dl>
</body></html>
"""
CLOCK = """<html><head><title>clock — Ticks</title></head><body>
<h1>clock — Ticks</h1>
<p>The clock module counts ticks. The tick is 10 ms on all platforms.</p>
</body></html>
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    built = page_corpus(tmp_path_factory.mktemp("crate"), {"crate": CRATE, "clock": CLOCK})
    yield built
    built.close()


@pytest.fixture
def pages(corpus: Corpus) -> list[Page]:
    return open_pages(corpus, "crate", "clock")


def answers(pages: list[Page], question: str) -> list[str]:
    return doc_answers(pages, question)


def test_a_conditional_default_is_not_the_signatures_default(pages: list[Page]) -> None:
    found = answers(pages, "What is the default passwd of Crate.login when the user is 'root'?")
    assert "passwd=''" not in found  # must fail: the signature gives the unconditional default
    assert found[:1] == ["'toor'"]
    # The asked value's own absence is no condition: the signature answers.
    assert answers(pages, "What user does Crate.login use when user is not given?")[:1] == ["user='guest'"]


def test_a_placeholder_in_the_signature_yields_to_the_default_the_page_states(pages: list[Page]) -> None:
    assert answers(pages, "What is the default port number of Crate.connect?")[:1] == ["7071"]  # not port=0
    # Without a stated default on the page, the placeholder is the answer.
    assert answers(pages, "What is the default force of Crate.seal?")[:1] == ["force=0"]


def test_a_port_is_a_number_and_a_digit_in_a_name_is_not_one(pages: list[Page]) -> None:
    # Must fail: CRATE3_PORT names the port, it does not give it (and its "3" is no number).
    assert "port=CRATE3_PORT" not in answers(pages, "What is the default port of crate.Crate?")


def test_the_default_is_to_do_something_is_no_value(pages: list[Page]) -> None:
    assert "to" not in answers(pages, "What does crate.pack write by default?")
    assert "to" not in answers(pages, "What is the default shebang written by crate.pack?")


def test_a_removal_is_answered_with_the_removals_version(pages: list[Page]) -> None:
    assert answers(pages, "In which Python version will the crate module be removed?")[:1] == ["3.13"]
    # Must fail: 3.11 is when it was deprecated, which answers only a question about the deprecation.
    assert "3.11" not in answers(pages, "In which Python version will the crate module be removed?")
    assert "3.11" not in answers(pages, "In which Python version was the crate module added?")


def test_a_negated_condition_does_not_take_the_other_branch(pages: list[Page]) -> None:
    assert answers(pages, "What does Crate.has_label return if name is a label of the crate?")[:1] == ["True"]
    # Must fail: "True if X, False otherwise" asked "if not X" is not True.
    assert "True" not in answers(pages, "What does Crate.has_label return if name is not a label?")


def test_the_module_named_is_answered_from_its_own_page(pages: list[Page]) -> None:
    found = answers(pages, "What is the tick used by the clock module?")
    assert found[:1] == ["10"]
    assert "20" not in found  # must fail: crate's page mentions the clock module in passing


def test_which_function_does_an_action_only_where_the_action_is_said(pages: list[Page]) -> None:
    found = answers(pages, "Which crate function opens the lid of a crate?")
    assert found and found[0].startswith("crate.open_lid")
    # Must fail: nothing says which function closes the lid; open_lid shares the other words.
    assert answers(pages, "Which crate function closes the lid of a crate?") == []
