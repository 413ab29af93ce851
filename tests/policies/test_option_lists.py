"""Idioms of a manual that lists its options and styles by name, as review 25 (the zsh 5.9 manual)
showed them refused or answered wrong: an option named like code under a heading about options
answers "Which option makes X do Y?" by the description below it; a default quoted in typographic
quotes keeps its spaces; a hyphenated name the question calls a style, and a name with a leading
underscore, are code; a default another style's clause states is that style's; "The color default
is sometimes available" states no default; "In which table ...?" asks for a table; "it will be given
the default value 60", "with the default value being 5" and "The default size for the kill ring is
eight" state defaults ("n (by name)" with its gloss); a clause setting the scene ("With IGNORE_EOF
set, how many ...?") leaves a count asked. Each class on an invented page in the same markup
(texinfo's HTML)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.doc_pages import ask, assert_answer, one_page_corpus


def _entry(name: str, description: str, flag: str = "") -> str:
    # texinfo's HTML: the name in <tt>, a flag letter after it, the description in the <dd>.
    return f"<dt><span><tt>{name}</tt>{flag}</span></dt><dd><p>{description}</p></dd>"


OPTIONS = (
    "<h2>16 Options</h2><h3>16.2 Description of Options</h3><dl>"
    + _entry("DOT_MATCH", "Do not require a leading &lsquo;.&rsquo; in a filename to be matched explicitly.")
    + _entry("OCTAL_DIGITS", "Interpret any integer constant beginning with a 0 as octal.", " &lt;S&gt;")
    + _entry(
        "EMPTY_PATTERN",
        "If a pattern for filename generation has no matches, delete the pattern from the argument list"
        " instead of reporting an error.",
    )
    + "</dl><h2>17 Parameters</h2><h3>17.1 Parameters Used By The Shell</h3><dl>"
    + _entry("HISTLINES", "Interpret the number of history lines kept as a count of events.")
    + "</dl>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "Which option makes quill interpret any integer constant beginning with 0 as octal?",
            "OCTAL_DIGITS",
        ),
        (
            "Which option makes quill delete a pattern with no matches from the argument list instead of"
            " reporting an error?",
            "EMPTY_PATTERN",
        ),
        # No description says it.
        ("Which option makes quill interpret binary constants as hexadecimal?", None),
        # The term that says it sits under a heading about parameters: a parameter, no option.
        ("Which option makes quill interpret the number of history lines kept as a count of events?", None),
    ],
)
async def test_an_option_named_like_code_answers_by_the_description_below_it(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "quill options", OPTIONS), question)
    assert_answer(outcome, expected)


PARAMETERS = (
    "<h2>Parameters Used By The Shell</h2><dl>"
    + _entry(
        "TIMESPEC",
        "The format of process time reports with the time keyword."
        " The default is &lsquo;%J %U user %S system&rsquo;.",
    )
    + _entry(
        "GLOBSORT",
        "The order of glob results. The default sorting is n (by name) unless a qualifier is given.",
    )
    + _entry(
        "COLORTERM",
        "The color default is sometimes available, specifying the color with which the terminal started.",
    )
    + "</dl>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # Cut at its first space, the value was the opening quote and "%J": wrong.
        ("What is the default value of the TIMESPEC parameter?", "\u2018%J %U user %S system\u2019"),
        # A one-letter code keeps the gloss after it.
        ("What is the default value of GLOBSORT?", "n (by name)"),
        # "is sometimes available" states no value.
        ("What color does quill use by default?", None),
    ],
)
async def test_a_default_in_typographic_quotes_is_read_whole_and_an_adverb_is_none(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "quill parameters", PARAMETERS), question)
    assert_answer(outcome, expected)


STYLES = (
    "<h2>Completion System Configuration</h2><h3>Standard Styles and vcs_info configuration</h3><dl>"
    + _entry(
        "completer",
        "The strings given as the value of this style provide the names of the completer functions to"
        " use. The default value for this style is &lsquo;_expand _correct _approximate&rsquo;.",
    )
    + _entry(
        "max-errors",
        "This is used by the _approximate and _correct completer functions to determine the maximum"
        " number of errors to allow.",
    )
    + _entry("formats", "A list of formats, used when actionformats is not used.")
    + _entry(
        "gen-guards-string",
        "Called in the hg backend when the guards string is generated; the get-mq style must be true"
        " (default).",
    )
    + "</dl>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    "question",
    [
        # The completer style's default names the two completers the question does: not max-errors's.
        "What is the default value of the max-errors style used by the _approximate and _correct completers?",
        # "the get-mq style must be true (default)" is get-mq's default, not the formats style's.
        "What is the default value of the vcs_info formats style?",
    ],
)
async def test_a_default_of_another_named_style_answers_no_question_about_this_one(
    tmp_path: Path, question: str
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "quill completion", STYLES), question)
    assert_answer(outcome, None)


ANALYZE = (
    "<h2>ANALYZE</h2><p>The ANALYZE command gathers statistics about tables and indices.</p>"
    '<p>The default implementation stores all statistics in a single table named "wren_stat1".</p>'
)


@pytest.mark.anyio
async def test_a_which_question_may_open_with_a_preposition(tmp_path: Path) -> None:
    outcome = await ask(
        one_page_corpus(tmp_path / "pages", "wren ANALYZE", ANALYZE),
        "In which table does ANALYZE store its statistics?",
    )
    assert_answer(outcome, "wren_stat1")


SETTINGS = (
    "<h2>Module parameters</h2><dl>"
    + _entry(
        "WREN_TIMEOUT",
        "The timeout for data transfers in seconds. If this is not set when the module is loaded, it will"
        " be given the default value 60.",
    )
    + _entry(
        "WREN_NOISE",
        "The verbosity of messages. If WREN_NOISE is not set when the module is loaded, it will be set to"
        " the default value 450, i.e., all errors will be printed.",
    )
    + _entry("WREN_PRIORITY", "The priority is an integer from 0 to 9 with the default value being 5.")
    + "</dl><h2>The kill ring</h2><p>The default size for the kill ring is eight, however the length may"
    " be changed by array operations.</p>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What default value does the module give WREN_TIMEOUT if it is not set?", "60"),
        # The value, not the comma after it.
        ("What is the default value of WREN_NOISE?", "450"),
        ("What is the default value of WREN_PRIORITY?", "5"),
        ("What is the default size of the kill ring?", "eight"),
        # No sentence gives a yank buffer's size.
        ("What is the default size of the yank buffer?", None),
    ],
)
async def test_a_default_given_set_to_or_being_a_value_is_stated(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "wren parameters", SETTINGS), question)
    assert_answer(outcome, expected)


EOFS = (
    "<h2>16 Options</h2><h3>16.2 Description of Options</h3><dl>"
    + _entry(
        "IGNORE_EOF",
        "Do not exit on end-of-file. However, ten consecutive EOFs will cause the shell to exit anyway,"
        " to avoid the shell hanging if its tty goes away.",
    )
    + "</dl><h2>Relative times</h2><p>A year is 365.25 days unless there is an anchor.</p>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # A clause setting the scene before "how many" ("With IGNORE_EOF set, ...") still asks a count.
        ("With IGNORE_EOF set, how many consecutive EOFs still cause the shell to exit?", "ten consecutive"),
        ("In the relative time syntax, how many days is a year taken to be?", "365.25 days"),
        ("With IGNORE_EOF set, how many seconds does the shell wait before exiting?", None),
    ],
)
async def test_a_count_asked_after_a_clause_setting_the_scene(
    tmp_path: Path, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "quill options", EOFS), question)
    assert_answer(outcome, expected)
