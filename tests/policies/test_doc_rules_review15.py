"""Review 15 (60 fresh questions over the SQLite, Git, Apache and Postfix pages of tests/data, written
by a helper and measured before anything was read): three wrong answers with real citations and a
default the rules missed, each class on an invented page."""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.policies._doc_questions import doc_question
from helpers.doc_pages import (
    ask,
    assert_answer,
    doc_answers,
    one_page,
    one_page_corpus,
    open_pages,
    page_corpus,
)

TUNING = """
<h2>Limits</h2>
<p>If one MX host is down and the default SMTP connection timeout is 30s, the throughput drops.</p>
<p>The smtpd_recipient_limit parameter (default: 1000) controls how many recipients the smtpd(8)
server will take per delivery.</p>
<p>The smtpd_junk_limit parameter (default: 100) controls how many junk commands a client may send.</p>
"""


@pytest.mark.anyio
async def test_how_many_takes_a_count_and_a_setting_described_after_its_default(tmp_path: Path) -> None:
    # Postfix answered "How many recipients ...?" with "30s", a timeout: an amount in another unit is
    # no count. The setting's own sentence was skipped for naming code the question does not.
    outcome = await ask(
        one_page_corpus(tmp_path / "pages", "Tuning", TUNING),
        "How many recipients will smtpd accept per message delivery by default?",
    )
    assert_answer(outcome, "1000")


def test_a_count_is_not_answered_by_a_duration(tmp_path: Path) -> None:
    answers = doc_answers(
        one_page(tmp_path / "pages", "Tuning", TUNING.replace("controls how many recipients", "limits")),
        "How many recipients will smtpd accept per message delivery by default?",
    )
    assert "30s" not in answers


def test_the_code_named_before_a_default_is_not_the_one_asked_unless_described(tmp_path: Path) -> None:
    # The description after the bracket must hold the question's words: the junk limit's does not.
    answers = doc_answers(
        one_page(tmp_path / "pages", "Tuning", TUNING),
        "How many recipients will smtpd accept per message delivery by default?",
    )
    assert answers[:1] == ["1000"] and "100" not in answers


TRANSACTIONS = """
<h2>Journal modes</h2>
<p>The default journaling mode is DELETE, which is the default behavior of older releases.</p>
<h2>Transaction behaviors</h2>
<p>Transactions can be DEFERRED, IMMEDIATE, or EXCLUSIVE. The default transaction behavior is DEFERRED.</p>
"""


def test_the_default_named_by_the_words_asked_outranks_one_sharing_a_word(tmp_path: Path) -> None:
    # Both scored alike (one asked word each: "behavior"), so the policy refused as unclear.
    answers = doc_answers(
        one_page(tmp_path / "pages", "Transaction", TRANSACTIONS),
        "What transaction behavior does a plain BEGIN use if none is specified?",
    )
    assert answers[:1] == ["DEFERRED"]


GC = """
<h2>Configuration</h2>
<dl>
<dt>gc.auto</dt>
<dd>When there are approximately more than this many loose objects in the repository, git gc --auto
will pack them. Some Porcelain commands use this command from time to time. The default value is
6700.</dd>
<dt>gc.autoPackLimit</dt>
<dd>When there are more than this many packs in the repository, git gc --auto consolidates them into
one larger pack. The default value is 50.</dd>
</dl>
"""


@pytest.mark.anyio
async def test_after_the_gate_refuses_the_best_default_a_worse_reading_is_not_offered(tmp_path: Path) -> None:
    # The gate refused "6700" (its quote names git gc --auto two sentences before the value, past a
    # sentence that does not continue it); the repair turn then answered "50", the packs' limit.
    question = "About how many loose objects trigger git gc --auto to pack them by default?"
    # A default sentence saying more than the value: the gate still refuses it, and the repair refuses.
    said_more = GC.replace(
        "The default value is\n6700.", "The default value is\n6700, counted by git count-objects."
    )
    outcome = await ask(one_page_corpus(tmp_path / "more", "git-gc(1)", said_more), question)
    assert_answer(outcome, None)
    # A default stated on its own closes the paragraph about gc.auto: the gate takes it (review 17).
    assert_answer(await ask(one_page_corpus(tmp_path / "pages", "git-gc(1)", GC), question), "6700")


