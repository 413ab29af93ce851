"""Questions review 28 (the CMake 3.25 manual) refused although an opened page stated the answer,
each class on invented pages: the product ("KMake will default to BATCH") is no other setting whose
default the sentence gives; the words saying what kind of thing a name is ("the X global property")
need not be repeated under its own page; 'uses "X" as a default value', "boolean OFF is the default
value", "then the ALL_BUILD project will be the default"; a Sphinx manual's "New in version 3.13:"
note answers "Since which KMake version ...?" as Python's notes do. And one more it answered wrong:
a version the question itself writes ("as of KMake 3.22") is never the answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.doc_pages import BASE, ask, assert_answer, one_page_corpus, page_corpus


def _page(title: str, body: str) -> str:
    # Every page names the product, as a manual's navigation does.
    return (
        f"<html><head><title>{title}</title></head><body><p>KMake 3.25 Documentation</p>"
        f"<h1>{title}</h1>{body}</body></html>"
    )


PAGES = {
    "UNITY_MODE": _page(
        "UNITY_MODE",
        "<p>KMake provides different algorithms for unity builds.</p><p>If no explicit UNITY_MODE has been"
        " specified, KMake will default to BATCH.</p>",
    ),
    "HELPER_FOLDER": _page(
        "HELPER_FOLDER",
        "<p>Name of FOLDER for targets that are added automatically by KMake.</p><p>If not set, KMake uses"
        ' "KMakeHelperTargets" as a default value for this property.</p>',
    ),
    "toggle": _page(
        "toggle",
        "<p>Provide a boolean option that the user can optionally select.</p><p>If no initial value is"
        " provided, boolean OFF is the default value.</p>",
    ),
    "STARTUP_TARGET": _page(
        "STARTUP_TARGET",
        "<p>Specify the default startup project in a studio solution.</p><p>If this property is not"
        " specified, then the ALL_TARGETS project will be the default.</p>",
    ),
    "calc": _page(
        "calc",
        "<p>Evaluate a mathematical expression.</p><p>New in version 3.13: Hexadecimal numbers are"
        " recognized when prefixed with 0x, as in C code.</p>",
    ),
    "inno": _page(
        "KPack INNO Generator",
        "<p>The INNO generator builds a setup program.</p><p>Changed in version 3.22: The INNO"
        " generator requires INNO 3.03 or newer.</p>",
    ),
}


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What is the default UNITY_MODE if none is specified?", "BATCH"),
        ("What is the default value of the HELPER_FOLDER global property?", '"KMakeHelperTargets"'),
        ("What is the default value of a toggle() when no initial value is provided?", "OFF"),
        ("If STARTUP_TARGET is not specified, which project is the default startup project?", "ALL_TARGETS"),
        ("Since which KMake version does calc() recognize hexadecimal numbers prefixed with 0x?", "3.13"),
        ("What INNO version does the KPack INNO generator require as of KMake 3.22?", None),
    ],
)
async def test_review_28_refusals_answered(tmp_path: Path, question: str, expected: str | None) -> None:
    folder = tmp_path / "pages"
    folder.mkdir()
    outcome = await ask(page_corpus(folder, PAGES), question)
    assert_answer(outcome, expected)
    if expected is not None:
        assert outcome.citations[0].startswith(BASE)


CORES = (
    "<dl><dt>CoreCount(var)</dt><dd><p>Determine the number of cores and save the value in var.</p>"
    "<p>It returns 0 if there's a problem determining the core count.</p></dd>"
    "<dt>tau()</dt><dd><p>Return an approximation for tau.</p></dd></dl>"
)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # "What value does X return if C?" reads as "What does X return if C?" ...
        ("What value does CoreCount() return if there is a problem determining the core count?", "0"),
        # ... and is answered by a value only, not by a description of what is returned.
        ("What value does tau() return?", None),
    ],
)
async def test_what_value_a_call_returns(tmp_path: Path, question: str, expected: str | None) -> None:
    outcome = await ask(one_page_corpus(tmp_path / "pages", "CoreCount", CORES), question)
    assert_answer(outcome, expected)
