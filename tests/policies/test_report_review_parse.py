"""`parse_review`: the strict verdict line of a reviewer's reply, by example and by property."""

from __future__ import annotations

import pytest
from citeloop.policies import parse_review
from citeloop.policies._review_parse import REVIEW_REJECT_CODES, ReviewRejected
from hypothesis import given
from hypothesis import strategies as st

# Blank lines and white space a model may put around the verdict line.
_PAD = st.text(alphabet=" \t", max_size=3)
_BLANK_LINES = st.lists(_PAD, max_size=3).map(lambda lines: "".join(f"{line}\n" for line in lines))
# Notes: any text whose lines are not themselves a verdict line.
_ONE_LINE = st.characters(blacklist_categories=("Cs", "Zl", "Zp", "Cc"))
_NOTE_LINE = st.text(alphabet=_ONE_LINE, max_size=30).filter(
    lambda line: not line.strip().startswith(("ACCEPT", "REVISE"))
)


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("ACCEPT", ("ACCEPT", "")),
        ("  ACCEPT  \n", ("ACCEPT", "")),
        ("\n\n\tACCEPT", ("ACCEPT", "")),
        ("REVISE", ("REVISE", "")),
        ("REVISE: cover the founding year", ("REVISE", "cover the founding year")),
        ("REVISE:\n- cover the year\n- drop footnote 2", ("REVISE", "- cover the year\n- drop footnote 2")),
        ("ACCEPT\nWell sourced.", ("ACCEPT", "Well sourced.")),
        ("REVISE: a\nREVISE: b", ("REVISE", "a\nREVISE: b")),
    ],
)
def test_verdicts(reply: str, expected: tuple[str, str]) -> None:
    assert parse_review(reply) == expected


@pytest.mark.parametrize(
    ("reply", "code"),
    [
        ("", "empty"),
        (" \n\t\n", "empty"),
        ("accept", "no_verdict"),
        ("Accept", "no_verdict"),
        ("ACCEPTED", "no_verdict"),
        ("I ACCEPT", "no_verdict"),
        ("ACCEPT: fine", "no_verdict"),
        ("REVISED: x", "no_verdict"),
        ("REVISE - x", "no_verdict"),
        ("Looks good.\nACCEPT", "no_verdict"),
        ("**ACCEPT**", "no_verdict"),
        ("ACCEPT\nREVISE: one more source", "both_verdicts"),
        ("REVISE: add a year\n  ACCEPT ", "both_verdicts"),
    ],
)
def test_rejections(reply: str, code: str) -> None:
    parsed = parse_review(reply)
    assert isinstance(parsed, ReviewRejected)
    assert parsed.code == code and parsed.code in REVIEW_REJECT_CODES
    assert parsed.detail


@given(before=_BLANK_LINES, pad=_PAD, after=_PAD, notes=st.lists(_NOTE_LINE, max_size=4))
def test_accept_with_any_padding_and_notes(before: str, pad: str, after: str, notes: list[str]) -> None:
    reply = "\n".join([f"{before}{pad}ACCEPT{after}", *notes])
    assert parse_review(reply) == ("ACCEPT", "\n".join(notes).strip())


@given(before=_BLANK_LINES, head=_NOTE_LINE, notes=st.lists(_NOTE_LINE, max_size=4))
def test_revise_notes_are_kept_whole(before: str, head: str, notes: list[str]) -> None:
    reply = "\n".join([f"{before}REVISE: {head}", *notes])
    assert parse_review(reply) == ("REVISE", "\n".join([head.strip(), *notes]).strip())


@given(line=_NOTE_LINE.filter(lambda line: line.strip() != ""), rest=st.text(max_size=40))
def test_a_first_line_without_the_keyword_is_never_a_verdict(line: str, rest: str) -> None:
    parsed = parse_review(f"{line}\n{rest}")
    assert isinstance(parsed, ReviewRejected) and parsed.code == "no_verdict"


@given(first=st.sampled_from(["ACCEPT", "REVISE", "REVISE: fix it"]), notes=st.lists(_NOTE_LINE, max_size=3))
def test_the_other_verdict_on_a_later_line_rejects(first: str, notes: list[str]) -> None:
    other = "REVISE: no" if first == "ACCEPT" else "ACCEPT"
    parsed = parse_review("\n".join([first, *notes, f" {other} "]))
    assert isinstance(parsed, ReviewRejected) and parsed.code == "both_verdicts"


@given(st.text(max_size=200))
def test_never_raises_and_answers_a_verdict_or_a_code(reply: str) -> None:
    parsed = parse_review(reply)
    if isinstance(parsed, ReviewRejected):
        assert parsed.code in REVIEW_REJECT_CODES
    else:
        verdict, notes = parsed
        assert verdict in ("ACCEPT", "REVISE")
        assert notes == notes.strip()
        first = next(line.strip() for line in reply.splitlines() if line.strip())
        assert first.startswith(verdict)