REDIRECTS = """
<h2>DirectoryIndexRedirect Directive</h2>
<p>Syntax: DirectoryIndexRedirect on | off | permanent</p>
<p>The argument can be:</p>
<pre>
on: issues a 302 redirection to the index resource.
off: does not issue a redirection.
permanent: issues a 301 (permanent) redirection to the index resource.
</pre>
"""


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("value", "code"),
    [("on", "302"), ("permanent", "301")],
)
async def test_a_code_is_read_from_the_line_of_the_value_asked(tmp_path: Path, value: str, code: str) -> None:
    # Asked of "on", the policy answered 301, the code of the line labelled "permanent".
    outcome = await ask(
        one_page_corpus(tmp_path / "pages", "mod_dir", REDIRECTS),
        f'Which redirect status code does "DirectoryIndexRedirect {value}" issue?',
    )
    assert_answer(outcome, code)


DIRECTIVES = """
<h2>DirectoryCheckHandler Directive</h2>
<table class="directive">
<tr><th>Description:</th><td>Toggle how this module responds when another handler is configured</td></tr>
<tr><th>Compatibility:</th><td>Available in 2.4.8 and later.</td></tr>
</table>
<h2>UPSERT</h2>
<p>UPSERT syntax was added with version 3.24.0 (2018-06-04).</p>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # "release" was not read as "version": the question was of no kind the policy answers.
        ("Which httpd release first provides the DirectoryCheckHandler directive?", "2.4.8"),
        # ... and as a word of what changed, which the sentence does not say.
        ("In which release was UPSERT syntax first added?", "3.24.0"),
    ],
)
def test_a_release_is_a_version(tmp_path: Path, question: str, expected: str) -> None:
    assert doc_answers(one_page(tmp_path / "pages", "Directives", DIRECTIVES), question)[:1] == [expected]


def test_what_a_release_does_is_not_a_version_question() -> None:
    asked = doc_question("What does release do?", True)
    assert asked is not None and asked.kind != "version"


STATUSES = """
<h2>Timeouts</h2>
<p>If the client fails to send its request headers within the configured time, a 408 REQUEST TIME OUT
error is sent.</p>
<h2>Redirect Directive</h2>
<p>The status argument can be:</p>
<dl>
<dt>permanent</dt><dd>Returns a permanent redirect status (301) indicating that the resource has moved.</dd>
<dt>temp</dt><dd>Returns a temporary redirect status (302).</dd>
<dt>gone</dt><dd>Returns a "Gone" status (410) indicating that the resource has been removed.</dd>
</dl>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # A reason in capitals between the code and "error" ("408 REQUEST TIME OUT error"), and a code
        # in brackets after "status": neither was read as a code.
        ("What HTTP error is sent when the client fails to send its request headers in time?", "408"),
        # "What HTTP status ...?" was of no kind; the value the question quotes picks its own line.
        ('What HTTP status does a Redirect with the "gone" status return?', "410"),
        ('What HTTP status does a Redirect with the "temp" status return?', "302"),
    ],
)
def test_a_code_written_as_documentation_writes_it(tmp_path: Path, question: str, expected: str) -> None:
    assert doc_answers(one_page(tmp_path / "pages", "Redirects", STATUSES), question)[:1] == [expected]


