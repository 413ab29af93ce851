"""A gloss the question puts in brackets explains a word; the sentence giving the release need not repeat
it ("UPSERT (INSERT ... ON CONFLICT DO UPDATE) syntax" / "UPSERT syntax was added to SQLite with version
3.24.0"): without the gloss rule (both the words in brackets and the statement they spell in
capitals must otherwise be in the sentence) this question is refused."""

from __future__ import annotations

import pytest
from helpers.doc_pages import corpus_outcome


@pytest.mark.anyio
async def test_a_bracketed_gloss_need_not_be_in_the_sentence() -> None:
    # lang_upsert.html: "UPSERT syntax was added to SQLite with version 3.24.0 (2018-06-04)."
    outcome = await corpus_outcome(
        "sqlite_doc",
        "In which SQLite version was the UPSERT (INSERT ... ON CONFLICT DO UPDATE) syntax added?",
    )
    assert (outcome.status, outcome.answer) == ("answered", "3.24.0")
