"""Review 11's wrong answers on invented concept chapters (concurrency, indexes, maintenance of a
"Tamarack" manual), each fixed class with the case answered wrong before.

- A question naming no code took the default of a parameter the sentence names: "a page read from disk
  costs vacuum_cost_page_miss (default 4)" gave "What does reading a page cost by default?" the hit
  cost; "btree_skip_scan_max_distinct (default 100)" was the default fillfactor.
- "An index can be defined on more than one column" counted one column.
- "This mode allows only concurrent ACCESS SHARE locks, i.e., only reads ..." answered "Which lock
  mode ...?" with "i.e".
- "Which configuration parameter sets the default isolation level?" was read as asking for a default
  ("Snapshot"): it asks for the parameter.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.doc_pages import ask, assert_answer, one_page_corpus

CHAPTER = """
<h2>Cost-based vacuum delay</h2>
<p>A page found in the buffer cache costs vacuum_cost_page_hit (default 1), a page read from disk costs
vacuum_cost_page_miss (default 4), and dirtying a previously clean page costs vacuum_cost_page_dirty
(default 20).</p>
<h2>Skip scans</h2>
<p>Since version 13, a B-tree index can also use a skip scan when the leading column has fewer than
btree_skip_scan_max_distinct (default 100) distinct values.</p>
<h2>Multicolumn indexes</h2>
<p>An index can be defined on more than one column of a table.</p>
<h2>Isolation</h2>
<p>The default isolation level is Snapshot; it is controlled by the configuration parameter
default_transaction_isolation, whose default value is 'snapshot'.</p>
<h2>Freezing</h2>
<p>The vacuum_freeze_min_age parameter controls how old a row must be before it is frozen; its default
is 40 million transactions. autovacuum_freeze_max_age (default 180 million) is the age at which a
vacuum is forced, and old_snapshot_limit (default 360 minutes; -1 disables the limit) bounds how long a
snapshot may be used.</p>
<h2>EXCLUSIVE</h2>
<p>This mode allows only concurrent ACCESS SHARE locks, i.e., only reads from the table can proceed in
parallel with a transaction holding this lock mode.</p>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What is the default value of vacuum_cost_page_miss?", "4"),
        ("What is the default vacuum cost page miss?", "4"),  # every word of the name asked
        ("What does reading a page from disk cost during vacuum by default?", None),  # was "1"
        ("What is the default fillfactor for B-tree indexes?", None),  # was "100"
        ("How many columns can a multicolumn index have?", None),  # was "one column"
        ("Which lock mode allows only concurrent ACCESS SHARE locks?", None),  # was "i.e"
        ("What is the default isolation level?", "Snapshot"),
        # a number keeps its scale word; a bracket's default ends at its semicolon (were refused)
        ("What is the default vacuum_freeze_min_age?", "40 million"),
        ("What is the default autovacuum_freeze_max_age?", "180 million"),
        ("What is the default old_snapshot_limit?", "360 minutes"),
        # asks for the parameter, not the default it sets (was "Snapshot")
        ("Which configuration parameter sets the default isolation level?", "default_transaction_isolation"),
    ],
)
@pytest.mark.anyio
async def test_review11(tmp_path: Path, question: str, expected: str | None) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Concurrency and maintenance", CHAPTER), question)
    assert_answer(outcome, expected)
