"""Man pages in libcurl's style (review 29): one option per page, titled with its name, its default as
a section of its own ("DEFAULT" over "300") and its arrival in another ("AVAILABILITY" over "Added in
7.15.4"). Asked of the name the page is titled with, the section's value answers, quoted with its
heading; asked of another name, nothing does; a sentence under DEFAULT is not a value."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.doc_pages import ask, assert_answer, doc_answers, one_page, one_page_corpus

MAN_PAGE = (
    "<h2>NAME</h2><p>KURLOPT_DIALTIMEOUT - timeout for the dial phase</p>"
    "<h2>DESCRIPTION</h2><p>Pass a long. It should contain the maximum time in seconds that you allow the"
    " dial phase to take.</p><h2>DEFAULT</h2><p>300</p>"
    "<h2>AVAILABILITY</h2><p>Added in 7.15.4 and replaces the old kurl_dial(3) option.</p>"
)
SENTENCE_DEFAULT = (
    "<h2>NAME</h2><p>KURLOPT_RESOLVER - the resolver to use</p>"
    "<h2>DEFAULT</h2><p>Whatever resolver the system provides for this purpose.</p>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("title", "page", "question", "expected"),
    [
        ("KURLOPT_DIALTIMEOUT", MAN_PAGE, "What is the default value of KURLOPT_DIALTIMEOUT?", "300"),
        (
            "KURLOPT_DIALTIMEOUT",
            MAN_PAGE,
            "In which libkurl version was KURLOPT_DIALTIMEOUT added?",
            "7.15.4",
        ),
        # Another name's page: its sections are not the asked name's.
        ("KURLOPT_DIALTIMEOUT", MAN_PAGE, "What is the default value of KURLOPT_TIMEOUT?", None),
        ("KURLOPT_DIALTIMEOUT", MAN_PAGE, "In which libkurl version was KURLOPT_TIMEOUT added?", None),
        # A sentence under DEFAULT is no value to give whole.
        ("KURLOPT_RESOLVER", SENTENCE_DEFAULT, "What is the default value of KURLOPT_RESOLVER?", None),
    ],
)
async def test_a_section_of_its_own_gives_the_titled_names_value(
    tmp_path: Path, title: str, page: str, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", title, page), question)
    assert_answer(outcome, expected)
    if expected == "300":
        assert outcome.evidence == "DEFAULT\n300"


def test_another_names_page_gives_no_section_value(tmp_path: Path) -> None:
    pages = one_page(tmp_path / "pages", "KURLOPT_DIALTIMEOUT", MAN_PAGE)
    assert doc_answers(pages, "What is the default value of KURLOPT_DIALTIMEOUT?")[:1] == ["300"]
    assert doc_answers(pages, "What is the default value of KURLOPT_TIMEOUT?") == []


NETRC = (
    "<h2>NAME</h2><p>KURLOPT_NETRC - enable use of .netrc</p><h2>DESCRIPTION</h2>"
    "<p>Starting in 7.84.0, libkurl also supports quoted strings.</p>"
    "<p>Before 7.20.0 the file was read by kurl_perform(3) on every transfer.</p>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # A release in three parts after a word of time answers, "version" unsaid ...
        ("Since which version does libkurl support quoted strings in .netrc files?", "7.84.0"),
        # ... and one after "before" is a bound: not when something began.
        ("Since which version is the .netrc file read by kurl_perform on every transfer?", None),
    ],
)
async def test_a_bare_release_answers_when(tmp_path: Path, question: str, expected: str | None) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "KURLOPT_NETRC", NETRC), question)
    assert_answer(outcome, expected)
