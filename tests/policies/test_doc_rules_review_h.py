"""Review H (2026-12-05): its four wrong answers, each a default read for something the question does
not ask; and a manual page's command counted for a sentence that calls a name by the noun asked
(review E). Each class on invented pages, with what the question does ask still answered."""

from __future__ import annotations

from pathlib import Path

from helpers.doc_pages import doc_answers, one_page

REWRITE = """
<h2>CONFIGURATION</h2>
<dl>
<dt>tidy.rewrite.&lt;command&gt;</dt>
<dd><p>When rewriting drafts with &lt;command&gt;, if this variable is false, tidy will not copy
labels from the original to the rewritten draft. Defaults to true.</p></dd>
<dt>tidy.rewriteMode</dt>
<dd><p>When copying labels during a rewrite, what to do if the target draft already has a label.
Defaults to merge.</p></dd>
</dl>
"""


def test_a_state_does_not_say_what_a_program_does(tmp_path: Path) -> None:
    # Review H (git notes): "Defaults to true." answered what Git does when a note is already there.
    answers = doc_answers(
        one_page(tmp_path / "pages", "tidy-labels", REWRITE),
        "When labels are copied during a rewrite and the target draft already has one, what does tidy do"
        " by default?",
    )
    assert "true" not in answers


def test_a_state_still_answers_whether_a_setting_is_on(tmp_path: Path) -> None:
    answers = doc_answers(
        one_page(tmp_path / "pages", "tidy-labels", REWRITE),
        "Does tidy copy labels to rewritten drafts by default?",
    )
    assert answers[:1] == ["true"]


EXPIRY = """
<h2>CONFIGURATION</h2>
<p>Drafts left by an amend are rarely wanted, so most users will want to expire them sooner, which is
why the default is more aggressive than tidy.expire.</p>
"""


def test_a_comparison_is_no_default_value(tmp_path: Path) -> None:
    # Review H (git gc): "the default is more aggressive than gc.reflogExpire" read as the default "more".
    answers = doc_answers(
        one_page(tmp_path / "pages", "tidy-expire", EXPIRY),
        "What does tidy do by default with amended drafts?",
    )
    assert "more" not in answers


RETRY = """
<h2>Tuning</h2>
<p>If one relay is down and the default relay connection timeout is 30s, the throughput is six
messages per second.</p>
<p>The queue manager waits at most maximal_retry_time (default: 4000 seconds) between attempts.</p>
"""


def test_a_default_named_by_another_noun_is_that_nouns(tmp_path: Path) -> None:
    # Review H (Postfix): "the default SMTP connection timeout is 30s" answered the default maximum
    # time between delivery attempts.
    answers = doc_answers(
        one_page(tmp_path / "pages", "tuning", RETRY),
        "What is the default maximum time the relay waits between delivery attempts for a message?",
    )
    assert "30s" not in answers


CHECKPOINTS = """
<h2>Journal modes</h2>
<p>A new database connection defaults to journal_mode=ROLLBACK.</p>
<h2>Checkpoints</h2>
<p>The default checkpoint mode is LAZY, which never blocks a writer.</p>
"""


def test_the_word_saying_which_kind_is_said_where_the_default_is(tmp_path: Path) -> None:
    # Review H (SQLite WAL): "defaults to journal_mode=DELETE" answered which checkpoint mode is the default.
    answers = doc_answers(
        one_page(tmp_path / "pages", "journal", CHECKPOINTS), "Which checkpoint mode is the default one?"
    )
    assert answers[:1] == ["LAZY"]
    assert "journal_mode=ROLLBACK" not in answers
    assert "ROLLBACK" not in answers


LEVELS = """
<dl>
<dt>squash.compress(data, /, level=-1, wbits=MAX_WBITS)</dt>
<dd><p>Compresses the bytes in data. level is an integer from 0 to 9 or -1 controlling the level of
compression. The default value is -1 (DEFAULT_LEVEL). DEFAULT_LEVEL represents a default compromise
between speed and compression (currently equivalent to level 4).</p>
<p>The wbits argument controls the size of the history buffer. It can take several ranges of values,
defaulting to 15 (MAX_WBITS):</p></dd>
</dl>
"""


def test_a_default_the_question_already_states_is_not_what_it_asks(tmp_path: Path) -> None:
    # Review H (zlib): "uses level -1 by default; which numeric level ...?" answered with wbits's 15.
    answers = doc_answers(
        one_page(tmp_path / "pages", "squash", LEVELS),
        "squash.compress uses level -1 by default; which numeric compression level does that currently"
        " correspond to?",
    )
    assert "15" not in answers


SORTING = """
<h2>OPTIONS</h2>
<p>Sort order defaults to the value configured for the tag.order variable if it exists, or name order
otherwise.</p>
<p>Column layout defaults to the value configured for the tag.layout variable.</p>
"""


def test_a_manual_pages_command_helps_a_sentence_naming_the_noun_asked(tmp_path: Path) -> None:
    # Review E (git tag): "Sort order defaults to the value configured for the tag.sort variable ..."
    # holds two words of "sets the default sort order when git tag lists tags"; git tag is the page's
    # command, which the question names.
    answers = doc_answers(
        one_page(tmp_path / "pages", "brew-tag(1) Manual Page", SORTING),
        "Which configuration variable sets the default sort order when brew tag lists tags?",
    )
    assert answers[:1] == ["tag.order"]


def test_the_command_does_not_stand_for_what_a_sentence_says(tmp_path: Path) -> None:
    # The layout sentence holds one word of its own ("column"): the page's command says where the
    # sentence is, not what it says, so it does not make up the other two.
    answers = doc_answers(
        one_page(tmp_path / "pages", "brew-tag(1) Manual Page", SORTING),
        "Which configuration variable sets the column width when brew tag lists tags?",
    )
    assert "tag.layout" not in answers
