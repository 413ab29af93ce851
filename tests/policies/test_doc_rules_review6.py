"""A sixth review, on invented pages of a database server's SQL command reference and settings
("Brackwater"), found wrong answers; each is a case here that failed before its fix.

Defaults: a question naming no code took the default a description states under another term
("The default is double-quote." under QUOTE, asked of ESCAPE); a default given per case ("\\N in text
format, and an empty string in csv format") answered the other case; a list default was cut at its
first comma ('"$user", public').

Names: a parameter named inside another term's subjectless description ("Controls whether ... longer
than deadlock_check_interval") answered "which parameter" instead of the term described; a term
answered a question that spells out another term's name in words ("the cost limit" of
compact_cost_limit); "How many widgets can a schema have?" took "A table can have at most 32
widgets"; a table row answered though it lacks a word of the question ("disk space used by
a table" from "Disk space used by the widget"); a word set aside by "other than" counted as said.

Locks: "Which lock does ALTER WIDGET acquire on the widget?" went to the prose path, which took the
longest capitalised run ("SHARE UPDATE EXCLUSIVE", the table's lock); a lock taken on another object
("on the underlying table") answered a question about the lock on the widget.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.events import Page
from citeloop.policies._doc_questions import doc_question
from helpers.doc_pages import ask, doc_answers, one_page, one_page_corpus

TRANSFER = """
<h2>Parameters</h2>
<dl>
<dt><code>NULL</code></dt>
<dd><p>Specifies the string that represents a null value. The default is <code>\\N</code> (backslash-N) in
text format, and an unquoted empty string in <code>csv</code> format.</p></dd>
<dt><code>FORMAT</code></dt>
<dd><p>Selects the data format to be read or written. The default is text.</p></dd>
<dt><code>QUOTE</code></dt>
<dd><p>Specifies the quoting character to be used when a data value is quoted. The default is
double-quote.</p></dd>
<dt><code>search_order</code> (string)</dt>
<dd><p>The order in which schemas are searched. The default value for this parameter is
<code>"$user", public</code>.</p></dd>
</dl>
"""


@pytest.fixture(scope="module")
def transfer(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    return one_page(tmp_path_factory.mktemp("review6") / "brack", "TRANSFER", TRANSFER)


def test_a_default_under_another_term_does_not_answer_a_question_naming_no_code(
    transfer: list[Page],
) -> None:
    # must fail: "double-quote" (QUOTE's) and "\\N" (NULL's) answered the ESCAPE questions
    assert doc_answers(transfer, "What is the default ESCAPE character for TRANSFER?") == []
    assert doc_answers(transfer, "What is the default escape string for TRANSFER?") == []
    assert doc_answers(transfer, "What is the default QUOTE character for TRANSFER?")[:1] == ["double-quote"]


def test_a_default_given_for_another_case_is_no_answer(transfer: list[Page]) -> None:
    # must fail: "\\N", the text format's
    assert "\\N" not in doc_answers(transfer, "What is the default NULL string in csv format?")
    assert doc_answers(transfer, "What is the default NULL string in text format?")[:1] == ["\\N"]
    # the case a default is asked in names no term: FORMAT's "text" is not the csv delimiter
    assert doc_answers(transfer, "What is the default delimiter in csv format?") == []
    assert doc_answers(transfer, "What is the default format for TRANSFER?")[:1] == ["text"]


def test_a_list_default_is_the_whole_list(transfer: list[Page]) -> None:
    # must fail: '"$user"', the list's first item
    assert doc_answers(transfer, "What is the default search_order?")[:1] == ['"$user", public']


COMPACTION = """
<h2>Compaction</h2>
<dl>
<dt><code>log_lock_waits</code> (boolean)</dt>
<dd><p>Controls whether a log message is produced when a session waits longer than
<code>deadlock_check_interval</code> to acquire a lock.</p></dd>
<dt><code>deadlock_check_interval</code> (integer)</dt>
<dd><p>The time to wait on a lock before checking for a deadlock.</p></dd>
<dt><code>autocompact_cost_delay</code> (floating point)</dt>
<dd><p>Specifies the cost delay value that will be used in automatic <code>COMPACT</code> operations.</p></dd>
<dt><code>compact_cost_delay</code> (integer)</dt>
<dd><p>The time the compacting process sleeps.</p></dd>
<dt><code>--jobs=parallel_workers</code></dt>
<dd><p>Runs parallel workers.</p></dd>
<dt><code>compact_cost_limit</code> (integer)</dt>
<dd><p>This is the accumulated cost that will cause the compacting process to sleep.</p></dd>
<dt><code>autocompact_max_workers</code> (integer)</dt>
<dd><p>Specifies the maximum number of autocompact processes (other than the autocompact launcher) that may
be running at any one time.</p></dd>
</dl>
<h2>Size functions</h2>
<table><tr><th>Function</th><th>Return type</th><th>Description</th></tr>
<tr><td><code>widget_size(name text)</code></td><td><code>bigint</code></td>
<td>Disk space used by the widget, in bytes</td></tr>
</table>
"""


@pytest.fixture(scope="module")
def compaction(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    return one_page(tmp_path_factory.mktemp("review6-names") / "brack", "Compaction", COMPACTION)


def test_a_name_inside_a_terms_description_is_not_the_setting_described(compaction: list[Page]) -> None:
    question = "Which parameter controls whether a log message is produced when a session waits for a lock?"
    # must fail: "deadlock_check_interval", named inside log_lock_waits's description
    assert doc_answers(compaction, question)[:1] == ["log_lock_waits"]


def test_a_term_the_question_spells_out_is_the_only_answer(compaction: list[Page]) -> None:
    # must fail: "autocompact_cost_delay", whose sentence holds every other word
    question = "Which parameter specifies the cost limit used in automatic COMPACT operations?"
    assert "autocompact_cost_delay" not in doc_answers(compaction, question)
    # a name holding the spelled one is spelled too: autocompact_cost_delay holds compact_cost_delay
    asked = "Which parameter specifies the cost delay value used in automatic COMPACT operations?"
    assert doc_answers(compaction, asked)[:1] == ["autocompact_cost_delay"]


def test_a_table_row_must_hold_every_word_of_the_question(compaction: list[Page]) -> None:
    # must fail: "widget_size" answered for a table's disk space
    assert doc_answers(compaction, "Which function returns the disk space used by a table?") == []
    assert doc_answers(compaction, "Which function returns the disk space used by a widget?")[:1] == [
        "widget_size"
    ]


def test_a_word_set_aside_by_other_than_is_not_said(compaction: list[Page]) -> None:
    question = "Which parameter specifies the maximum number of autocompact launcher processes?"
    # must fail: autocompact_max_workers, whose sentence excludes the launcher
    assert "autocompact_max_workers" not in doc_answers(compaction, question)
    found = doc_answers(compaction, "Which parameter specifies the maximum number of autocompact processes?")
    assert found[:1] == ["autocompact_max_workers"]


def test_a_count_of_another_container_is_no_answer(tmp_path_factory: pytest.TempPathFactory) -> None:
    pages = one_page(
        tmp_path_factory.mktemp("review6-counts") / "brack",
        "CREATE WIDGET",
        "<p>A table can have at most 32 widgets.</p>",
    )
    # must fail: "32 widgets", a table's
    assert doc_answers(pages, "How many widgets can a schema have?") == []
    assert doc_answers(pages, "How many widgets can a table have?")[:1] == ["32 widgets"]


LOCKS = """
<h2>Notes</h2>
<p><code>CREATE WIDGET</code> takes a <code>SHARE ROW EXCLUSIVE</code> lock on the underlying table, which
blocks concurrent data changes.</p>
<p><code>ALTER WIDGET</code> acquires an <code>ACCESS EXCLUSIVE</code> lock on the widget, but only a
<code>SHARE UPDATE EXCLUSIVE</code> lock on the underlying table.</p>
<p><code>TRANSFER FROM</code> takes a <code>ROW EXCLUSIVE</code> lock on the target table.
<code>TRANSFER TO</code> takes an <code>ACCESS SHARE</code> lock.</p>
<p><code>REBUILD ONLINE</code> takes only a <code>SHARE UPDATE EXCLUSIVE</code> lock on the table.</p>
<p>Plain <code>COMPACT</code> acquires a <code>SHARE UPDATE EXCLUSIVE</code> lock on each table.</p>
"""


@pytest.fixture(scope="module")
def locks(tmp_path_factory: pytest.TempPathFactory) -> list[Page]:
    return one_page(tmp_path_factory.mktemp("review6-locks") / "brack", "ALTER WIDGET", LOCKS)


def test_a_lock_question_about_a_command_in_capitals_is_a_documentation_question() -> None:
    for question in (
        "Which lock does ALTER WIDGET acquire on the widget?",
        "What lock does ALTER WIDGET take?",
    ):
        asked = doc_question(question, True)
        # must fail: None, the prose path's question
        assert asked is not None and (asked.kind, asked.noun) == ("keyword", "lock")


def test_the_lock_on_the_object_asked_about(locks: list[Page]) -> None:
    # must fail: "SHARE UPDATE EXCLUSIVE" (the table's), and "SHARE ROW EXCLUSIVE" for the widget
    assert doc_answers(locks, "Which lock does ALTER WIDGET acquire on the widget?")[:1] == [
        "ACCESS EXCLUSIVE"
    ]
    assert doc_answers(locks, "Which lock does CREATE WIDGET take on the widget?") == []
    assert doc_answers(locks, "Which lock does CREATE WIDGET take on the underlying table?")[:1] == [
        "SHARE ROW EXCLUSIVE"
    ]


@pytest.mark.anyio
async def test_a_question_for_several_names_over_a_manual_is_refused(tmp_path: Path) -> None:
    options = (
        "<h2>Options</h2><dl><dt>-f</dt><dd><p>Runs a full compaction.</p></dd><dt>-P</dt>"
        "<dd><p>Uses parallel workers.</p></dd></dl><p>The -f and -P options cannot be used together,"
        " because COMPACT FULL does not support parallel workers.</p>"
    )
    corpus = one_page_corpus(tmp_path / "pages", "brackcompact", options)
    outcome = await ask(corpus, "Which brackcompact options cannot be used together?")
    # must fail: "COMPACT FULL", the prose path's one capitalised run
    assert outcome.status == "abstained", outcome.answer


def test_a_command_of_several_words_is_named_whole(locks: list[Page]) -> None:
    # must fail: refused - "to" and "from" are no words the overlap reads, so both sentences rivalled,
    # and "takes" counted as a word of what is asked about
    assert doc_answers(locks, "Which lock does TRANSFER TO take?") == ["ACCESS SHARE"]
    assert doc_answers(locks, "Which lock does TRANSFER FROM take?") == ["ROW EXCLUSIVE"]


def test_a_lock_named_on_every_opened_page_may_answer(tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = tmp_path_factory.mktemp("review6-every")
    pages = [
        one_page(folder / name, name, f"<p><code>{name}</code> takes an ACCESS SHARE lock.</p>")[0]
        for name in ("TRANSFER TO", "TRANSFER OUT", "REBUILD")
    ]
    # must fail: "ACCESS SHARE" was set aside as the product every opened page names
    assert doc_answers(pages, "Which lock does TRANSFER TO take?")[:1] == ["ACCESS SHARE"]


def test_a_variant_of_the_command_or_another_object_is_no_answer(locks: list[Page]) -> None:
    # must fail: "SHARE UPDATE EXCLUSIVE", REBUILD ONLINE's lock, and the lock COMPACT takes on each table
    assert doc_answers(locks, "Which lock does a standard REBUILD take on the table?") == []
    assert doc_answers(locks, "Which lock does COMPACT take on the table's indexes?") == []
    assert doc_answers(locks, "Which lock does REBUILD ONLINE take on the table?") == [
        "SHARE UPDATE EXCLUSIVE"
    ]
    assert doc_answers(locks, "What lock does plain COMPACT acquire?") == ["SHARE UPDATE EXCLUSIVE"]


OPTIONS = """
<h2>Parameters</h2>
<dl>
<dt><code>FULL</code></dt>
<dd><p>Selects full compaction, which can reclaim more space. It takes much longer.</p></dd>
<dt><code>VERBOSE</code></dt>
<dd><p>Prints a detailed compaction activity report for each table.</p></dd>
</dl>
"""


def test_an_option_named_by_its_word_is_read_under_its_term(tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = tmp_path_factory.mktemp("review6-options")
    compact = one_page(folder / "compact", "COMPACT", OPTIONS)
    other = one_page(
        folder / "survey",
        "SURVEY",
        "<h2>Parameters</h2><dl><dt><code>VERBOSE</code></dt><dd><p>Prints progress messages.</p></dd></dl>",
    )
    # must fail: refused, "option" was read as the name of the term
    assert doc_answers(compact, "What does the FULL option of COMPACT do?") == [
        "Selects full compaction, which can reclaim more space"
    ]
    pages = [*compact, *other]
    assert doc_answers(pages, "What does the VERBOSE option of COMPACT do?") == [
        "Prints a detailed compaction activity report for each table"
    ]
    # another command's page: its VERBOSE says nothing of COMPACT's
    assert doc_answers(pages, "What does the VERBOSE option of SURVEY do?") == ["Prints progress messages"]
    assert doc_answers(other, "What does the VERBOSE option of COMPACT do?") == []
