"""Review AC (2026-12-05, fresh: conditions and exceptions, with near misses): a consequence is read
only from a sentence whose own condition states the case asked."""

from __future__ import annotations

import pytest
from helpers.doc_pages import corpus_outcome


@pytest.mark.anyio
async def test_a_consequence_of_another_condition_is_no_answer() -> None:
    # mod_reqtimeout.html: "If the client fails to complete each of these stages within the configured
    # time, a 408 REQUEST TIME OUT error is sent." - nothing of a negative timeout.
    negative = await corpus_outcome(
        "apache_doc",
        "What happens if a negative timeout value is configured for a stage in RequestReadTimeout?",
    )
    assert negative.status != "answered", negative.answer
    # A sentence whose condition is the case asked still gives its consequence.
    full = await corpus_outcome(
        "sqlite_doc",
        "What happens when an insert would make the database file grow beyond the maximum page count?",
    )
    assert "SQLITE_FULL" in full.answer
