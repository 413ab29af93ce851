"""Versions from release notes that summarise a release (the Patroni review): "Version 1.3 adds custom
bootstrap possibility, ..., enhances the synchronous mode support, adds configuration editing to
patronictl and implements watchdog support" holds most words of many questions across its items,
and answered "Which version added synchronous replication support?" and "Which version implemented
patronictl history?" with 1.3. One item must tell the change asked about. And "dropped support of
Python older than 3.6" does not answer when support for 3.6 was dropped."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.doc_pages import ask, assert_answer, one_page_corpus

NOTES = """
<h2>Version 2.4</h2>
<p>Version 2.4 adds custom bootstrap possibility, significantly improves support for fast rewind,
enhances the quorum mode support, adds configuration editing to warden and implements watchdog
support on Linux.</p>
<h2>Version 3.1</h2>
<p>Version 3.1 dropped support of Lua older than 5.2.</p>
<h2>Version 2.2</h2>
<p>Version 2.2 added support for quorum replication.</p>
"""


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which Harbor version added quorum replication support?", "2.2"),
        ("Which Harbor version implemented warden history?", None),
        ("Which Harbor version implemented watchdog support on Linux?", "2.4"),
        ("Which Harbor version dropped support for Lua 5.2?", None),
        ("Which Harbor version dropped support for Lua older than 5.2?", "3.1"),
    ],
)
async def test_one_item_of_a_summary_tells_one_change(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Harbor release notes", NOTES), question)
    assert_answer(outcome, expected)