LEFT_OUT = """
<h2>Foreign key actions</h2>
<p>The ON DELETE and ON UPDATE action associated with each foreign key is one of "NO ACTION",
"RESTRICT", "SET NULL", "SET DEFAULT" or "CASCADE". If an action is not explicitly specified, it
defaults to "NO ACTION".</p>
<h2>Generated columns</h2>
<p>Generated columns may be VIRTUAL or STORED. If the trailing "VIRTUAL" or "STORED" keyword is
omitted, then VIRTUAL is the default.</p>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # Saying a value is left out asks for the default: these were of no kind the policy answers.
        ("If a foreign key does not specify an ON DELETE or ON UPDATE action, which action is used?",
         '"NO ACTION"'),
        # ... and "X is the default" states one; "which kind" names no noun the sentence must hold.
        ("If a generated column doesn't say VIRTUAL or STORED, which kind does the database create?",
         "VIRTUAL"),
    ],
)  # fmt: skip
def test_a_value_left_out_asks_for_the_default(tmp_path: Path, question: str, expected: str) -> None:
    assert doc_answers(one_page(tmp_path / "pages", "Columns", LEFT_OUT), question)[:1] == [expected]


def test_the_words_saying_a_value_is_left_out_are_not_asked_of_the_sentence() -> None:
    asked = doc_question("If a generated column doesn't say VIRTUAL or STORED, which kind is created?", True)
    assert asked is not None and asked.kind == "default"
    assert "say" not in asked.words and "column" in asked.words
    # The noun of "no condition is given" is what the default is of: it stays.
    asked = doc_question("Which table does the Header directive use when no condition is given?", True)
    assert asked is not None and asked.kind == "default" and "condition" in asked.words


CLEANUP = """
<h2>Options</h2>
<dl>
<dt>--cleanup=&lt;mode&gt;</dt>
<dd>This option sets how the tag message is cleaned up. The mode can be one of verbatim, whitespace and
strip. The strip mode is default.</dd>
</dl>
"""


def test_a_default_named_by_its_kind(tmp_path: Path) -> None:
    # "The strip mode is default." stated no default any form read.
    answers = doc_answers(
        one_page(tmp_path / "pages", "git-tag(1)", CLEANUP),
        "Which --cleanup mode does git tag use for the tag message by default?",
    )
    assert answers[:1] == ["strip"]


SETTINGS = """
<h2>Virtual mailboxes</h2>
<p>Line 3: The virtual_mailbox_base parameter specifies a prefix for all virtual mailbox pathnames.</p>
<p>The masquerade_exceptions configuration parameter specifies what user names should not be
subjected to address masquerading.</p>
<h2>Hard-coded rewriting</h2>
<p>The Postfix trivial-rewrite(8) daemon implements the following hard-coded address manipulations:</p>
<blockquote>
<dl>
<dt>Rewrite "@hosta,@hostb:user@site" to "user@site"</dt>
<dd><p>In case you wonder what this is, the address form above is called a route address.</p></dd>
<dt>Rewrite "site!user" to "user@site"</dt>
<dd>This feature is controlled by the boolean swap_bangpath parameter. The purpose is to rewrite
UUCP-style addresses.</dd>
</dl>
</blockquote>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # The verb asking what a setting does ("sets", "lists") is not a word its description must say:
        # both were refused, their description saying "specifies".
        ("Which parameter sets a common prefix for all virtual mailbox pathnames?", "virtual_mailbox_base"),
        ("Which parameter lists user names that should be exempt from address masquerading?",
         "masquerade_exceptions"),
    ],
)  # fmt: skip
def test_a_setting_described_in_its_own_words(tmp_path: Path, question: str, expected: str) -> None:
    assert doc_answers(one_page(tmp_path / "pages", "Rewriting", SETTINGS), question)[:1] == [expected]


def test_a_phrase_or_a_function_word_names_no_setting(tmp_path: Path) -> None:
    # On the manual's own page: answered "The" (the first word of "The Postfix trivial-rewrite(8) daemon
    # implements the following ...:" read as a term), then "Rewrite" (of a term describing a rewrite).
    real = Path(__file__).parents[1] / "data" / "postfix_doc" / "html" / "ADDRESS_REWRITING_README.html"
    (tmp_path / "pages").mkdir()
    pages = open_pages(
        page_corpus(tmp_path / "pages", {"rewriting": real.read_text(encoding="utf-8")}), "rewriting"
    )
    answers = doc_answers(
        pages, 'Which parameter controls rewriting UUCP-style "site!user" addresses to "user@site"?'
    )
    assert "The" not in answers and "Rewrite" not in answers


TEXTWRAP = """
<dl>
<dt>max_lines</dt>
<dd>(default: None) If not None, then the output will contain at most max_lines lines, with placeholder
appearing at the end of the output.</dd>
</dl>
<h2>zlib</h2>
<dl>
<dt>zlib.adler32(data[, value])</dt>
<dd>Computes an Adler-32 checksum of data. If value is present, it is used as the starting value of
the checksum; otherwise, a default value of 1 is used.</dd>
</dl>
"""


def test_a_string_asked_is_not_none(tmp_path: Path) -> None:
    # Answered "None", max_lines' own default, for the string appended when max_lines truncates.
    answers = doc_answers(
        one_page(tmp_path / "pages", "textwrap", TEXTWRAP),
        "What string does textwrap append by default when output is truncated because of max_lines?",
    )
    assert "None" not in answers


def test_a_call_without_a_value_asks_for_its_default(tmp_path: Path) -> None:
    # "called without a starting value" was not read as a value left out: a question of no kind.
    answers = doc_answers(
        one_page(tmp_path / "pages", "zlib", TEXTWRAP),
        "If zlib.adler32() is called without a starting value, what initial value is used?",
    )
    assert answers[:1] == ["1"]


