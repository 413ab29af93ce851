"""A second review's cases against this round's documentation rules: each gave a wrong answer with a
real citation (or let the gate pass one) before its fix. The pages are invented ("teapot")."""

from __future__ import annotations

import pytest
from citeloop.events import Page
from citeloop.policies._outline import outline
from citeloop.runtime import DEFAULT_SUPPORT, assess_support
from citeloop.runtime._focus import question_focus
from citeloop.runtime._support_context import own_page_members
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus

TEAPOT = """<html><head><title>teapot \u2014 Teapots</title></head><body>
<h1>teapot \u2014 Teapots\u00b6</h1>
<p>Setting the TEAHORN environment variable overrides TEAWHISTLE, which sounds the whistle at boil.</p>
<p>With POT_STRICT, boiling dry raises TeaError; the POT_LAX flag suppresses the error.</p>
<dl>
<dt>class teapot.Pot(host, port=None)\u00b6</dt>
<dd><p>A pot. If port is omitted, the standard teapot port (418) is used unless tls is true.</p></dd>
<dt>class teapot.Cup(host, port=None)\u00b6</dt>
<dd><p>A cup. The port defaults to 0 rather than the standard teapot port (418).</p></dd>
<dt>class teapot.Saucer(host, port=None)\u00b6</dt>
<dd><p>A saucer. The port defaults to a free one, not the standard teapot port (418).</p></dd>
<dt>teapot.sip(cup)\u00b6</dt>
<dd><p>Sip. The result is an error if the cup is empty.</p></dd>
<dt>teapot.slurp(cup)\u00b6</dt>
<dd><p>Slurp. The result is the same as for teapot.gulp().</p></dd>
</dl>
</body></html>"""

BREW = """<html><head><title>git-brew(1)</title></head><body>
<h1>git-brew(1) Manual Page</h1>
<h2>COMMANDS</h2>
<dl><dt>prune</dt><dd><p>Prune.</p></dd><dt>steep</dt><dd><p>Steep.</p></dd></dl>
<h2>STRATEGIES</h2>
<dl><dt>ours</dt><dd><p>Ours.</p></dd><dt>theirs</dt><dd><p>Theirs.</p></dd>
<dt>recursive</dt><dd><p>Recursive.</p></dd></dl>
<p>Like the prune command, git-brew gc deletes stale brew trees.</p>
<p>Use git-brew gc rather than the steep command to compact loose brew objects.</p>
<p>Instead of the theirs strategy, git-brew falls back to keeping the newer blob.</p>
<p>The ours strategy is deprecated; the recursive strategy now discards the remote side of a merge.</p>
</body></html>"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    corpus: Corpus = page_corpus(tmp_path_factory.mktemp("teapot-review3"), {"teapot": TEAPOT, "brew": BREW})
    return open_pages(corpus, "teapot", "brew")


@pytest.mark.parametrize(
    ("question", "wrong"),
    [
        ("What is the default port of teapot.Pot?", "418"),  # "... is used unless tls is true"
        ("What is the default port of teapot.Cup?", "418"),  # "defaults to 0 rather than ... (418)"
        ("What is the default port of teapot.Saucer?", "418"),  # "a free one, not ... (418)"
        ("What does teapot.sip return?", "an error if the cup is empty"),  # a value only under a condition
        ("What does teapot.slurp return?", "the same as for teapot.gulp()"),  # points elsewhere
        ("Which command deletes stale brew trees?", "prune"),  # "Like the prune command, ..."
        ("Which command compacts loose brew objects?", "steep"),  # "rather than the steep command"
        ("Which strategy keeps the newer blob?", "theirs"),  # "Instead of the theirs strategy, ..."
        ("Which strategy discards the remote side of a merge?", "ours"),  # another clause's strategy
        ("Which environment variable sounds the whistle at boil?", "TEAHORN"),  # TEAWHISTLE's clause
        ("Which flag suppresses the error when teapot boils dry?", "POT_STRICT"),  # not a flag here
    ],
)
def test_a_rule_does_not_answer_outside_what_it_reads(pages: list[Page], question: str, wrong: str) -> None:
    assert wrong not in doc_answers(pages, question)


def test_the_right_ones_still_answer(pages: list[Page]) -> None:
    assert doc_answers(pages, "What is the default port of teapot.Cup?")[:1] == ["0"]
    assert doc_answers(pages, "Which strategy discards the remote side of a merge?")[:1] == ["recursive"]
    assert doc_answers(pages, "Which flag suppresses the error when teapot boils dry?")[:1] == ["POT_LAX"]


def test_an_apostrophe_in_a_word_is_no_code() -> None:
    body = (
        "# kettle.brew settings\n## Overview\nThe default steep time is 4 minutes.\n"
        "# The teapot's own settings, which apply to every pot we've made\nThe default chill time is 9.\n"
    )
    chill = next(line for line in outline(body) if line.text.startswith("The default chill"))
    assert chill.headings == ("The teapot's own settings, which apply to every pot we've made",)


def test_the_gate_reads_an_omitted_default_only_for_the_asked_value() -> None:
    pages = [("teapot", "")]

    def number_unit(question: str, answer: str, quote: str) -> str:
        return assess_support(question, answer, quote, DEFAULT_SUPPORT, pages=pages)[-1].verdict

    quote = "If host is omitted, the standard teapot port (418) is used."
    assert number_unit("What is the default port of the Pot class?", "418", quote) == "unsupported"
    quote = "If port is omitted, the standard port is used, or 8443 for a secure pot."
    assert number_unit("What is the default port of the Pot class?", "8443", quote) == "unsupported"
    quote = "If port is omitted, the standard teapot port (418) is used."
    assert number_unit("What is the default port of the Pot class?", "418", quote) == "supported"


def test_a_member_on_a_dotted_modules_own_page() -> None:
    foci = question_focus("What does teapot.leaves.steep return?")
    shown = {focus.text for focus in own_page_members(foci, ["teapot.leaves \u2014 Leaves"])}
    assert "steep()" in shown
    # Must fail: another module's page.
    assert not own_page_members(foci, ["kettle \u2014 Kettles"])
