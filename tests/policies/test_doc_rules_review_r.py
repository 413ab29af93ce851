"""Review R (2026-12-05, near misses again): two of its four answered near misses - the availability of a
directive for when it gained a parameter, and another setting's name for a setting's value."""

from __future__ import annotations

import pytest
from citeloop.policies._doc_questions import doc_question
from citeloop.policies._doc_shapes import another_setting
from helpers.doc_pages import corpus_outcome


@pytest.mark.anyio
async def test_a_directive_s_availability_is_not_when_it_gained_a_part() -> None:
    # mod_reqtimeout's row: "Available in version 2.2.15 and later; ... The handshake stage is available
    # since version 2.4.39" - nothing of MinRate.
    part = await corpus_outcome(
        "apache_doc", "In which httpd version did RequestReadTimeout gain the MinRate parameter?"
    )
    assert part.status == "abstained"
    whole = await corpus_outcome(
        "apache_doc", "In which httpd version did RequestReadTimeout become available?"
    )
    assert whole.status == "answered" and whole.answer == "2.2.15"


def test_another_setting_s_name_is_no_value_of_the_one_asked() -> None:
    asked = doc_question(
        "What smtpd_soft_error_limit value does Postfix use automatically under stress?", True
    )
    assert asked is not None
    assert another_setting("smtpd_hard_error_limit", asked)
    assert not another_setting("smtpd_soft_error_limit", asked)
    assert not another_setting("10", asked)
    named = doc_question("Which parameter limits the SMTP errors before Postfix disconnects?", True)
    assert named is not None and not another_setting("smtpd_hard_error_limit", named)


@pytest.mark.anyio
async def test_a_setting_asked_for_its_stress_value_is_not_answered_by_another_setting() -> None:
    # The stress defaults (STRESS_README) name smtpd_hard_error_limit, not the soft limit asked about.
    asked = "What smtpd_soft_error_limit value does Postfix use automatically under stress?"
    outcome = await corpus_outcome("postfix_doc", asked)
    assert "smtpd_hard_error_limit" not in outcome.answer
