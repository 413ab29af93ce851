"""'What values may X take?' (policies/_doc_allowed.py): the list a sentence about X says it accepts,
whole, from the page, term or sentence about X; no list of prose words, no single value, no other
setting's list."""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.policies._doc_questions import doc_question
from helpers.doc_pages import ask, assert_answer, doc_answers, one_page, one_page_corpus

COPY_MODE = (
    "<p>Tell the studio generator whether to copy a source file to the output directory.</p>"
    "<p>Valid values are Never, Always and PreserveNewest.</p>"
)
CHIP = "<p>The target chip of a build on a host with two.</p><p>The value must be either arm64 or x86_64.</p>"
LAYOUT = "<p>Set to FIXED or FREE to indicate the source layout.</p>"
# Under a definition list: each term's own sentence.
OPTIONS = (
    "<dl><dt>TRACE_MODE</dt><dd><p>Valid values are off, brief and full.</p></dd>"
    "<dt>COLOR_MODE</dt><dd><p>Valid values are auto, always or never.</p></dd></dl>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("title", "page", "question", "expected"),
    [
        ("COPY_MODE", COPY_MODE, "What values are valid for the COPY_MODE source file property?",
         "Never, Always and PreserveNewest"),
        ("BUILD_CHIP", CHIP, "What values may the BUILD_CHIP environment variable take?", "arm64 or x86_64"),
        ("SOURCE_LAYOUT", LAYOUT, "Which values can the SOURCE_LAYOUT property be set to?", "FIXED or FREE"),
        ("Modes", OPTIONS, "What are the valid values of COLOR_MODE?", "auto, always or never"),
        ("Modes", OPTIONS, "What values can TRACE_MODE take?", "off, brief and full"),
        # A page about another setting: its list is not this one's.
        ("COPY_MODE", COPY_MODE, "What values are valid for the LINK_MODE property?", None),
    ],
)  # fmt: skip
async def test_the_list_of_values_answers(
    tmp_path: Path, title: str, page: str, question: str, expected: str | None
) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", title, page), question)
    assert_answer(outcome, expected)


@pytest.mark.parametrize(
    "body",
    [
        "<p>Set to this or that to report.</p>",  # words of the prose, not values
        "<p>The value must be 8.</p>",  # one value is no list of them
        "<p>Valid values are listed in the table below.</p>",
    ],
)
def test_what_lists_no_values_answers_nothing(tmp_path: Path, body: str) -> None:
    pages = one_page(tmp_path / "pages", "REPORT_MODE", body)
    assert doc_answers(pages, "What values can the REPORT_MODE property take?") == []


@pytest.mark.parametrize(
    ("question", "allowed"),
    [
        ("What values are valid for the COPY_MODE property?", True),
        ("What are the possible values of log_level?", True),
        ("What values may BUILD_CHIP take?", True),
        # A value asked for what it does is not the list of all of them.
        ("Which values enable output on failure when set in OUTPUT_ON_FAILURE?", False),
        ("What values does get_mode() return?", False),
    ],
)
def test_which_questions_ask_for_the_allowed_values(question: str, allowed: bool) -> None:
    asked = doc_question(question, True)
    assert asked is not None
    assert (asked.noun == "allowed values") is allowed


def test_another_settings_list_is_not_this_ones(tmp_path: Path) -> None:
    pages = one_page(tmp_path / "pages", "COPY_MODE", COPY_MODE)
    assert doc_answers(pages, "What values are valid for the COPY_MODE property?") == [
        "Never, Always and PreserveNewest"
    ]
    assert doc_answers(pages, "What values are valid for the LINK_MODE property?") == []
