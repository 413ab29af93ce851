"""A review's cases against this round's documentation rules: each gave a wrong answer with a real
citation (or let the gate pass one) before its fix. The pages are invented (a "teapot" module)."""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.events import Page
from citeloop.policies._outline import outline
from citeloop.runtime import DEFAULT_SUPPORT, assess_support
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus

TEAPOT = """<html><head><title>teapot \u2014 Teapots</title></head><body>
<h1>teapot \u2014 Teapots\u00b6</h1>
<p>If the TEAQUIET environment variable is unset, the TEABELL variable turns the bell on at startup.</p>
<dl>
<dt>class teapot.Pot(host, port=None, tls=False)\u00b6</dt>
<dd><p>A pot. If port is omitted and tls is true, the standard secure teapot port (8443) is used.
Otherwise port 8080 applies.</p></dd>
<dt>teapot.pour(cup, port=None)\u00b6</dt>
<dd><p>Pour. If host is not given, the local pot (127.0.0.1) is used.</p></dd>
<dt>teapot.connect(host, port=None)\u00b6</dt>
<dd><p>Connect. The port defaults to the value found in (1) the TEAPOT_PORT variable or (2) the
teapot.conf file.</p></dd>
<dt>class teapot.Server(host, port=0)\u00b6</dt>
<dd><p>The defaults are to wait for the default teapot timeout (30) and to listen at the standard
teapot port (418).</p></dd>
<dt>teapot.lexer\u00b6</dt>
<dd><p>The comment set does not include '#' by default; call add_comment() to add it.</p></dd>
<dt>teapot.log(message)\u00b6</dt>
<dd><p>Log a message. By default, no message is written to sys.stderr.</p></dd>
<dt>teapot.fill(cup)\u00b6</dt>
<dd><p>Fill cup. The result is written to teapot.log.</p></dd>
<dt>teapot.sip(cup)\u00b6</dt>
<dd><p>The result is undefined if cup is empty. Return the amount sipped.</p></dd>
</dl>
</body></html>"""

BREW = """<html><head><title>git-brew(1)</title></head><body>
<h1>git-brew(1) Manual Page</h1>
<h2>COMMANDS</h2>
<dl><dt>prune</dt><dd><p>Prune stale brew trees.</p></dd></dl>
<h2>STRATEGIES</h2>
<dl><dt>ours</dt><dd><p>Keep our side.</p></dd><dt>theirs</dt><dd><p>Keep their side.</p></dd></dl>
<p>After the prune command runs, stale brew trees are deleted by git-brew gc.</p>
<p>When the theirs strategy fails, git-brew resolves the conflict by keeping the older blob.</p>
</body></html>"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    corpus: Corpus = page_corpus(tmp_path_factory.mktemp("teapot-review"), {"teapot": TEAPOT, "brew": BREW})
    return open_pages(corpus, "teapot", "brew")


@pytest.mark.parametrize(
    ("question", "wrong"),
    [
        ("What is the default port of teapot.Pot?", "8443"),  # omitted AND tls: another condition
        ("What port does teapot.pour use if host is not given?", "127.0.0.1"),  # host is not the port
        ("What is the default port of teapot.connect?", "1"),  # "(1)" numbers a list
        ("Which comment characters does teapot.lexer include by default?", "'#'"),  # "does not include"
        ("Where does teapot.log write messages by default?", "sys.stderr"),  # "no message is written"
        ("What does teapot.fill return?", "written to teapot.log"),  # a predicate, not a value
        ("Which command deletes stale brew trees?", "prune"),  # named in an "After ..." clause
        ("Which strategy resolves a conflict by keeping the older blob?", "theirs"),  # in a "When" clause
    ],
)
def test_a_rule_does_not_answer_outside_what_it_reads(pages: list[Page], question: str, wrong: str) -> None:
    assert wrong not in doc_answers(pages, question)


def test_the_standard_number_is_the_asked_nouns(pages: list[Page]) -> None:
    answers = doc_answers(pages, "What is the default port of teapot.Server?")
    assert "30" not in answers and answers[:1] == ["418"]


def test_a_result_that_is_undefined_is_no_return_value(pages: list[Page]) -> None:
    assert doc_answers(pages, "What does teapot.sip return?")[:1] == ["the amount sipped"]


def test_the_variable_outside_the_condition_is_the_one_named(pages: list[Page]) -> None:
    assert doc_answers(pages, "Which environment variable turns the bell on at startup?")[:1] == ["TEABELL"]


def test_a_short_quoted_level_one_title_past_a_deeper_heading_stays_a_heading(tmp_path: Path) -> None:
    body = (
        "# kettle.brew settings\n## Overview\nThe default steep time is 4 minutes.\n"
        '# Settings for "kettle.chill"\nThe default chill time is 9 minutes.\n'
    )
    chill = next(line for line in outline(body) if line.text.startswith("The default chill"))
    assert chill.headings == ('Settings for "kettle.chill"',)


def test_the_gate_wants_a_symbols_literal_not_the_bare_symbol() -> None:
    question = "What separator does teapot.split use by default?"
    quote = "teapot.split(s) - Split s at whitespace by default."
    found = assess_support(question, "'-'", quote, DEFAULT_SUPPORT, pages=[("teapot", "")])
    assert found[0].verdict == "unsupported"
    quote = "teapot.split(s) splits at '-' by default."
    found = assess_support(question, "'-'", quote, DEFAULT_SUPPORT, pages=[("teapot", "")])
    assert found[0].verdict == "supported"


def test_the_gate_wants_the_omission_to_be_the_whole_condition() -> None:
    question = "What is the default port of the Pot class?"
    quote = "If port is omitted and tls is true, the standard secure teapot port (8443) is used."
    found = assess_support(question, "8443", quote, DEFAULT_SUPPORT, pages=[("teapot", "")])
    assert [v.verdict for v in found][2] == "unsupported"