EXPIRES = """
<h2>Summary</h2>
<p>This module controls the setting of the Expires HTTP header and the max-age directive of the
Cache-Control HTTP header in server responses.</p>
<p>The Cache-Control: max-age is calculated by subtracting the request time from the expiration date and
expressing the result in seconds.</p>
"""


def test_a_unit_a_value_is_expressed_in(tmp_path: Path) -> None:
    # "expressing the result in seconds" was no form of a unit stated; the question was of a kind only a
    # question naming one code name had.
    answers = doc_answers(
        one_page(tmp_path / "pages", "Apache Module mod_expires", EXPIRES),
        "In what unit does mod_expires express the Cache-Control max-age value?",
    )
    assert answers[:1] == ["seconds"]


def test_of_two_names_the_unit_is_asked_of_the_last() -> None:
    asked = doc_question("In RequestReadTimeout, what unit is the MinRate value given in?", True)
    assert asked is not None and (asked.kind, asked.subject) == ("unit", "MinRate")


def test_a_unit_in_brackets(tmp_path: Path) -> None:
    page = "<dl><dt>MinRate</dt><dd>The timeout grows with the data rate (in bytes per second).</dd></dl>"
    answers = doc_answers(
        one_page(tmp_path / "pages", "RequestReadTimeout Directive", page),
        "In RequestReadTimeout, what unit is the MinRate value given in?",
    )
    assert answers[:1] == ["bytes per second"]


REFLOG = """
<dl>
<dt>gc.reflogExpire</dt>
<dd>git reflog expire removes reflog entries older than this time; defaults to 90 days.</dd>
<dt>gc.reflogExpireUnreachable</dt>
<dd>git reflog expire removes reflog entries older than this time and are not reachable from the current
tip; defaults to 30 days.</dd>
</dl>
"""


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # Refused as two answers: the second sentence is the first with a case the question does not ask.
        (
            "By default, how old do reflog entries have to be before git reflog expire removes them?",
            "90 days",
        ),
        # Asked of that case, its own sentence holds more of the question and wins outright.
        (
            "By default, how old do reflog entries not reachable from the current tip have to be before "
            "git reflog expire removes them?",
            "30 days",
        ),
    ],
)
async def test_a_default_of_a_narrower_case_does_not_rival_the_plain_one(
    tmp_path: Path, question: str, expected: str
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "git-gc(1)", REFLOG), question)
    assert_answer(outcome, expected)


@pytest.mark.anyio
async def test_a_page_saying_more_is_not_read_as_a_narrower_case(tmp_path: Path) -> None:
    # On two pages the longer sentence may correct the shorter one: still two answers, a refusal.
    (tmp_path / "pages").mkdir()
    first, second = REFLOG.split("<dt>gc.reflogExpireUnreachable</dt>")
    html = "<html><head><title>{0}</title></head><body><h1>{0}</h1>{1}</body></html>"
    pages = {
        "one": html.format("git-gc(1)", first + "</dl>"),
        "two": html.format("gc notes", "<dl>" + second),
    }
    outcome = await ask(
        page_corpus(tmp_path / "pages", pages),
        "By default, how old do reflog entries have to be before git reflog expire removes them?",
    )
    assert_answer(outcome, None)


VIRTUAL = """
<h2>Virtual alias domains</h2>
<p>Here is an example of a virtual alias domain "example.com":</p>
<pre>
1 /etc/postfix/main.cf:
2     virtual_alias_domains = example.com
3     virtual_alias_maps = hash:/etc/postfix/virtual
</pre>
<p>Execute the command "postmap /etc/postfix/virtual" after changing the virtual file.</p>
<dl>
<dt>See the documentation in LDAP_README and MYSQL_README for details.</dt>
<dd>Lookup tables other than hash files.</dd>
</dl>
<h2>Limits</h2>
<p>The maximum host parameter number is SQLITE_MAX_VARIABLE_NUMBER, which defaults to 999 for versions
prior to 3.32.0 (2020-05-22) or 32766 for versions after 3.32.0.</p>
"""


