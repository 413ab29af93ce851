"""A question whose gap sits after words a sentence also writes ("X was the co-founder of what
outlet?"): the name after those words answers - unless the sentence changes one of the question's
words, negates it, or puts another subject first. Unit cases on invented pages, and the whole
path through the real runtime and gate."""

from __future__ import annotations

import hashlib

import pytest
from citeloop.events import Page, open_store
from citeloop.policies import ExtractivePolicy
from citeloop.policies._cloze import fill_gap
from citeloop.policies._questions import analyze
from citeloop.runtime import Runtime
from citeloop.tools import Corpus


def _page(title: str, body: str) -> Page:
    url = "https://wiki.example/" + title.replace(" ", "_")
    return Page(url=url, title=title, body=body, sha256=hashlib.sha256(body.encode()).hexdigest())


def _filled(question: str, *pages: Page) -> str | None:
    found = fill_gap(analyze(question), pages)
    return None if found is None else found.answer


VANE = _page(
    "Orla Vane",
    'Orla Vane, (b. 3 May 1961) Irish editor, the co-founder of "The Ledger Review", a not-for-profit '
    "journal of science writing, and its editor until 2015.",
)


def test_the_name_after_the_questions_words_fills_its_gap() -> None:
    assert (
        _filled("Orla Vane was the co-founder of what not-for-profit journal?", VANE) == "The Ledger Review"
    )


def test_a_question_opening_with_its_gap_has_no_words_before_it() -> None:
    assert _filled("What journal did Orla Vane co-found?", VANE) is None


def test_a_changed_word_of_the_question_is_another_question() -> None:
    # "The Second Minister" against "The First Minister": SQuAD 2.0's unanswerable kind.
    page = _page(
        "Chamber", "The First Minister and the Law officers sit in the front row of the Grey Chamber."
    )
    assert _filled("The Second Minister and which officers sit in the front row?", page) is None
    assert (
        _filled(
            "Who sits in the front row of the Grey Chamber with the First Minister and which officers?", page
        )
        is None
    )


def test_a_word_after_the_gap_must_be_said_too() -> None:
    page = _page("Assembly", "The independence of members of the Harbour Assembly tends to be low.")
    assert _filled("The independence of members of which assembly tends to be high?", page) is None
    assert (
        _filled("The independence of members of which assembly tends to be low?", page) == "Harbour Assembly"
    )


def test_a_negated_sentence_does_not_fill_a_plain_question() -> None:
    page = _page("Acts", "Acts of the Harbour Assembly do not begin with a formal enacting clause.")
    assert _filled("The acts of what assembly begin with a formal enacting clause?", page) is None


def test_not_for_profit_is_no_negation() -> None:
    assert _filled("Orla Vane was the co-founder of what journal?", VANE) == "The Ledger Review"


def test_the_subject_must_come_before_the_relation() -> None:
    page = _page(
        "Backbone", "The backbone was built and operated by Merrow Telecom under a contract with the ISB."
    )
    assert _filled("ISB was built and operated by whom?", page) is None
    assert _filled("The backbone was built and operated by whom?", page) == "Merrow Telecom"


def test_a_lone_adjective_before_a_description_yields_the_name_after_it() -> None:
    page = _page("Salt Roads", "Salt Roads is the fourth album by Welsh folk singer Carys Penn.")
    assert _filled("Salt Roads is the fourth album by which folk singer?", page) == "Carys Penn"


def test_two_pages_filling_the_gap_differently_fill_nothing() -> None:
    other = _page("Orla Vane (poet)", 'Orla Vane, an editor, was the co-founder of "North Verse".')
    assert _filled("Orla Vane was the co-founder of what journal?", VANE, other) is None


def test_a_name_the_question_spells_is_no_answer() -> None:
    page = _page("Ledger", "Orla Vane was the co-founder of Orla Vane Press.")
    assert _filled("Orla Vane was the co-founder of what press?", page) is None


@pytest.mark.anyio
async def test_the_filled_gap_is_answered_through_the_gate() -> None:
    distractor = (
        "https://wiki.example/Science_writing",
        "Science writing",
        "Science writing is journalism about science for a general audience.",
    )
    corpus = Corpus.from_pages([(VANE.url, VANE.title, VANE.body), distractor], name="cloze")
    try:
        async with Runtime(
            store=open_store("memory://"), tools=corpus.tools(), policy=ExtractivePolicy()
        ) as rt:
            outcome = await rt.run("Orla Vane was the co-founder of what not-for-profit journal?")
    finally:
        corpus.close()
    assert outcome.status == "answered", outcome.answer
    assert outcome.answer == "The Ledger Review"
    assert outcome.citations == (VANE.url,) or list(outcome.citations) == [VANE.url]
