"""Review V (2026-12-05, questions asked as during an incident): its two wrong answers - the signature
default of a parameter the question itself sets, and the default a stress setting replaces."""

from __future__ import annotations

from helpers.doc_pages import corpus_answers


def test_a_parameter_the_question_sets_is_not_the_one_asked() -> None:
    # fileinput.input(files=None, inplace=False, backup='', ...): the question gives inplace=True.
    asked = (
        "A script using fileinput.input(inplace=True) left no backup of the files it rewrote - what backup "
        "extension is used by default?"
    )
    assert "inplace=False" not in corpus_answers("python_doc", asked)
    assert "inplace=False" in corpus_answers(
        "python_doc", "What is the default of inplace in fileinput.input()?"
    )


def test_the_default_a_stress_value_replaces_is_not_the_value_under_stress() -> None:
    # STRESS_README: "under conditions of stress, use an smtpd_timeout value of 10 seconds instead of the
    # default 300 seconds".
    asked = "What smtpd_timeout does the default stress-adaptive configuration use under stress?"
    assert "300 seconds" not in corpus_answers("postfix_doc", asked)
    # Not under stress, the default is the one asked.
    calm = "When Postfix is not under stress, what is the default smtpd_junk_command_limit?"
    assert "100" in corpus_answers("postfix_doc", calm)
