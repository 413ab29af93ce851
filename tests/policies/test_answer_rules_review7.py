"""A fourth review's cases (after test_answer_rules_review4-6.py), each a wrong answer with a
real citation at the default threshold before its fix, checked where it is decided."""

from __future__ import annotations

import pytest
from citeloop.policies._questions import analyze
from citeloop.policies._short_answer import short_answer


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        # A typed subject's relative clause must say what the question asks of it.
        (
            "Which actor played Quint in Jaws?",
            "Richard Dreyfuss is an American actor who turned down the role of Quint in Jaws, "
            "which went to Robert Shaw.",
            "Robert Shaw",
        ),
        (
            "Which team won the 1990 Kell World Cup?",
            "Argentina was the team that reached the final of the 1990 Kell World Cup, "
            "where West Germany won 1-0.",
            "West Germany",
        ),
        (
            "Which novelist won the 1990 Kell Prize?",
            "Ines Duarte is a Portuguese novelist who was shortlisted for the 1990 Kell Prize, "
            "which went to Rui Costa.",
            "Rui Costa",
        ),
        (
            "Which actor played Quint in Jaws?",
            "Robert Shaw is the English actor who played Quint in Jaws.",
            "Robert Shaw",
        ),
        # An opening name wrote what the question names only if it is the verb's own object.
        ("Who wrote Hamlet?", "Goethe wrote an essay on Hamlet in 1795.", None),
        ("Who founded Acme Robotics?", "Costa founded Acme Robotics in 1990.", "Costa"),
        # "When": the date nearest to what is asked, none in brackets, "and" a range only after "between".
        (
            "When was Kell Castle restored?",
            "Kell Castle was built between 1150 and 1200 and was restored in 1990.",
            "1990",
        ),
        (
            "When was Kell Castle built?",
            "Kell Castle was built between 1150 and 1200 and was restored in 1990.",
            "1150 and 1200",
        ),
        (
            "When was Acme Robotics founded?",
            "Rui Costa (1900 - 1980) founded Acme Robotics in 1930 in Porto.",
            "1930",
        ),
        # A capitalized word before a noun describes it: "built by Italian masons" names no builder.
        (
            "Who built the Kell Tower?",
            "The Kell Tower was commissioned by King Henry and built by Italian masons.",
            "King Henry",
        ),
    ],
)
def test_the_short_answer_a_sentence_gives(question: str, sentence: str, expected: str | None) -> None:
    assert short_answer(analyze(question), sentence) == expected
