"""Review chains 20 and 21 (2026-12-05, fresh: nested questions, answer types): the rules their wrong
answers were read into, on sentences written for the test (the answers themselves:
`test_hop_rules.READ_WRONG_ANSWERS`)."""

from __future__ import annotations

from citeloop.policies._bridge_answer import which_unsaid
from citeloop.policies._questions import analyze
from citeloop.policies._short_answer import short_answer
from citeloop.policies._when import when_answer

BORN_IN = "In which city was Ada Lund born?"


def test_a_birthplace_is_a_place_the_sentence_names_after_born() -> None:
    ran = "Ada Lund (10 July 1936 - 27 June 2000) ran for Norland in the Marathon at the 1968 Games in Oslo."
    assert short_answer(analyze(BORN_IN), ran) is None
    assert short_answer(analyze(BORN_IN), "Ada Lund (born 10 July 1936 in Visby) was a runner.") == "Visby"
    # Not asked where she was born: where she lives is a place the sentence gives.
    lives = "Ada Lund is a Norland model who lives in Visby."
    assert short_answer(analyze("Where does Ada Lund live?"), lives) == "Visby"


def test_a_state_or_a_country_is_no_city() -> None:
    assert short_answer(analyze(BORN_IN), "Ada Lund is an American model born in Pennsylvania.") is None
    assert short_answer(analyze(BORN_IN), "Ada Lund is a model born in Scranton, Pennsylvania.") == (
        "Scranton, Pennsylvania"
    )
    asked_state = "In which state was Ada Lund born?"
    assert short_answer(analyze(asked_state), "Ada Lund is an American model born in Pennsylvania.") == (
        "Pennsylvania"
    )


def test_a_part_of_a_place_is_asked_where() -> None:
    assert analyze("In which part of London was Ada Lund born?").kind == "where"
    assert analyze("Which part of the film did Ada Lund write?").kind != "where"


def test_a_life_asked_is_read_from_the_life_dates() -> None:
    text = (
        "Ivo Rook (5 August 1811 - 12 February 1896) was a composer and director of the Harbour "
        "Conservatory from 1871 till his death."
    )
    assert when_answer(analyze("When did the composer Ivo Rook die?"), text) == "12 February 1896"
    assert when_answer(analyze("In what year did the composer Ivo Rook die?"), text) == "1896"
    assert when_answer(analyze("When was the composer Ivo Rook born?"), text) == "5 August 1811"


def test_when_exactly_asks_a_date() -> None:
    asked = analyze("When exactly was the Battle of Oak fought?")
    assert when_answer(asked, "The island was captured in the 1941 Battle of Oak.") is None
    assert when_answer(asked, "The Battle of Oak was fought on 8 December 1941.") == "8 December 1941"


def test_the_kind_of_the_noun_asked_is_said_too() -> None:
    question = "To which plant family does the genus that feeds the Oak metalmark belong?"
    assert which_unsaid(question, "The Oak metalmark is a butterfly (family Riodinidae).")
    assert not which_unsaid(question, "Eriogonum is a genus in the plant family Polygonaceae.")
    assert not which_unsaid(
        "Which family does Eriogonum belong to?", "Eriogonum is in the family Polygonaceae."
    )
