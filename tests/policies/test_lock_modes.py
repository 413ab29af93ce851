"""Which lock mode a command acquires, from a manual's list of lock modes (review 11: "Which lock mode
does CREATE INDEX acquire?" was refused, though the SHARE entry says "Acquired by CREATE INDEX")."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.doc_pages import ask, assert_answer, one_page_corpus

MODES = """
<h2>13.3.1. Table-Level Locks</h2>
<dl class="variablelist">
<dt><span class="term"><code class="literal">
ACCESS SHARE</code> (<code class="literal">AccessShareLock</code>)</span></dt>
<dd><p>Conflicts with the ACCESS EXCLUSIVE lock mode only.</p>
<p>The SELECT command acquires a lock of this mode on referenced tables.</p></dd>
<dt><span class="term"><code class="literal">
MAINTENANCE EXCLUSIVE</code> (<code class="literal">MaintenanceExclusiveLock</code>)</span></dt>
<dd><p>Conflicts with the MAINTENANCE EXCLUSIVE, SHARE and EXCLUSIVE lock modes.</p>
<p>Acquired by VACUUM (without FULL), ANALYZE and CREATE INDEX CONCURRENTLY.</p></dd>
<dt><span class="term"><code class="literal">
SHARE</code> (<code class="literal">ShareLock</code>)</span></dt>
<dd><p>Conflicts with the ROW EXCLUSIVE and MAINTENANCE EXCLUSIVE lock modes. This mode protects a table
against concurrent data changes.</p>
<p>Acquired by CREATE INDEX (without CONCURRENTLY).</p></dd>
<dt><span class="term"><code class="literal">
ACCESS EXCLUSIVE</code> (<code class="literal">AccessExclusiveLock</code>)</span></dt>
<dd><p>Conflicts with locks of all modes.</p>
<p>Acquired by the DROP TABLE, TRUNCATE and VACUUM FULL commands.</p></dd>
</dl>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which lock mode does CREATE INDEX acquire?", "SHARE"),
        # the command stands whole: CREATE INDEX CONCURRENTLY and VACUUM FULL are other commands
        ("Which lock mode does CREATE INDEX CONCURRENTLY acquire?", "MAINTENANCE EXCLUSIVE"),
        ("Which lock mode does VACUUM FULL acquire?", "ACCESS EXCLUSIVE"),
        ("Which lock mode does TRUNCATE acquire?", "ACCESS EXCLUSIVE"),
        ("Which lock mode does CLUSTER acquire?", None),  # no mode names it
    ],
)
@pytest.mark.anyio
async def test_the_mode_whose_description_names_the_command(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "13.3. Explicit Locking", MODES), question)
    assert_answer(outcome, expected)
