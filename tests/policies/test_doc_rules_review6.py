"""A sixth review, on invented pages of a database server's SQL command reference and settings
("Brackwater"), found wrong answers; each is a case here that failed before its fix.

Defaults: a question naming no code took the default a description states under another term
("The default is double-quote." under QUOTE, asked of ESCAPE); a default given per case ("\\N in text
format, and an empty string in csv format") answered the other case; a list default was cut at its
first comma ('"$user", public').
"""

from __future__ import annotations

import pytest
from citeloop.events import Page
from helpers.doc_pages import doc_answers, one_page

TRANSFER = """
<h2>Parameters</h2>
<dl>
<dt><code>NULL</code></dt>
<dd><p>Specifies the string that represents a null value. The default is <code>\\N</code> (backslash-N) in
text format, and an unquoted empty string in <code>csv</code> format.</p></dd>
<dt><code>QUOTE</code></dt>
<dd><p>Specifies the quoting character to be used when a data value is quoted. The default is
double-quote.</p></dd>
<dt><code>search_order</code> (string)</dt>
<dd><p>The order in which schemas are searched. The default value for this parameter is
<code>"$user", public</code>.</p></dd>
</dl>
"""


@pytest.fixture(scope="module")
def transfer(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    return one_page(tmp_path_factory.mktemp("review6") / "brack", "TRANSFER", TRANSFER)


def test_a_default_under_another_term_does_not_answer_a_question_naming_no_code(
    transfer: list[Page],
) -> None:
    # must fail: "double-quote" (QUOTE's) and "\\N" (NULL's) answered the ESCAPE questions
    assert doc_answers(transfer, "What is the default ESCAPE character for TRANSFER?") == []
    assert doc_answers(transfer, "What is the default escape string for TRANSFER?") == []
    assert doc_answers(transfer, "What is the default QUOTE character for TRANSFER?")[:1] == ["double-quote"]


def test_a_default_given_for_another_case_is_no_answer(transfer: list[Page]) -> None:
    # must fail: "\\N", the text format's
    assert "\\N" not in doc_answers(transfer, "What is the default NULL string in csv format?")
    assert doc_answers(transfer, "What is the default NULL string in text format?")[:1] == ["\\N"]


def test_a_list_default_is_the_whole_list(transfer: list[Page]) -> None:
    # must fail: '"$user"', the list's first item
    assert doc_answers(transfer, "What is the default search_order?")[:1] == ['"$user", public']
