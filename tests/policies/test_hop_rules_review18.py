"""Review chains 18 and 19 (2026-12-05, fresh): the rules their wrong answers were read into, one by one
on pages written for the test (the answers themselves: `test_hop_rules.READ_WRONG_ANSWERS`)."""

from __future__ import annotations

import pytest
from citeloop.policies._bridge_answer import unfit_span, wrong_kind
from citeloop.policies._compare import offered
from citeloop.policies._questions import analyze
from citeloop.policies._short_answer import which_noun


@pytest.mark.parametrize(
    ("sentence", "answer", "unfit"),
    [
        # Says where the tower stands, neither "firm" nor "designed": no firm that designed it.
        ("The Oak Tower is a 40-storey skyscraper in Harbour City.", "Harbour City", True),
        ("The Oak Tower was designed by Rook & Sons in 1969.", "Rook & Sons", False),
        ("Rook & Sons is an architecture firm in Harbour City.", "Rook & Sons", False),
    ],
)
def test_a_span_saying_neither_the_noun_nor_the_verb_asked(sentence: str, answer: str, unfit: bool) -> None:
    asked = analyze("Which firm designed the tower where Oak Partners is located?")
    assert unfit_span(asked, answer, sentence) is unfit


def test_a_verb_asked_with_co_is_said_without_it() -> None:
    asked = analyze("Which chemist co-founded the Oak Company that runs the Harbour Mall?")
    assert not unfit_span(asked, "Ada Pell", "The company was founded by Ada Pell and Ivo Rook.")
    assert unfit_span(asked, "Ada Pell", "The company sells soap made by Ada Pell.")


def test_the_noun_asked_before_an_irregular_or_hyphenated_verb_with_an_object() -> None:
    assert which_noun("Which playwright wrote the play that the director adapted?") == "playwright"
    assert which_noun("Which chemist co-founded the company that runs the mall?") == "chemist"
    assert which_noun("Which play did the director adapt?") == "play"


def test_a_title_keeps_its_own_colon_when_offered() -> None:
    assert offered("Which novel was published first, Orlando: A Biography or The Waves?") == (
        "Orlando: A Biography",
        "The Waves",
    )
    # A colon ending the question's own words still separates them from the pair.
    assert offered("Which mine is in Ontario: the Oak Mine or the Bay Mine?") == ("Oak Mine", "Bay Mine")
    assert offered("Which band was formed first: Oasis or Blur?") == ("Oasis", "Blur")


def test_which_of_two_named_with_and_is_answered_by_one_of_them() -> None:
    asked = "Which of Nils Kite and Dana Rowe is a Canadian filmmaker?"
    assert wrong_kind(asked, "which", "Ivo Rook")
    assert not wrong_kind(asked, "which", "Dana Rowe")
