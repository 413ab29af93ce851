"""What an abbreviation stands for (review 11: "What does GSI stand for?" was refused, though
"GSI (Generalized Search Index) indexes are ..." says it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.policies._acronyms import _spelling
from helpers.doc_pages import ask, assert_answer, one_page_corpus, page_corpus


@pytest.mark.parametrize(
    ("words", "short", "expected"),
    [
        ("Generalized Search Index", "GSI", "Generalized Search Index"),
        ("uses Host-Based Authentication", "HBA", "Host-Based Authentication"),  # the run that spells it
        ("Multiversion Concurrency Control", "MVCC", "Multiversion Concurrency Control"),  # MV of one word
        ("Department of Motor Vehicles", "DMV", "Department of Motor Vehicles"),  # "of" skipped
        # Must fail: words that do not spell it
        ("Search Index", "GSI", None),
        ("Generalized Index", "GSI", None),
        ("Great Big Search Index", "GSI", None),
    ],
)
def test_words_spell_the_abbreviation(words: str, short: str, expected: str | None) -> None:
    assert _spelling(words, short) == expected


PAGE = """
<h2>Index types</h2>
<p>GSI (Generalized Search Index) indexes are not a single kind of index, but a framework.</p>
<p>The Zone Range Index (ZRI) stores summaries of block ranges.</p>
<p>The tm_hba.conf file (HBA stands for host-based authentication) controls client access.</p>
<p>BRX (block range extensions) are described elsewhere.</p>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What does GSI stand for?", "Generalized Search Index"),
        ("What does ZRI stand for?", "Zone Range Index"),
        ("What does HBA stand for?", "host-based authentication"),
        ("What does WAL stand for?", None),  # not on the page
        ("What does BRX stand for?", None),  # the bracket does not spell it
    ],
)
@pytest.mark.anyio
async def test_what_an_abbreviation_stands_for(tmp_path: Path, question: str, expected: str | None) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Indexes", PAGE), question)
    assert_answer(outcome, expected)


@pytest.mark.anyio
async def test_an_abbreviation_every_opened_page_carries_is_still_the_one_asked(tmp_path: Path) -> None:
    # HSQLDB review: "DQL" was in every opened page (a table of contents names it), so it was dropped
    # from the question as the product's name, and "What does DQL stand for?" found nothing to expand.
    def page(title: str, body: str) -> str:
        return f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{body}</body></html>"

    (tmp_path / "pages").mkdir()
    corpus = page_corpus(
        tmp_path / "pages",
        {
            "contents": page("Contents", "<p>Data Query Statements (DQL)</p><p>Data Change Statements</p>"),
            "sql": page(
                "SQL", "<p>Check DDL (Data Definition Language) or DQL (Data Query Language) syntax.</p>"
            ),
            "more": page("More", "<p>DQL statements read data. Use DQL with care.</p>"),
        },
    )
    assert_answer(await ask(corpus, "What does DQL stand for?"), "Data Query Language")


@pytest.mark.anyio
async def test_an_abbreviation_asked_in_a_context_is_still_asked(tmp_path: Path) -> None:
    body = "<p>Collation names may end in UCC. UCC stands for Upper Case Comparison.</p>"
    outcome = await ask(
        one_page_corpus(tmp_path / "pages", "Collations", body), "What does UCC stand for in collation names?"
    )
    assert_answer(outcome, "Upper Case Comparison")
