"""Review 9 and 10's wrong answers (invented application reference and release-note pages; the real
Berkeley DB manual), each fixed class with the case that was answered wrong before.

- "Which release fixed the leak?" answered with the note's author ("Lucia Ferraro"): a release is
  asked for by its number, so an answer without a digit is refused.
- "The default value is 10 times the number of CPUs" answered "10": a factor of something else.
- "after wal_sender_timeout of inactivity, ..., while the receiver uses wal_receiver_timeout, which
  defaults to 75 seconds" answered wal_sender_timeout's default with 75 seconds: the code named last
  before a default, after the asked one and not joined to it, owns it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.doc_pages import ask, assert_answer, one_page_corpus

RELEASE = """
<h2>E.2.1. Migration to Version 14.1</h2>
<p>A dump/restore is not required for those running 14.X.</p>
<h2>E.2.2. Changes</h2>
<ul>
<li><p>Fix memory leak in logical replication apply workers when processing large transactions
(Lucia Ferraro)</p></li>
<li><p>Fix planning of hash joins on numeric keys (Ingrid Solberg)</p></li>
</ul>
"""

SETTINGS = """
<h2>Timeouts</h2>
<p>When a standby is disconnected, the WAL sender terminates it after wal_sender_timeout of
inactivity, while the standby's WAL receiver uses wal_receiver_timeout, which defaults to 75
seconds.</p>
<h2>Partitions</h2>
<p>The lk_partitions setting sets the number of lock table partitions. The default value is 10 times
the number of CPUs on the system.</p>
<h2>Hashes</h2>
<p>For METHOD_SHA256 and METHOD_SHA512 the rounds setting defaults to 5000.</p>
"""


@pytest.mark.anyio
async def test_a_release_is_not_answered_with_a_name(tmp_path: Path) -> None:
    corpus = one_page_corpus(tmp_path / "pages", "E.2. Release 14.1", RELEASE)
    outcome = await ask(corpus, "Which release fixed the memory leak in logical replication apply workers?")
    assert outcome.status == "abstained", outcome.answer  # was "Lucia Ferraro"
    outcome = await ask(corpus, "Who fixed the memory leak in logical replication apply workers?")
    assert (outcome.status, outcome.answer) == ("answered", "Lucia Ferraro")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What is the default value of wal_receiver_timeout?", "75 seconds"),
        ("What is the default value of METHOD_SHA256 rounds?", "5000"),  # joined names share the default
        ("What is the default value of wal_sender_timeout?", None),  # was "75 seconds"
        ("What is the default number of lock table partitions?", None),  # was "10"
    ],
)
@pytest.mark.anyio
async def test_a_default_is_its_owners(tmp_path: Path, question: str, expected: str | None) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Server settings", SETTINGS), question)
    assert_answer(outcome, expected)


TOOLS = """
<dl class="variablelist">
<dt><span class="term"><code class="option">--auth=authmethod</code></span></dt>
<dd><p>This option specifies the default authentication method for local users. The default is peer
for Unix-domain socket connections and scram for TCP/IP connections.</p></dd>
<dt><span class="term"><code class="envar">LBCTLTIMEOUT</code></span></dt>
<dd><p>Default limit on the number of seconds to wait when waiting for startup or shutdown to complete.
If not set, the default is 90 seconds.</p></dd>
<dt><span class="term"><code class="option">-Z level</code></span></dt>
<dd><p>For the folder format, the default is zstd at level 5.</p></dd>
</dl>
<h2>Recovery</h2>
<p>By default, lbctl does not create intermediate directories needed for recovery, that is, if the
directory path does not exist, recovery will fail. This default behavior is because creating them could
hide a mistyped path.</p>
<h2>Standby</h2>
<p>If streaming replication is not configured, the standby retries every retry_interval, which
defaults to 7 seconds.</p>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # a case of several words, named by a word the other case lacks (was "peer" for both)
        ("What is lbctl's default authentication method for TCP/IP connections?", "scram"),
        ("What is lbctl's default authentication method for Unix-domain socket connections?", "peer"),
        # an amount is no mode, no level is a name, and no number says yes or no (were "90 seconds",
        # "zstd" and "7 seconds")
        ("What is lbctl's default shutdown mode?", None),
        ("What is the default compression level for the folder format?", None),
        ("Is streaming replication synchronous by default?", None),
        ("Does lbctl create missing intermediate directories during recovery by default?", None),  # "because"
    ],
)
@pytest.mark.anyio
async def test_a_default_is_of_the_asked_case_and_kind(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "lbctl", TOOLS), question)
    assert_answer(outcome, expected)


LOCKING = """
<h2>Lock priorities</h2>
<p>By default, all lockers are created with a priority of 100.</p>
<h2>Log file size</h2>
<p>When the logging subsystem is configured for on-disk logging, the default size of a log file is
10MB.</p>
<p>When the logging subsystem is configured for in-memory logging, the default size of a log file is
256KB.</p>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # Berkeley DB's phrasings (were refused)
        ("What priority are lockers given by default?", "100"),
        ("What is the default size of an on-disk log file?", "10MB"),
        ("What is the default size of an in-memory log file?", "256KB"),
        # two defaults, by a case the question does not name: no choice between them
        ("What is the default size of a log file?", None),
        # a log file's default is no log buffer's (was "256KB")
        ("What is the default size of the in-memory log buffer?", None),
    ],
)
@pytest.mark.anyio
async def test_defaults_in_a_manuals_plain_words(tmp_path: Path, question: str, expected: str | None) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Locking and logging", LOCKING), question)
    assert_answer(outcome, expected)


FLAGS = """
<p>The deadlock detector rejects one lock request by the policy given:</p>
<ul>
<li><p><code class="literal">DB_LOCK_MAXWRITE</code></p><p>Reject the lock request for the locker ID with
the most write locks.</p></li>
<li><p><code class="literal">DB_LOCK_MINWRITE</code></p><p>Reject the lock request for the locker ID with
the fewest write locks.</p></li>
</ul>
"""


@pytest.mark.anyio
async def test_a_word_of_a_description_is_not_what_it_describes(tmp_path: Path) -> None:
    # Berkeley DB's flag list: the best sentence is DB_LOCK_MINWRITE's description, and "ID" (was the
    # answer) is a word of it, not the policy asked for.
    corpus = one_page_corpus(tmp_path / "pages", "DB_ENV->set_lk_detect()", FLAGS)
    outcome = await ask(corpus, "Which deadlock policy rejects the locker with the fewest write locks?")
    assert outcome.status == "abstained", outcome.answer


STATISTICS = """
<h2>Lock statistics</h2>
<p>The st_partitions field is the number of lock table partitions.</p>
<p>The st_part_max_wait field is the maximum number of times that a thread of control was forced to
wait before obtaining any one lock partition mutex.</p>
<h2>Backing files</h2>
<p>By default, the backing source file is read lazily, that is, records are not read until they are
requested.</p>
<h2>Comparison</h2>
<p>In addition, when key prefix comparison is being performed (see DB->set_bt_prefix() for more
information), the comparison routine may be passed a prefix.</p>
"""


@pytest.mark.parametrize(
    "question",
    [
        "What is the maximum number of lock table partitions?",  # was "one lock" ("any one lock")
        "What is the default record delimiter for a backing source file?",  # was "read" ("is read lazily")
        "Which method sets the key prefix comparison routine?",  # was set_bt_prefix() from "(see ...)"
    ],
)
@pytest.mark.anyio
async def test_no_answer_from_words_that_only_look_like_one(tmp_path: Path, question: str) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Locking statistics", STATISTICS), question)
    assert outcome.status == "abstained", outcome.answer
