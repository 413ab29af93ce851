"""A "which <noun>" answered by the name a sentence calls by that noun (from sqlite_doc's dev half).

"The maximum number of bytes in a string or BLOB is defined by the preprocessor macro
SQLITE_MAX_LENGTH" answers "Which compile-time macro sets the maximum size in bytes of a string or
BLOB?" though it holds fewer of the question's words than a sentence must otherwise hold: it calls
the name a macro. The pages are invented (a "teapot" manual). Each case has a counterpart that
must fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.events import Page
from helpers.doc_pages import doc_answers, one_page

LIMITS = """
<h2>Limits</h2>
<p>The maximum number of bytes in a leaf or bag is defined by the preprocessor macro TEA_MAX_LEAF.</p>
<p>The maximum number of bytes in a cup or pot is defined by the macro TEA_MAX_CUP or the macro
TEA_MAX_POT.</p>
<h2>Spouts</h2>
<p>The teapot.gnu module provides an interface to the GNU spout library.</p>
"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    folder: Path = tmp_path_factory.mktemp("typed")
    return one_page(folder / "teapot", "Teapot limits", LIMITS)


def test_a_name_the_sentence_calls_a_macro_answers(pages: list[Page]) -> None:
    # Four of the question's seven words: too few for a sentence that does not call its name a macro.
    asked = "Which compile-time macro sets the maximum size in bytes of a leaf or bag?"
    assert doc_answers(pages, asked)[:1] == ["TEA_MAX_LEAF"]


def test_two_names_the_sentence_calls_so_answer_nothing(pages: list[Page]) -> None:
    # Must fail: the sentence calls two names macros; neither alone answers.
    answers = doc_answers(pages, "Which compile-time macro sets the maximum size in bytes of a cup or pot?")
    assert not {"TEA_MAX_CUP", "TEA_MAX_POT"} & set(answers)


def test_the_name_own_letters_are_not_words_of_the_question(pages: list[Page]) -> None:
    # Must fail: "teapot" is in "teapot.gnu", half of the question's two words, but not one of them.
    assert "teapot.gnu" not in doc_answers(pages, "Which teapot module is used by default on Windows?")
