"""'What value do you give X to <purpose>?' (policies/_doc_values.py): the value a sentence about X gives
that purpose, of several the one whose clause says it; never a value for another purpose."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.doc_pages import ask, assert_answer, doc_answers, one_page, one_page_corpus

REDIRS = (
    "<h2>NAME</h2><p>KURLOPT_MAXHOPS - maximum number of redirects allowed</p>"
    "<p>Set it to -1 for an infinite number of hops.</p>"
)
CACHE = (
    "<h2>NAME</h2><p>KURLOPT_DNS_TTL - life-time for DNS cache entries</p><p>Set to zero to completely"
    " disable caching, or set to -1 to make the cached entries remain forever.</p>"
)
LIMIT = "<p>The limit on retries.</p><p>If set to 0, the retry limit is disabled.</p>"


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("title", "page", "question", "expected"),
    [
        ("KURLOPT_MAXHOPS", REDIRS, "What value do you give KURLOPT_MAXHOPS to allow unlimited hops?", "-1"),
        ("KURLOPT_DNS_TTL", CACHE, "What value of KURLOPT_DNS_TTL makes the entries remain forever?", "-1"),
        ("KURLOPT_DNS_TTL", CACHE, "What value of KURLOPT_DNS_TTL disables caching completely?", "zero"),
        ("retry_limit", LIMIT, "Which value of retry_limit disables the retry limit?", "0"),
        # A value for another purpose answers nothing.
        ("KURLOPT_DNS_TTL", CACHE, "What value of KURLOPT_DNS_TTL makes lookups run twice?", None),
    ],
)  # fmt: skip
async def test_the_value_for_the_purpose_asked(
    tmp_path: Path, title: str, page: str, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", title, page), question)
    assert_answer(outcome, expected)


def test_another_names_sentence_gives_no_value(tmp_path: Path) -> None:
    pages = one_page(tmp_path / "pages", "KURLOPT_MAXHOPS", REDIRS)
    assert doc_answers(pages, "What value do you give KURLOPT_MAXHOPS to allow infinite hops?")[:1] == ["-1"]
    assert doc_answers(pages, "What value do you give KURLOPT_TIMEOUT to allow infinite hops?") == []


def test_a_value_for_another_purpose_is_no_candidate(tmp_path: Path) -> None:
    pages = one_page(tmp_path / "pages", "KURLOPT_DNS_TTL", CACHE)
    assert doc_answers(pages, "What value of KURLOPT_DNS_TTL makes lookups run twice?") == []
