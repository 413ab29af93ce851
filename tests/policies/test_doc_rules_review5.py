"""A fifth review, on invented pages of a database server's manual ("Quillstore"), found wrong answers;
each is a case here that failed before its fix.

Defaults: an adverb read as the value ("The default is typically 100 connections"); another
parameter's default in the same sentence ("The default for archive_mode is off; archive_command
defaults to ..."); today's default given for a question about an older version ("What was the
default ... before version 9.5?").

Names: a parameter's term typed "(integer)" answering "which program" or, read as a call, "which
function"; the name a sentence says replaces the thing ("replaced by flusher_delay ... and is
ignored") answering which thing is ignored; a capitalised description word ("Sends") answering
"which qsctl subcommand" on the general path. Counts: a sentence under the Release 14.1 heading
answering how many fixes release 14.2 contains. One rule came with them: a row of a function table
with a "Return type" column says what its function returns ("Number of characters in string").
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.events import Page
from citeloop.policies._doc_questions import doc_question
from helpers.doc_pages import ask, doc_answers, one_page, one_page_corpus

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


def test_a_case_the_sentence_does_not_state_is_no_default(pages: list[Page]) -> None:
    # must fail: "100", the default of every server, for a case the page never mentions
    assert doc_answers(pages, "What is the default max_sessions on a standby server?") == []
    assert doc_answers(pages, "What is the default max_sessions on a database server?")[:1] == ["100"]


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


RELEASES = """
<h2>E.1. Release 14.2</h2>
<p><strong>Release date:</strong> 2024-02-08</p>
<p>This release fixes a crash in qsdump.</p>
<h2>E.2. Release 14.1</h2>
<p>This release contains 31 bug fixes and two security fixes.</p>
<h2>qsctl</h2>
<table><tr><th>Subcommand</th><th>Description</th></tr>
<tr><td><code>reload</code></td>
<td>Sends the server a SIGHUP signal, causing it to reread its configuration files</td></tr>
<tr><td><code>status</code></td><td>Checks for a running server in the specified data directory</td></tr>
</table>
<h2>String functions</h2>
<table><tr><th>Function</th><th>Return type</th><th>Description</th></tr>
<tr><td><code>char_length(string)</code></td><td><code>integer</code></td>
<td>Number of characters in string</td></tr>
<tr><td><code>rtrim(string)</code></td><td><code>text</code></td>
<td>Removes the spaces at the end of string</td></tr>
</table>
"""


@pytest.fixture(scope="module")
def releases(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    return one_page(tmp_path_factory.mktemp("review5-releases") / "quill", "Release notes", RELEASES)


def test_a_count_asked_of_one_release_is_not_read_under_another(releases: list[Page]) -> None:
    # must fail: "31 bug", said under Release 14.1
    assert doc_answers(releases, "How many bug fixes does release 14.2 contain?") == []
    assert doc_answers(releases, "How many bug fixes does release 14.1 contain?")[:1] == ["31 bug"]


def test_a_subcommand_question_is_a_documentation_question(releases: list[Page]) -> None:
    # must fail: the general path answered "Sends", the capitalised first word of the description
    asked = doc_question("Which qsctl subcommand causes the server to reread its configuration files?", True)
    assert asked is not None and asked.noun == "subcommand"
    assert "Sends" not in doc_answers(releases, asked.text)


def test_a_function_table_row_says_what_its_function_returns(releases: list[Page]) -> None:
    # must fail: refused, the row never says "returns"
    found = doc_answers(releases, "Which function returns the number of characters in a string?")
    assert found[:1] == ["char_length(string)"]
    # must fail: refused, "return type" named no column by the question's words
    assert doc_answers(releases, "What is the return type of char_length?") == ["integer"]
    assert doc_answers(releases, "What is the return type of rtrim?") == ["text"]
    # a description opening with a verb says what the function does, not what it returns
    assert doc_answers(releases, "Which function returns the spaces at the end of a string?") == []


MEMORY = """
<h2>Memory</h2>
<dl>
<dt><code>sort_arena_size</code> (integer)</dt>
<dd><p>Sets the base maximum amount of memory used by a sort. If this value is specified without units, it
is taken as kilobytes. The default value is four megabytes (<code>4MB</code>).</p>
<p>Hash-based operations may use <code>sort_arena_size</code> multiplied by <code>hash_multiplier</code>
(default 2.0) of memory.</p></dd>
<dt><code>writer_delay</code> (integer)</dt>
<dd><p>Specifies how often the writer flushes, in time terms. default: 200ms.</p></dd>
</dl>
<h2>SSL</h2>
<table><tr><th>Name</th><th>Type</th><th>Default</th><th>Description</th></tr>
<tr><td><code>ssl_min_version</code></td><td>enum</td>
<td><code>TLSv1.2</code></td><td>Minimum version.</td></tr>
<tr><td><code>ssl_max_version</code></td><td>enum</td><td>(empty)</td><td>Maximum version.</td></tr>
</table>
"""


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    return one_page(tmp_path_factory.mktemp("review5-memory") / "quill", "Resource consumption", MEMORY)


def test_a_bracketed_default_belongs_to_the_name_right_before_it(memory: list[Page]) -> None:
    # must fail: "2.0", hash_multiplier's default, rivalled sort_arena_size's and the run refused
    found = doc_answers(memory, "What is the default sort_arena_size?")
    assert found[:1] == ["four megabytes (4MB)"] and "2.0" not in found
    assert doc_answers(memory, "What is the default hash_multiplier?")[:1] == ["2.0"]


def test_a_default_label_after_the_description(memory: list[Page]) -> None:
    # must fail: refused, "default: 200ms" is in no bracket
    assert doc_answers(memory, "What is the default writer_delay?")[:1] == ["200ms"]


def test_the_default_column_of_a_parameters_row(memory: list[Page]) -> None:
    # must fail: refused, the row never says "default"
    assert doc_answers(memory, "What is the default ssl_min_version?") == ["TLSv1.2"]
    assert doc_answers(memory, "What is the default ssl_max_version?") == ["(empty)"]


@pytest.mark.anyio
async def test_a_default_column_is_accepted_end_to_end(tmp_path: Path) -> None:
    corpus = one_page_corpus(tmp_path / "pages", "Resource consumption", MEMORY)
    outcome = await ask(corpus, "What is the default ssl_min_version?")
    # must fail: the gate rejected the row as "does not say it is the default", and the run abstained
    assert (outcome.status, outcome.answer) == ("answered", "TLSv1.2")
    assert outcome.evidence == "ssl_min_version\tenum\tTLSv1.2\tMinimum version."


VERSIONS = """
<h2>Parameters</h2>
<dl>
<dt><code>hash_multiplier</code> (floating point)</dt>
<dd><p>Used to compute the memory of hash operations. Available since version 13.</p></dd>
<dt><code>reserved_slots</code> (integer)</dt>
<dd><p>Slots kept for administrators. Available since version 14.</p></dd>
</dl>
<h2>Functions</h2>
<p>The function <code>string_to_list</code> was added in version 12; in earlier versions use
<code>regexp_split</code>. <code>starts_with</code> is available since version 11.</p>
<p>The dane level of <code>tls_level</code> is available since version 15.</p>
"""


@pytest.fixture(scope="module")
def versions(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    return one_page(tmp_path_factory.mktemp("review5-versions") / "quill", "Quillstore manual", VERSIONS)


@pytest.mark.parametrize(
    ("question", "version"),
    [
        ("Since which version is hash_multiplier available?", "13"),
        ("Since which version is reserved_slots available?", "14"),
        ("In which version was string_to_list added?", "12"),
        ("Since which version is starts_with available?", "11"),
    ],
)
def test_a_manual_without_a_product_name_says_when_the_thing_came(
    versions: list[Page], question: str, version: str
) -> None:
    # must fail: refused, no "New in version N" note and no product named before the number
    assert doc_answers(versions, question)[:1] == [version]


def test_the_version_of_another_subject_or_a_feature_is_no_answer(versions: list[Page]) -> None:
    assert doc_answers(versions, "Since which version is tls_level available?") == []  # the dane level's
    assert doc_answers(versions, "Since which version does hash_multiplier support fractions?") == []


def test_a_function_row_says_what_it_does_and_returns(releases: list[Page]) -> None:
    # must fail: refused, a row is no term with a description under it
    assert doc_answers(releases, "What does char_length return?") == ["Number of characters in string"]
    assert doc_answers(releases, "What does the rtrim function do?") == [
        "Removes the spaces at the end of string"
    ]
    # a description opening with another verb says what the function does, not what it returns
    assert doc_answers(releases, "What does rtrim return?") == []
