"""Wrong answers review 29 (the libcurl 7.88 man pages, through groff's HTML) gave, measured before
they were read, each class on an invented page: "Default maximum age is set to 118 seconds." gives
118 seconds, not "set"; a sentence about another release ("thread-safe since libkurl 7.84.0")
answers nothing asked of release 7.9.8; "how big ... relative to the number of handles" asks for a
factor ("4 times"), which an amount ("The default is 5") is not."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.doc_pages import ask, assert_answer, one_page_corpus

MAXAGE = (
    "<h2>NAME</h2><p>KURLOPT_MAXAGE_CONN - max idle time allowed for reusing a connection</p>"
    "<h2>DEFAULT</h2><p>Default maximum age is set to 118 seconds.</p>"
)
SSLSET = (
    "<h2>NAME</h2><p>kurl_global_sslset - select SSL backend to use</p><h2>DESCRIPTION</h2>"
    "<p>This function is thread-safe since libkurl 7.84.0 if kurl_version_info(3) has the"
    " KURL_VERSION_THREADSAFE feature bit set (most platforms).</p>"
)
MAXCONNECTS = (
    "<h2>NAME</h2><p>KURLOPT_MAXCONNECTS - maximum connection cache size</p><h2>DESCRIPTION</h2>"
    "<p>The set amount will be the maximum number of simultaneously open persistent connections that"
    " libkurl may cache in the pool associated with this handle. The default is 5.</p>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("title", "page", "question", "expected"),
    [
        (
            "KURLOPT_MAXAGE_CONN",
            MAXAGE,
            "What is the default maximum idle age of a connection for reuse with KURLOPT_MAXAGE_CONN?",
            "118 seconds",
        ),
        (
            "kurl_global_sslset",
            SSLSET,
            "What version_num value does kurl_version_info return for libkurl 7.9.8?",
            None,
        ),
        (
            "KURLOPT_MAXCONNECTS",
            MAXCONNECTS,
            "By default, how big does libkurl make a multi handle's connection cache relative to the number"
            " of added easy handles?",
            None,
        ),
    ],
)
async def test_review_29_wrong_answers(
    tmp_path: Path, title: str, page: str, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", title, page), question)
    assert_answer(outcome, expected)
