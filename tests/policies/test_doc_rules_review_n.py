"""Review N (2026-12-05): two of its wrong answers - a parameter matched by a word of another stem, and
the default a sentence sets aside for the value a case uses."""

from __future__ import annotations

from citeloop.policies._doc_match import param_matches
from citeloop.policies._doc_questions import doc_question
from helpers.doc_pages import corpus_answers


def test_a_parameter_is_not_named_by_a_word_sharing_only_its_stem() -> None:
    # Review N (timeit): "... during the timing by default?" named the parameter "timer".
    asked = doc_question(
        "What does stopwatch.measure() temporarily turn off during the timing by default?", True
    )
    assert asked is not None
    assert not param_matches("timer", asked)
    levels = doc_question("What are the default levels of squash.pack()?", True)
    assert levels is not None and param_matches("level", levels)


def test_the_default_set_aside_is_not_the_value_a_case_uses() -> None:
    # Review N (the Postfix manual's "under conditions of stress, use an smtpd_timeout value of 10
    # seconds instead of the default 300 seconds"): asked the value used under stress, not 300 seconds.
    answers = corpus_answers(
        "postfix_doc",
        "Under the default stress-adaptive settings (Postfix 2.6 and later), what smtpd_timeout value is used"
        " when the SMTP server is under stress?",
    )
    assert "300 seconds" not in answers
