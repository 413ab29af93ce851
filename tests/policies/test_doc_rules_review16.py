"""Review sets C, D and E (fresh questions over the documentation corpora, measured before reading):
the rules that answer a literal the page quotes, read a user's word as the manual's, and keep a
setting out of a "which command" answer, each class on an invented page."""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.policies._doc_match import overlap
from citeloop.policies._doc_questions import doc_question
from citeloop.policies._doc_synonyms import related
from citeloop.policies._sentences import stem
from helpers.doc_pages import ask, assert_answer, doc_answers, one_page, one_page_corpus

ARGUMENT = (
    "What single argument to DirectoryListing prevents mod_listing from looking for a listing file at all?"
)
INDEXING = """
<h2>DirectoryListing</h2>
<p>The DirectoryListing directive names the files to show when a folder is requested.</p>
<p>A single argument of "off" prevents mod_listing from looking for a listing file.</p>
<p>Search the given "type:map" lookup map with the request path for a listing.</p>
<p>The function hexcode() returns the string "?00" when its argument is empty.</p>
<p>When the disk cache is on while mounting, a missing "sync=1" option can damage data.</p>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (ARGUMENT, "off"),
        ("What string does hexcode() return when its argument is empty?", "?00"),
        ("Which mount option, if missing while the disk cache is on, can damage data?", "sync=1"),
    ],
)
def test_the_one_value_a_matching_sentence_quotes(tmp_path: Path, question: str, expected: str) -> None:
    # No extractor of these kinds reads a quoted literal; each was refused although its page was open.
    assert doc_answers(one_page(tmp_path / "pages", "Listing", INDEXING), question)[:1] == [expected]


@pytest.mark.anyio
async def test_a_quoted_value_answers_through_the_gate(tmp_path: Path) -> None:
    outcome = await ask(
        one_page_corpus(tmp_path / "pages", "Listing", INDEXING),
        ARGUMENT,
    )
    assert_answer(outcome, "off")


def test_a_quote_naming_another_thing_is_no_answer(tmp_path: Path) -> None:
    # Review E: 'the specified "type:table" lookup table' answered "Which Postfix daemon ...?": the
    # words beside the quote say it is a table; none of them is the question's.
    answers = doc_answers(
        one_page(tmp_path / "pages", "Listing", INDEXING),
        "Which daemon searches with the request path?",
    )
    assert "type:map" not in answers


def test_two_quoted_values_are_two_readings(tmp_path: Path) -> None:
    page = INDEXING.replace('A single argument of "off"', 'A single argument of "off" or "none"')
    answers = doc_answers(
        one_page(tmp_path / "pages", "Listing", page),
        ARGUMENT,
    )
    assert "off" not in answers and "none" not in answers


def test_a_version_is_never_a_quoted_value(tmp_path: Path) -> None:
    page = '<h2>Listing</h2><p>The "listing" module was added to read folders.</p>'
    answers = doc_answers(
        one_page(tmp_path / "pages", "Listing", page), "In which version was the listing module added?"
    )
    assert answers == []


def test_words_of_one_meaning_count_as_held() -> None:
    q = doc_question("Which option deletes the stale lock files?", True)
    assert q is not None
    said = "The --purge option removes the stale lock files."
    assert overlap(q, said) == 1.0
    assert overlap(q, "The --purge option keeps the stale lock files.") < 1.0


@pytest.mark.parametrize(
    ("word", "same", "other"),
    [("deletes", "removed", "added"), ("shows", "displays", "hides"), ("largest", "maximum", "smallest")],
)
def test_the_groups_join_only_words_of_one_meaning(word: str, same: str, other: str) -> None:
    assert _joined(stem(word), stem(same))
    assert not _joined(stem(word), stem(other))


def _joined(word: str, other: str) -> bool:
    """Whether `other` is a word of `word`'s group (a stem equal to, or beginning, one of the group's)."""
    return any(other.startswith(member) or member.startswith(other) for member in related(word))


@pytest.mark.parametrize("name", ["abort", "append", "insert", "add"])
def test_no_word_naming_one_thing_in_a_manual_has_a_synonym(name: str) -> None:
    # "abort" is a conflict algorithm in SQLite, "append" a Header action in httpd: never another's word.
    assert related(stem(name)) == ()


VIRTUAL = """
<h2>Virtual domains</h2>
<p>Line 2: After editing the domain list, the virtual_transport parameter usually specifies how to
run the delivery.</p>
"""


def test_a_setting_is_no_command_to_run(tmp_path: Path) -> None:
    # Review C: "Which command should I run after editing /etc/postfix/virtual?" -> "virtual_transport",
    # which its own sentence calls a parameter.
    answers = doc_answers(
        one_page(tmp_path / "pages", "Virtual", VIRTUAL),
        "Which command should I run after editing the domain list?",
    )
    assert "virtual_transport" not in answers


DESCRIBE = """
<h2>Options</h2>
<dl>
<dt>--damaged</dt>
<dd>If a store is damaged and the tool cannot tell whether files changed, it stops, unless
\u2018--damaged\u2019 is given, which adds the suffix "-damaged" instead.</dd>
</dl>
"""


@pytest.mark.anyio
async def test_an_unhandled_question_takes_the_value_quoted_beside_its_noun(tmp_path: Path) -> None:
    # Review C: "what suffix does it append?" is of no kind an extractor reads; the sentence quotes the
    # option the question names and, beside "suffix", the one it does not: "-broken".
    question = "When the tool is run with --damaged on a damaged store, what suffix does it add?"
    kind = doc_question(question, True)
    assert kind is not None and kind.noun == "unhandled"
    outcome = await ask(one_page_corpus(tmp_path / "pages", "Describe", DESCRIBE), question)
    assert_answer(outcome, "-damaged")


def test_a_value_is_stated_by_the_question_only_as_written(tmp_path: Path) -> None:
    # "-broken" is not "--broken": the question names the option, not the suffix.
    answers = doc_answers(
        one_page(tmp_path / "pages", "Describe", DESCRIBE),
        "When the tool is run with --damaged on a damaged store, what suffix does it add?",
    )
    assert answers == ["-damaged"]


DEFAULTS = """
<h2 id="zipmemlevel">ZipMemLevel Directive</h2>
<table class="directive">
<tr><th>Description:</th><td>How much memory should be used by the compressor</td></tr>
<tr><th>Syntax:</th><td><code>ZipMemLevel <var>value</var></code></td></tr>
<tr><th>Default:</th><td><code>ZipMemLevel 7</code></td></tr>
</table>
<p>The <code>ZipMemLevel</code> directive specifies how much memory should be used by the compressor.</p>
<h2>Tuning</h2>
<dl>
<dt>gc.packDepth</dt>
<dd>The depth parameter used in the delta compression by git gc --thorough. This defaults to 40.</dd>
</dl>
"""


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How much memory does the compressor use if ZipMemLevel is not set?", "7"),
        ("What delta depth does git gc --thorough use unless gc.packDepth is set?", "40"),
        ("If I never set ZipMemLevel, how much memory does the compressor use?", "7"),
    ],
)
def test_a_setting_not_set_asks_for_its_default(tmp_path: Path, question: str, expected: str) -> None:
    # Reviews D and E: "is not set", "never set", "unless X is set" were read as no default asked, and
    # the question fell to kinds that found nothing.
    kind = doc_question(question, True)
    assert kind is not None and kind.kind == "default"
    assert "set" not in kind.words and "never" not in kind.words
    assert doc_answers(one_page(tmp_path / "pages", "Tuning", DEFAULTS), question)[:1] == [expected]


@pytest.mark.parametrize(
    "question",
    [
        "Which day does the calendar start on unless configured otherwise?",
        "Which handler applies when no UserDir directive was configured?",
        "What does unset do if the key is not configured?",
    ],
)
def test_forms_saying_nothing_was_set(question: str) -> None:
    kind = doc_question(question, True)
    assert kind is not None and kind.kind == "default"


def test_setting_a_value_asks_no_default() -> None:
    # "How do I set ZipMemLevel?" says nothing is left out: no default asked.
    kind = doc_question("What happens when ZipMemLevel is set to 9?", True)
    assert kind is None or kind.kind != "default"
