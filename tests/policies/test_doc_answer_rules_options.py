"""A command's options described under their own term: what one implies, and which value of another
it is a synonym for (from git_doc's dev half).

The page is invented (a "kettle-pour(1)" manual page). Each rule has a case that must fail.
"""

from __future__ import annotations

import pytest
from citeloop.events import Page
from citeloop.policies._doc_match import under_named
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus

POUR = """<html><head><title>kettle-pour(1)</title></head><body>
<h1>kettle-pour(1) Manual Page</h1>
<h2>OPTIONS</h2>
<dl>
<dt>-s, --slow</dt><dd><p>Pour slowly. The --slow option implies --steady.</p></dd>
<dt>--steady</dt><dd><p>Keep the kettle level.</p></dd>
<dt>--cups=&lt;n&gt;</dt><dd><p>Pour at most n cups.</p></dd>
<dt>--one</dt><dd><p>Pour a single cup. This is a synonym for --cups=1.</p></dd>
<dt>--dry</dt><dd><p>Pour nothing. A dry pour implies --quiet.</p></dd>
</dl>
</body></html>"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    corpus: Corpus = page_corpus(tmp_path_factory.mktemp("kettle-pour"), {"pour": POUR})
    return open_pages(corpus, "pour")


def test_an_option_is_named_by_its_term_line() -> None:
    assert under_named(["-s, --slow"], ["--slow"])
    assert under_named(["--slow"], ["--slow"])
    # Must fail: another option's term, or one whose name only begins like it.
    assert not under_named(["--steady"], ["--slow"])
    assert not under_named(["--slower"], ["--slow"])


def test_what_an_option_implies_under_its_own_term(pages: list[Page]) -> None:
    # "kettle pour" is what the page documents: said, under the option asked about.
    assert doc_answers(pages, "Which option does kettle pour --slow imply?")[:1] == ["--steady"]


def test_what_another_option_implies_is_not_the_asked_ones(pages: list[Page]) -> None:
    # Must fail: "--quiet" is implied by --dry, not by --slow.
    assert "--quiet" not in doc_answers(pages, "Which option does kettle pour --slow imply?")


def test_the_value_of_an_option_written_before_the_noun(pages: list[Page]) -> None:
    assert doc_answers(pages, "Which --cups value is kettle pour --one a synonym for?")[:1] == ["1"]
    # Must fail: a value of an option the question does not write before "value".
    assert doc_answers(pages, "Which --steady value is kettle pour --one a synonym for?") == []
