"""Opened pages that disagree: a correction is followed, a plain conflict is refused (issue 11, item 4)."""

from __future__ import annotations

import pytest
from citeloop.events import Abstained, Answered, open_store
from citeloop.policies import ExtractivePolicy
from citeloop.policies._conflict import disagreement, is_correction
from citeloop.policies._prose_finish import choose
from citeloop.policies._questions import analyze
from citeloop.runtime import Outcome, Runtime
from citeloop.tools import Corpus

CORRECTION = "https://news.example/correction-porto"


async def ask(corpus: Corpus, question: str) -> tuple[Outcome, list[object]]:
    async with Runtime(store=open_store("memory://"), tools=corpus.tools(), policy=ExtractivePolicy()) as rt:
        outcome = await rt.run(question)
        return outcome, list(await rt.transcript(outcome.run_id))


@pytest.mark.anyio
async def test_porto_follows_the_correction_not_the_earlier_article(demo: Corpus) -> None:
    outcome, events = await ask(demo, "When did Acme Robotics open its Porto factory?")
    assert outcome.status == "answered" and outcome.answer == "2018"  # never 2017
    assert outcome.citations == (CORRECTION,)
    assert "2018" in outcome.evidence and "Acme Robotics" in outcome.evidence
    answered = events[-1]
    assert isinstance(answered, Answered) and all(v.verdict == "supported" for v in answered.support)


@pytest.mark.anyio
async def test_helicor_answers_the_count_not_the_year(demo: Corpus) -> None:
    outcome, _ = await ask(demo, "How many scooters did Helicor recall?")
    assert outcome.status == "answered" and outcome.answer == "4,000"


@pytest.mark.anyio
async def test_mueller_is_not_answered_with_a_first_name(demo: Corpus) -> None:
    outcome, _ = await ask(demo, "Who founded Müller & Söhne?")
    assert outcome.answer != "Jürgen"
    assert outcome.status == "abstained" or "Müller" in outcome.answer


SAID = "The Tagus bridge in Lisbon opened in {} after four years of work."
PAGES = [
    ("https://a.example/bridge", "Tagus bridge", SAID.format(1966)),
    ("https://b.example/bridge", "Bridge history", SAID.format(1967)),
]


@pytest.mark.anyio
async def test_two_pages_that_disagree_and_neither_corrects_are_refused() -> None:
    corpus = Corpus.from_pages(PAGES)
    try:
        outcome, events = await ask(corpus, "When did the Tagus bridge in Lisbon open?")
    finally:
        corpus.close()
    assert outcome.status == "abstained" and outcome.reason == "conflicting_sources"
    final = events[-1]
    assert isinstance(final, Abstained) and final.candidate is not None
    assert "1966" in final.candidate and "1967" in final.candidate


def test_a_page_is_a_correction_only_when_it_says_so(demo: Corpus) -> None:
    page = demo.open(CORRECTION)
    other = demo.open("https://news.example/porto-factory")
    assert page is not None and other is not None
    assert is_correction(page) and not is_correction(other)


def test_one_fact_per_page_is_no_conflict() -> None:
    # Must fail to conflict: the second page states another fact about the bridge, not another date for it.
    question = analyze("When did the Tagus bridge in Lisbon open?")
    corpus = Corpus.from_pages(
        [PAGES[0], ("https://c.example/b", "Bridge", "The Tagus bridge in Lisbon was painted red in 1990.")]
    )
    try:
        pages = [corpus.open(url) for url in ("https://a.example/bridge", "https://c.example/b")]
    finally:
        corpus.close()
    assert all(p is not None for p in pages)
    choice = choose(question, [p for p in pages if p is not None])
    assert choice is not None and choice.answer == "1966"
    assert disagreement(question, choice.url, choice.answer, choice.scored, [p for p in pages if p]) is None


@pytest.mark.anyio
async def test_a_surname_on_another_page_is_the_same_answer_not_a_conflict(demo: Corpus) -> None:
    # Helicor's page says "Its chief executive is Ines Duarte" two sentences after naming Helicor;
    # Ines Duarte's page says "Duarte has been the chief executive of Helicor": one person. The
    # quote reaches back over "It was formed ..." to the sentence naming Helicor.
    outcome, _ = await ask(demo, "Who is the chief executive of Helicor?")
    assert outcome.status == "answered" and outcome.answer == "Ines Duarte"
    assert outcome.evidence.startswith("Helicor is") and outcome.evidence.endswith("Ines Duarte.")


RIVALS = [
    (
        "https://a.example/helm",
        "Helm Works",
        "Helm Works makes ferries. It was founded in 1990. Its chief executive is Ines Duarte.",
    ),
    (
        "https://b.example/helm",
        "Helm Works today",
        "Helm Works is a ferry maker in Porto. Its chief executive is Rui Costa.",
    ),
]


@pytest.mark.anyio
async def test_two_different_people_named_for_one_post_are_a_conflict() -> None:
    # Neither answering sentence names Helm Works: each says "Its", a sentence or two after the name.
    # (Threshold 0: the conflict check, not the confidence, is what refuses.)
    corpus = Corpus.from_pages(RIVALS)
    try:
        policy = ExtractivePolicy(min_confidence=0.0)
        async with Runtime(store=open_store("memory://"), tools=corpus.tools(), policy=policy) as rt:
            outcome = await rt.run("Who is the chief executive of Helm Works?")
    finally:
        corpus.close()
    assert outcome.status == "abstained" and outcome.reason == "conflicting_sources"
