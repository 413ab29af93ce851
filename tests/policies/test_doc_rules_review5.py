"""A fifth review, on invented pages of a database server's manual ("Quillstore"), found wrong answers;
each is a case here that failed before its fix.

Defaults: an adverb read as the value ("The default is typically 100 connections"); another
parameter's default in the same sentence ("The default for archive_mode is off; archive_command
defaults to ..."); today's default given for a question about an older version ("What was the
default ... before version 9.5?").

Names: a parameter's term typed "(integer)" answering "which program" or, read as a call, "which
function"; the name a sentence says replaces the thing ("replaced by flusher_delay ... and is
ignored") answering which thing is ignored.
"""

from __future__ import annotations

import pytest
from citeloop.events import Page
from helpers.doc_pages import doc_answers, one_page

SETTINGS = """
<h2>Connections</h2>
<dl>
<dt><code>max_sessions</code> (integer)</dt>
<dd><p>Determines the maximum number of concurrent connections to the database server. The default is
typically 100 connections, but might be less if your kernel settings will not support it.</p></dd>
<dt><code>unix_socket_directory</code> (string)</dt>
<dd><p>Specifies the directory of the socket. The default is normally <code>/tmp</code>, but that can be
changed at build time.</p></dd>
</dl>
<h2>Archiving</h2>
<dl>
<dt><code>archive_command</code> (string)</dt>
<dd><p>The command that archives a finished journal segment. The default for <code>archive_mode</code> is
<code>off</code>; <code>archive_command</code> defaults to an empty string, which disables archiving.</p></dd>
<dt><code>journal_level</code> (enum)</dt>
<dd><p>How much is written to the journal. The default value is <code>replica</code>.</p>
<p>In releases prior to 10, the default was <code>minimal</code>.</p></dd>
</dl>
<h2>qsctl</h2>
<dl><dt><code>-m <var>mode</var></code></dt>
<dd><p>Specifies the shutdown mode. The default is <code>fast</code>. Before version 9.5 the default was
<code>smart</code>.</p></dd></dl>
"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    return one_page(tmp_path_factory.mktemp("review5") / "quill", "Quillstore settings", SETTINGS)


def test_an_adverb_before_the_default_is_not_the_value(pages: list[Page]) -> None:
    # must fail: "typically" and "normally" were the answers
    assert doc_answers(pages, "What is the default max_sessions?")[:1] == ["100"]
    assert doc_answers(pages, "What is the default unix_socket_directory?")[:1] == ["/tmp"]


def test_the_default_of_another_parameter_named_in_the_form_is_no_answer(pages: list[Page]) -> None:
    # must fail: "off", archive_mode's default, answered archive_command's
    assert "off" not in doc_answers(pages, "What is the default archive_command?")
    assert "off" not in doc_answers(pages, "What is the default for archive_command?")
    assert doc_answers(pages, "What is the default journal_level?")[:1] == ["replica"]


@pytest.mark.parametrize(
    "question",
    [
        "What was the default shutdown mode of qsctl -m before version 9.5?",
        "What was the default journal_level in version 9?",
        "What is the default journal_level prior to release 10?",
    ],
)
def test_a_question_about_an_older_versions_default_is_not_answered_with_todays(
    pages: list[Page], question: str
) -> None:
    # must fail: "fast" and "replica", today's defaults
    assert doc_answers(pages, question) == []


REPLICATION = """
<h2>Sending servers</h2>
<dl>
<dt><code>max_senders</code> (integer)</dt>
<dd><p>Specifies the maximum number of concurrent connections from standby servers or streaming base
backup clients.</p></dd>
<dt><code>flusher_sleep_ms</code> (integer)</dt>
<dd><p><strong>Deprecated.</strong> This parameter was replaced by <code>flusher_delay</code> in
version 12 and is ignored.</p></dd>
</dl>
<h2>String functions</h2>
<p>The older function <code>substr_index()</code> is deprecated and will be removed; use
<code>strpos()</code> instead.</p>
"""


@pytest.fixture(scope="module")
def replication(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    return one_page(tmp_path_factory.mktemp("review5-names") / "quill", "Replication", REPLICATION)


def test_a_typed_parameter_term_is_no_program_and_no_function(replication: list[Page]) -> None:
    # must fail: "max_senders" (its term "max_senders (integer)" read as a call) and "flusher_sleep_ms"
    assert "max_senders" not in doc_answers(replication, "Which program serves base backup clients?")
    assert "flusher_sleep_ms" not in doc_answers(replication, "Which function is deprecated?")
    assert doc_answers(replication, "Which parameter serves standby servers and base backup clients?")[
        :1
    ] == ["max_senders"]


def test_what_replaces_a_thing_is_not_the_thing(replication: list[Page]) -> None:
    # must fail: "flusher_delay" and "strpos()", the replacements
    assert "flusher_delay" not in doc_answers(replication, "Which parameter is ignored since version 12?")
    assert "strpos()" not in doc_answers(replication, "Which function is deprecated and will be removed?")
    # asked for the replacement, it answers
    assert doc_answers(replication, "Which function should be used instead of substr_index()?") == [
        "strpos()"
    ]
    assert doc_answers(replication, "Which parameter replaced flusher_sleep_ms in version 12?") == [
        "flusher_delay"
    ]
