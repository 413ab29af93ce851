"""A function described under a bold title ("###### steep(X)") and what it returns, by condition.

SQLite's function pages put each function's name in bold inside its `<dt>`, which the corpus
writes as a heading over the indented description, not as a term. The description is still
about that function, and "Return ... of X. NULL is returned if X is negative." is two
sentences: a one-letter argument ends the first. The pages are invented (a "KettleDB" manual).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.events import Page
from citeloop.policies._outline import described_term, outline
from citeloop.tools import Corpus
from helpers.doc_pages import doc_answers, open_pages, page_corpus

FUNCTIONS = """<html><head><title>Kettle functions</title></head><body>
<h1>Built-in kettle functions</h1>
<dl>
<dt><p><b>steep(<i>X</i>)</b></dt><dd><p>
  Return the steeping time of X.  NULL is returned if X is negative.
</dd>
<dt><p><b>pour(<i>X</i>)</b></dt><dd><p>
  Return the cups poured from X.
</dd>
</dl>
</body></html>"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    corpus: Corpus = page_corpus(tmp_path_factory.mktemp("kettle-functions"), {"functions": FUNCTIONS})
    return open_pages(corpus, "functions")


def test_a_bold_title_over_an_indented_description_is_its_term(pages: list[Page]) -> None:
    lines = outline(pages[0].body)
    described = [line for line in lines if "steeping time" in line.text]
    assert described and described[0].terms == ("steep(X)",)
    title = next(index for index, line in enumerate(lines) if line.text.endswith("steep(X)"))
    assert described_term(lines[title], lines[title + 1]).text == "steep(X)"
    # Must fail: a heading over a line that is not deeper describes nothing as a term.
    top = next(index for index, line in enumerate(lines) if "Built-in" in line.text)
    assert not described_term(lines[top], lines[top + 1]).is_term


def test_what_a_headed_function_returns_under_the_condition_asked(pages: list[Page]) -> None:
    asked = "What does the steep() function return for a negative argument?"
    assert doc_answers(pages, asked)[:1] == ["NULL"]


def test_what_a_headed_function_returns_without_a_condition(pages: list[Page]) -> None:
    # Must fail as "NULL": that value is returned only when X is negative, which was not asked.
    assert doc_answers(pages, "What does the steep() function return?")[:1] == ["the steeping time of X"]


def test_a_condition_no_sentence_states_gets_no_answer(pages: list[Page]) -> None:
    assert doc_answers(pages, "What does the steep() function return for a positive argument?") == []
    # Must fail: the other function's description is not the one asked about.
    assert "the cups poured from X" not in doc_answers(pages, "What does the steep() function return?")


def test_an_initial_in_prose_is_not_an_argument_ending_a_sentence(tmp_path: Path) -> None:
    html = """<html><head><title>Kettle people</title></head><body><h1>People</h1><dl>
<dt><p><b>brewer(<i>X</i>)</b></dt><dd><p>
  Return the brewer of cup X. It returns J. Smith when no brewer is set.
</dd></dl></body></html>"""
    (tmp_path / "pages").mkdir()
    pages = open_pages(page_corpus(tmp_path / "pages", {"people": html}), "people")
    # Must fail as "J": "J." is an initial, not the argument X ending a sentence.
    assert doc_answers(pages, "What does the brewer() function return when no brewer is set?")[:1] == [
        "J. Smith"
    ]
