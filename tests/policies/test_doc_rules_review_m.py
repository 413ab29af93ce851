"""Review M (2026-12-05): its wrong answer - a count given for how long something is delayed - on an
invented page, with a duration and a length still answered."""

from __future__ import annotations

from pathlib import Path

from helpers.doc_pages import doc_answers, one_page

ERRORS = """
<h2>Slowing down misbehaving clients</h2>
<p>When the error count reaches $relay_soft_error_limit (default: 10), the relay server delays all
responses by $relay_error_sleep_time seconds (default: 1 second).</p>
<h2>Maximum length of a relay pattern</h2>
<p>The relay pattern matching algorithm can take a long time on long patterns, so the length of a
relay pattern is limited. The default value of this limit is 50000.</p>
"""


def test_a_count_does_not_say_how_long_something_is_delayed(tmp_path: Path) -> None:
    # Review M (Postfix): "once a client reaches smtpd_soft_error_limit, how long is each response
    # delayed by default?" was answered with the error limit's 10.
    answers = doc_answers(
        one_page(tmp_path / "pages", "errors", ERRORS),
        "Once a client reaches relay_soft_error_limit, how long is each response delayed by default?",
    )
    assert "10" not in answers


def test_a_duration_still_answers_how_long(tmp_path: Path) -> None:
    answers = doc_answers(
        one_page(tmp_path / "pages", "errors", ERRORS),
        "How long does relay_error_sleep_time delay each response by default?",
    )
    assert answers[:1] == ["1 second"]


def test_how_long_a_pattern_can_be_is_a_length(tmp_path: Path) -> None:
    answers = doc_answers(
        one_page(tmp_path / "pages", "errors", ERRORS),
        "By default, how long can a relay pattern be before it hits the pattern length limit?",
    )
    assert answers[:1] == ["50000"]
