"""What the general path does not answer a nested or an offered-pair question with (policies/_nested.py,
and the "who" bridge in policies/_two_hop.py), on invented pages through the real runtime and gate.

Each case stands for a wrong answer a review of 50 new two-hop questions over the dev half's
HotpotQA paragraphs found (measured before it was read)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from citeloop.events import Page, open_store
from citeloop.policies import ExtractivePolicy
from citeloop.policies._nested import from_named_page, offered_answer
from citeloop.policies._questions import analyze
from citeloop.runtime import Outcome, Runtime
from citeloop.tools import Corpus

VELL = (
    "https://wiki.example/vell",
    "Tomas Vell",
    "Tomas Vell (born 1950) was a chemistry lecturer who taught at Harwick College from 1978 to 1990.",
)
HARWICK = (
    "https://wiki.example/harwick",
    "Harwick College",
    "Harwick College is a private college in Lower Fenwick.",
)
ARRI = (
    "https://wiki.example/arri",
    "Marco Arri",
    "Marco Arri (1840 - 1896) was an Italian general who died at the Battle of Adwa in the First Arri War.",
)
WAR = (
    "https://wiki.example/war",
    "First Arri War",
    "The First Arri War was fought between Italy and Ethiopia from 1895 to 1896. Ethiopia was ruled by the "
    "emperor Menel Tessa, who led its army.",
)
WOLL = (
    "https://wiki.example/woll",
    "Wollongbar",
    "Wollongbar is a town in New South Wales (2011 population: 2,396).",
)
ALST = (
    "https://wiki.example/alst",
    "Alstonville",
    "Alstonville is a town in New South Wales (2011 population: 5,739).",
)


HONOURS = (
    "https://wiki.example/honours-1925",
    "1925 Birthday Honours",
    "The 1925 Birthday Honours were appointments by King Gerald V to various orders and honours.",
)
GERALD = (
    "https://wiki.example/gerald-v",
    "King Gerald V",
    "King Gerald V (3 June 1865 - 20 January 1936) was King of Nordland from 1910 until his death.",
)


@pytest.fixture(scope="module")
def corpus() -> Iterator[Corpus]:
    built = Corpus.from_pages((VELL, HARWICK, ARRI, WAR, WOLL, ALST, HONOURS, GERALD), name="nested")
    yield built
    built.close()


async def _ask(corpus: Corpus, question: str) -> Outcome:
    async with Runtime(store=open_store("memory://"), tools=corpus.tools(), policy=ExtractivePolicy()) as rt:
        return await rt.run(question)


@pytest.mark.anyio
async def test_a_nested_question_is_not_answered_from_the_page_of_the_name_it_writes(corpus: Corpus) -> None:
    # Vell's page gives Vell's years ("from 1978 to 1990"), not the college's founding; its page says none.
    outcome = await _ask(corpus, "When was the college that Tomas Vell taught at founded?")
    assert outcome.status == "abstained", outcome.answer


@pytest.mark.anyio
async def test_who_is_never_answered_with_a_bridge_that_is_no_one(corpus: Corpus) -> None:
    # The war's page says "ruled", but a war is no one: the span its page gives for "who" answers.
    outcome = await _ask(corpus, "Who ruled Ethiopia in the war in which Marco Arri died?")
    assert outcome.status == "answered" and outcome.answer == "Menel Tessa"
    assert outcome.citations == (ARRI[0], WAR[0])


@pytest.mark.anyio
async def test_an_offered_pair_is_answered_by_one_of_the_two_or_refused(corpus: Corpus) -> None:
    # Both towns' pages name "New South Wales": a name both give is no answer to "A or B?".
    outcome = await _ask(corpus, "Which town had the larger 2011 population, Wollongbar or Alstonville?")
    assert outcome.status == "abstained", outcome.answer


@pytest.mark.anyio
async def test_a_first_page_that_never_states_the_year_asked_is_no_first_hop(corpus: Corpus) -> None:
    # The 1925 honours' king is not the 1951 honours' king: his birth date does not answer.
    asked = await _ask(corpus, "When was the King who made the 1951 Birthday Honours born?")
    assert asked.status == "abstained", asked.answer
    stated = await _ask(corpus, "When was the King who made the 1925 Birthday Honours born?")
    assert stated.status == "answered" and stated.answer == "3 June 1865"


def _page(page: tuple[str, str, str]) -> Page:
    return Page(url=page[0], title=page[1], body=page[2], sha256="0" * 64)


def test_a_page_of_an_article_titled_with_its_topic_names_no_entity() -> None:
    question = analyze("When did the Normans who settled in Sicily found the kingdom?")
    normans = [
        Page(url=f"squad://Normans/{i}", title="Normans", body="Text.", sha256="0" * 64) for i in range(3)
    ]
    # Three paragraphs of one article share its title: the title is a topic, and the page may answer.
    assert not from_named_page(question, normans[0], normans)
    assert from_named_page(question, normans[0], normans[:1])
    described = analyze("Which American actor who starred in Tomas Vell's play was born in 1950?")
    assert not from_named_page(described, _page(VELL), [_page(VELL)])


def test_an_offered_answer_is_one_of_the_two_names() -> None:
    pair = ("Wollongbar", "Alstonville")
    assert offered_answer(pair, "Alstonville") and offered_answer(pair, "the Alstonville town")
    assert not offered_answer(pair, "New South Wales")
    assert not offered_answer(pair, "Wollongbar is a town in New South Wales (2011 population: 2,396).")
    assert offered_answer(None, "New South Wales")
