"""'What is the maximum X that Y accepts?' (policies/_doc_bounds.py): the bound a sentence about Y gives,
of the kind asked, for what the question bounds - not another bound, not another thing's."""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.policies._doc_questions import doc_question
from helpers.doc_pages import ask, assert_answer, doc_answers, one_page, one_page_corpus

BUFFER = (
    "<h2>NAME</h2><p>KURLOPT_RECVSIZE - receive buffer size</p><h2>DESCRIPTION</h2>"
    "<p>The maximum buffer size allowed to be set is KURL_MAX_READ_SIZE (10MB).</p>"
    "<p>The minimum buffer size allowed to be set is 1024.</p>"
    "<p>The maximum header size is 100 KB.</p>"
)
KEEPIDLE = "<h2>NAME</h2><p>KURLOPT_IDLE - idle time</p><p>The maximum value this accepts is 2147483648.</p>"
SCHEME = "<p>kurl_url_set only accepts setting schemes up to 40 bytes long.</p>"


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("title", "page", "question", "expected"),
    [
        ("KURLOPT_RECVSIZE", BUFFER, "What is the largest receive buffer size KURLOPT_RECVSIZE takes?",
         "KURL_MAX_READ_SIZE (10MB)"),
        ("KURLOPT_RECVSIZE", BUFFER, "What is the minimum buffer size KURLOPT_RECVSIZE takes?", "1024"),
        ("KURLOPT_IDLE", KEEPIDLE, "What is the maximum value that KURLOPT_IDLE accepts?", "2147483648"),
        ("kurl_url_set", SCHEME, "What is the longest scheme that kurl_url_set accepts?", "40 bytes"),
        # Another bound's sentence, or another thing's, is not the asked one's.
        ("KURLOPT_IDLE", KEEPIDLE, "What is the minimum value that KURLOPT_IDLE accepts?", None),
        ("KURLOPT_RECVSIZE", BUFFER, "What is the minimum header size accepted by KURLOPT_RECVSIZE?", None),
    ],
)  # fmt: skip
async def test_the_bound_asked(
    tmp_path: Path, title: str, page: str, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", title, page), question)
    assert_answer(outcome, expected)


def test_a_bound_of_other_words_or_another_names_page_gives_nothing(tmp_path: Path) -> None:
    pages = one_page(tmp_path / "pages", "KURLOPT_RECVSIZE", BUFFER)
    # "header size" is between the bound and its value: not the upload buffer asked about.
    assert doc_answers(pages, "What is the maximum upload size accepted by KURLOPT_RECVSIZE?") == []
    assert doc_answers(pages, "What is the maximum buffer size accepted by KURLOPT_SENDSIZE?") == []


@pytest.mark.parametrize(
    ("question", "noun"),
    [
        ("What is the maximum value that KURLOPT_IDLE accepts?", "maximum"),
        ("What is the smallest upload buffer size allowed with KURLOPT_SENDSIZE?", "minimum"),
        ("What is the longest scheme that kurl_url_set accepts?", "maximum"),
    ],
)
def test_which_bound_a_question_asks(question: str, noun: str) -> None:
    asked = doc_question(question, True)
    assert asked is not None and asked.noun == noun
