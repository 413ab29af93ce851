"""Review Q (2026-12-05, near misses: unanswerable questions whose pages state something very close):
two of its three answered near misses - another release's state, and a compound default for one of
its parts."""

from __future__ import annotations

import pytest
from citeloop.policies._doc_near_miss import other_release_state, part_of_compound
from helpers.doc_pages import corpus_outcome


def test_a_quote_marking_the_release_asked_before_says_what_held_after() -> None:
    changed = "Changed in version 3.3: time.perf_counter() is now the default timer."
    assert other_release_state(
        "Which function did timeit use as its default timer before Python 3.3?", changed
    )
    # What it became is what a question about that release (or no release) asks.
    assert not other_release_state("Which function became timeit's default timer in Python 3.3?", changed)
    # A quote saying what held before the release answers it.
    before = "Before version 3.3, time.clock() was the default timer on Windows."
    assert not other_release_state("Which default timer did timeit use before version 3.3?", before)
    # Another release is another matter.
    assert not other_release_state("Which function did timeit use before Python 3.13?", changed)


@pytest.mark.anyio
async def test_a_timer_made_default_in_3_3_is_no_answer_for_before_it() -> None:
    question = "Which function did timeit use as its default timer before Python 3.3?"
    assert (await corpus_outcome("python_doc", question)).status == "abstained"
    # The same sentence answers the question about the change itself.
    changed = await corpus_outcome(
        "python_doc", "Which function did timeit make its default timer in Python 3.3?"
    )
    assert changed.status == "answered" and "perf_counter" in changed.answer


def test_a_compound_value_answers_no_question_naming_one_of_its_parts() -> None:
    whole = "handshake=0 header=20-40,MinRate=500 body=20,MinRate=500"
    assert part_of_compound("What is the default MinRate for the handshake stage?", whole)
    assert not part_of_compound("What is the default of RequestReadTimeout?", whole)
    assert not part_of_compound("What is the default MinRate?", "MinRate=500")  # one setting is its own value


@pytest.mark.anyio
async def test_the_default_of_one_stage_is_not_the_whole_default() -> None:
    # mod_reqtimeout: "Default: RequestReadTimeout handshake=0 header=20-40,MinRate=500 body=20,MinRate=500"
    question = "What is the default MinRate for the handshake stage of RequestReadTimeout?"
    assert (await corpus_outcome("apache_doc", question)).status == "abstained"
    whole = await corpus_outcome(
        "apache_doc", "What is the default value of the RequestReadTimeout directive?"
    )
    assert whole.status == "answered" and "handshake=0" in whole.answer
