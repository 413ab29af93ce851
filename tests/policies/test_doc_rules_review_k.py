"""Review K (2026-12-05): its two wrong answers - another directive's default for the one asked, and the
default a sentence sets aside for the value a case uses - each on invented pages, with what the
question does ask still answered."""

from __future__ import annotations

from pathlib import Path

from citeloop.policies._doc_questions import doc_question
from helpers.doc_pages import doc_answers, one_page

DIRECTIVES = """
<h2>InflateBodyLimit Directive</h2>
<table>
<tr><th>Description:</th><td>Maximum size of inflated request bodies</td></tr>
<tr><th>Default:</th><td>None, but BodyLimit applies after inflation</td></tr>
</table>
<p>The InflateBodyLimit directive limits the size of inflated request bodies.</p>
<h2>WindowSize Directive</h2>
<table>
<tr><th>Description:</th><td>Inflation window size</td></tr>
<tr><th>Default:</th><td>15</td></tr>
</table>
"""


def test_a_name_in_the_questions_condition_is_not_the_one_whose_default_it_asks(tmp_path: Path) -> None:
    # Review K (mod_deflate, unanswerable): "When DeflateInflateLimitRequestBody is unset,
    # LimitRequestBody applies ... What is LimitRequestBody's default value?" was answered with
    # DeflateInflateLimitRequestBody's default.
    answers = doc_answers(
        one_page(tmp_path / "pages", "inflate", DIRECTIVES),
        "When InflateBodyLimit is unset, BodyLimit applies to the inflated body. What is BodyLimit's"
        " default value?",
    )
    assert not any("None" in answer for answer in answers)


def test_the_named_default_is_still_answered(tmp_path: Path) -> None:
    answers = doc_answers(
        one_page(tmp_path / "pages", "inflate", DIRECTIVES), "What is InflateBodyLimit's default value?"
    )
    assert answers[:1] == ["None, but BodyLimit applies after inflation"]


STRESS = """
<h2>Automatic stress-adaptive behavior</h2>
<p>Under stress, the relay server will use a relay_timeout value of 10 seconds instead of the default
300 seconds.</p>
"""


def test_a_case_named_by_its_defaults_does_not_ask_for_the_default(tmp_path: Path) -> None:
    # Review K (Postfix): "With the stress-adaptive defaults (Postfix 2.6+), what smtpd_timeout does the
    # SMTP server use while under stress?" was answered with the 300 seconds it uses otherwise.
    question = "With the stress-adaptive defaults, what relay_timeout does the relay server use under stress?"
    asked = doc_question(question, True)
    assert asked is not None and asked.kind != "default"
    assert "300 seconds" not in doc_answers(one_page(tmp_path / "pages", "stress", STRESS), question)


def test_the_default_set_aside_still_answers_what_the_default_is(tmp_path: Path) -> None:
    answers = doc_answers(
        one_page(tmp_path / "pages", "stress", STRESS),
        "What is the default relay_timeout of the relay server?",
    )
    assert answers[:1] == ["300 seconds"]