def test_a_setting_assigned_is_no_command_and_a_phrase_no_name(tmp_path: Path) -> None:
    # Wrong answers of a third fresh set (measured before they were read): "virtual_alias_maps" (the
    # setting a configuration line assigns), then, on the manual's own page, "See" and "Here" (the first
    # words of sentences read as terms) for a command.
    question = "Which command should I run after editing /etc/postfix/virtual?"
    assert "virtual_alias_maps" not in doc_answers(one_page(tmp_path / "pages", "Virtual", VIRTUAL), question)
    real = Path(__file__).parents[1] / "data" / "postfix_doc" / "html" / "VIRTUAL_README.html"
    (tmp_path / "real").mkdir()
    pages = open_pages(
        page_corpus(tmp_path / "real", {"virtual": real.read_text(encoding="utf-8")}), "virtual"
    )
    assert not {"See", "Here", "virtual_alias_maps"} & set(doc_answers(pages, question))


def test_a_default_said_of_some_versions_is_not_another_versions(tmp_path: Path) -> None:
    # "... defaults to 999 for versions prior to 3.32.0": read as today's default, asked after 3.32.0.
    answers = doc_answers(
        one_page(tmp_path / "pages", "Limits", VIRTUAL),
        "For versions after 3.32.0, what does SQLITE_MAX_VARIABLE_NUMBER default to?",
    )
    assert "999" not in answers


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # Asked which value gives a code: the label of the one line saying it (was refused).
        ('Which DirectoryIndexRedirect argument produces a 301 "permanent" redirect?', "permanent"),
        ("Which DirectoryIndexRedirect argument issues a 302 redirection?", "on"),
        # Nothing the question gives is said by one line only: no label answers.
        ("Which DirectoryIndexRedirect argument issues a 307 redirection?", None),
    ],
)
def test_the_value_whose_line_says_what_is_asked(tmp_path: Path, question: str, expected: str | None) -> None:
    answers = doc_answers(one_page(tmp_path / "pages", "mod_dir", REDIRECTS), question)
    assert answers[:1] == ([expected] if expected else [])


BZ2 = """
<dl>
<dt>class bz2.BZ2File(filename, mode='r', *, compresslevel=9)</dt>
<dd>Open a bzip2-compressed file in binary mode. BZ2File provides all of the members specified by the
io.BufferedIOBase, except for detach() and truncate(). If mode is 'w' or 'a', compresslevel can be an
integer between 1 and 9 specifying the level of compression: 1 produces the least compression, and 9
(default) produces the most compression.</dd>
</dl>
<h2>Temporary files</h2>
<p>The default value of the SQLITE_TEMP_STORE compile-time parameter is 1, which means to store temporary
files on disk but provide the option of overriding the behavior using the temp_store pragma.</p>
<h2>Rate limits</h2>
<p>If one MX host is down and the default SMTP connection timeout is 30s, the throughput drops.</p>
"""


@pytest.mark.parametrize(
    ("question", "absent", "expected"),
    [
        # Wrong answers of a fourth fresh set (measured before they were read):
        # "isn't given" was no value left out, and a level answered by a class name.
        ("What compression level does bz2.BZ2File use for writing if compresslevel isn't given?",
         "io.BufferedIOBase", "9"),
        ("Which compression level does bz2.BZ2File use for writing?", "io.BufferedIOBase", None),
        # "unless I change it" asks for the default; "temp_store" (a pragma the sentence names) is none.
        ("What value does the SQLITE_TEMP_STORE compile-time parameter have unless I change it?",
         "temp_store", "1"),
        # "the default SMTP connection timeout" is no time window.
        ("Over what time window are smtpd's rate limits counted by default?", "30s", None),
    ],
)  # fmt: skip
def test_review_d_wrong_answers(tmp_path: Path, question: str, absent: str, expected: str | None) -> None:
    answers = doc_answers(one_page(tmp_path / "pages", "bz2", BZ2), question)
    assert absent not in answers
    if expected is not None:
        assert answers[:1] == [expected]


def test_a_level_is_a_number_not_a_class(tmp_path: Path) -> None:
    # On the manual's own page: "What compression level does bz2.BZ2File use for writing?" was answered
    # "io.BufferedIOBase", the class a sentence of its description names.
    real = Path(__file__).parents[1] / "data" / "python_doc" / "html" / "library" / "bz2.html"
    (tmp_path / "real").mkdir()
    pages = open_pages(page_corpus(tmp_path / "real", {"bz2": real.read_text(encoding="utf-8")}), "bz2")
    answers = doc_answers(pages, "What compression level does bz2.BZ2File use for writing?")
    assert "io.BufferedIOBase" not in answers
