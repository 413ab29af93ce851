"""Support through the Runtime: the verdicts in the log, `unsupported_answer` and its repair turn, `check`.

Also the abstention reasons a policy may ask for (`low_confidence`, `conflicting_sources`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from citeloop.events import (
    Abstained,
    Answered,
    Event,
    FinishRejected,
    RunStarted,
    Support,
    encode_event,
    stamp_chain,
)
from citeloop.policies import finish_reply, react
from citeloop.runtime import check_events
from citeloop.tools import Corpus
from helpers.replied import replied_run

pytestmark = pytest.mark.anyio

RECALL_URL = "https://news.example/helicor-recall"
RECALL = "In August 2022 Helicor recalled 4,000 H2 scooters because of a faulty charger."
WIKI = "https://wiki.example/acme"
FOUNDING = "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon."
PORTO = "https://news.example/porto-factory"
CORRECTION = "https://news.example/correction-porto"
MUELLER = "https://wiki.example/mueller-soehne"
MUELLER_BODY = (
    "Müller & Söhne was founded by Karl Müller in 1921 in Bremen. "
    "Jürgen Müller, his grandson, ran the bakery from 1961 to 1990."
)


@pytest.fixture(scope="module")
def corpus() -> Iterator[Corpus]:
    """The demo corpus, plus a page about Müller & Söhne (the demo has none)."""
    demo = Corpus.demo()
    pages = []
    for url in demo.urls():
        page = demo.open(url)
        assert page is not None
        pages.append((url, page.title, page.body))
    demo.close()
    extended = Corpus.from_pages([*pages, (MUELLER, "Müller & Söhne", MUELLER_BODY)])
    yield extended
    extended.close()


run = replied_run


def opening(url: str) -> str:
    return react(f"read {url}", "open", url)


def of_type(events: list[Event], kind: type[Any]) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]


# -- the wrong answers are refused, the right ones pass ------------------------


async def test_a_year_for_a_count_is_refused_then_the_count_passes(corpus: Corpus) -> None:
    events = await run(
        corpus,
        "How many scooters did Helicor recall?",
        opening(RECALL_URL),
        finish_reply("the year", "2022", [RECALL_URL], RECALL),
        finish_reply("the count", "4,000", [RECALL_URL], RECALL),
    )
    (rejected,) = of_type(events, FinishRejected)
    assert rejected.code == "unsupported_answer"
    assert [(v.method, v.verdict) for v in rejected.support] == [
        ("answer-in-quote", "supported"),
        ("focus-entity", "supported"),
        ("number-unit", "contradicted"),
    ]
    assert "4000 scooter" in rejected.support[-1].detail
    answered = events[-1]
    assert isinstance(answered, Answered) and answered.answer == "4,000"
    assert [v.verdict for v in answered.support] == ["supported"] * 3
    assert check_events(events).ok


async def test_a_name_from_a_sentence_not_about_the_company_is_refused(corpus: Corpus) -> None:
    grandson = "Jürgen Müller, his grandson, ran the bakery from 1961 to 1990."
    events = await run(
        corpus,
        "Who founded Müller & Söhne?",
        opening(MUELLER),
        finish_reply("a Müller", "Jürgen", [MUELLER], grandson),
        finish_reply("the founder", "Karl Müller", [MUELLER], MUELLER_BODY.split(" Jürgen")[0]),
    )
    (rejected,) = of_type(events, FinishRejected)
    assert rejected.code == "unsupported_answer"
    focus = next(v for v in rejected.support if v.method == "focus-entity")
    assert focus.verdict == "unsupported" and "Müller & Söhne" in focus.detail
    answered = events[-1]
    assert isinstance(answered, Answered) and answered.answer == "Karl Müller"
    assert check_events(events).ok


async def test_a_name_from_another_company_is_refused_twice_then_the_run_abstains(corpus: Corpus) -> None:
    wrong = finish_reply("a founder", "Ada Ortiz", [WIKI], FOUNDING)
    events = await run(corpus, "Who founded Müller & Söhne?", opening(WIKI), wrong, wrong)
    assert [e.code for e in of_type(events, FinishRejected)] == ["unsupported_answer"] * 2
    final = events[-1]
    assert isinstance(final, Abstained) and final.reason == "invalid_finish"
    assert final.detail == "unsupported_answer"
    assert check_events(events).ok


@pytest.mark.parametrize(
    ("question", "url", "answer", "evidence"),
    [
        ("Who founded Acme Robotics?", WIKI, "Ada Ortiz", FOUNDING),
        ("Who founded Acme Robotics?", WIKI, "Acme Robotics was founded by Ada Ortiz.", FOUNDING),
        ("How many scooters did Helicor recall?", RECALL_URL, "4000 scooters", RECALL),
        ("When did Helicor recall its scooters?", RECALL_URL, "August 2022", RECALL),
        (
            "Who is the current CEO?",
            "https://news.example/ada",
            "Kenji Ito",
            "Ortiz left in 2021. Current CEO is Kenji Ito.",
        ),
    ],
)
async def test_right_answers_pass(
    corpus: Corpus, question: str, url: str, answer: str, evidence: str
) -> None:
    events = await run(corpus, question, opening(url), finish_reply("found it", answer, [url], evidence))
    answered = events[-1]
    assert isinstance(answered, Answered), events[-1]
    assert answered.support and all(v.verdict == "supported" for v in answered.support)
    assert check_events(events).ok


# -- the configured set, and logs written before it -------------------------------------


async def test_the_run_records_its_methods_and_support_off_accepts_as_before(corpus: Corpus) -> None:
    question = "How many scooters did Helicor recall?"
    wrong = finish_reply("the year", "2022", [RECALL_URL], RECALL)
    checked = await run(corpus, question, opening(RECALL_URL), wrong, wrong)
    started = checked[0]
    assert isinstance(started, RunStarted)
    assert started.support == ("answer-in-quote", "focus-entity", "number-unit", "same-value", "yes-no")

    unchecked = await run(corpus, question, opening(RECALL_URL), wrong, support=())
    started, answered = unchecked[0], unchecked[-1]
    assert isinstance(answered, Answered) and answered.support == ()
    # Nothing new in the bytes: a run without support encodes as every run did before it.
    assert b'"support"' not in b"".join(encode_event(event) for event in unchecked)
    assert check_events(unchecked).ok  # judged by the methods its own RunStarted names: none

    only_text = await run(corpus, question, opening(RECALL_URL), wrong, support=["answer-in-quote"])
    answered = only_text[-1]
    assert isinstance(answered, Answered)
    assert [v.method for v in answered.support] == ["answer-in-quote"]


async def test_a_method_of_your_own_by_name(corpus: Corpus) -> None:
    def never(case: object) -> tuple[str, str]:
        return "unsupported", "never supported"

    methods = {"never": never}
    events = await run(
        corpus,
        "Who founded Acme Robotics?",
        opening(WIKI),
        finish_reply("found it", "Ada Ortiz", [WIKI], FOUNDING),
        finish_reply("found it", "Ada Ortiz", [WIKI], FOUNDING),
        support=methods,
    )
    rejected = of_type(events, FinishRejected)
    assert [r.support for r in rejected] == [
        (Support(method="never", verdict="unsupported", detail="never supported"),)
    ] * 2
    assert check_events(events, support_methods=methods).ok
    # Without the method, check cannot judge as the run was judged: a divergence, never a pass.
    assert not check_events(events).ok


# -- check re-derives the verdicts -------------------------------------------------------


def edited(events: list[Event], index: int, **changes: object) -> list[Event]:
    changed = list(events)
    changed[index] = events[index].model_copy(update=changes)
    return list(stamp_chain(changed, None)[0])  # a forger who recomputes the chain


async def test_an_edited_support_verdict_is_a_divergence(corpus: Corpus) -> None:
    events = await run(
        corpus,
        "How many scooters did Helicor recall?",
        opening(RECALL_URL),
        finish_reply("the year", "2022", [RECALL_URL], RECALL),
        finish_reply("the count", "4,000", [RECALL_URL], RECALL),
    )
    rejected_at = next(i for i, e in enumerate(events) if isinstance(e, FinishRejected))
    rejected = events[rejected_at]
    assert isinstance(rejected, FinishRejected)
    softened = tuple(v.model_copy(update={"verdict": "supported"}) for v in rejected.support)
    (divergence,) = check_events(edited(events, rejected_at, support=softened)).divergences
    assert divergence.kind == "gate"
    assert "number-unit: supported" in divergence.recorded and "number-unit: contradicted" in divergence.today

    answered = events[-1]
    assert isinstance(answered, Answered)
    (divergence,) = check_events(edited(events, len(events) - 1, support=answered.support[:1])).divergences
    assert divergence.kind == "answer" and "support" in divergence.recorded
    # Dropping the verdicts altogether, as if the run had checked none, is found too.
    assert not check_events(edited(events, len(events) - 1, support=())).ok
    # And so is an Answered forged over the rejected finish.
    assert not check_events(edited(events, rejected_at, code="evidence", support=())).ok


# -- the abstention reasons a policy may ask for ----------------------------------------


def abstaining(hint: object, why: str = "no trusted answer") -> str:
    payload = {
        "answer": f"cannot: {why}",
        "citations": [],
        "cannot_answer": True,
        "evidence": "",
        "abstain": hint,
    }
    return react("refuse", "finish", json.dumps(payload, ensure_ascii=False))


async def test_low_confidence_records_the_candidate_and_its_score(corpus: Corpus) -> None:
    hint = {"reason": "low_confidence", "candidate": "2017", "score": 0.41}
    events = await run(corpus, "When did Acme open its Porto factory?", opening(PORTO), abstaining(hint))
    final = events[-1]
    assert isinstance(final, Abstained)
    assert (final.reason, final.candidate, final.score) == ("low_confidence", "2017", 0.41)
    assert final.answer == "cannot: no trusted answer"
    assert check_events(events).ok


async def test_conflicting_sources_needs_two_opened_pages(corpus: Corpus) -> None:
    hint = {"reason": "conflicting_sources", "candidate": "2017 or 2018"}
    question = "When did Acme open its Porto factory?"
    events = await run(corpus, question, opening(PORTO), opening(CORRECTION), abstaining(hint))
    final = events[-1]
    assert isinstance(final, Abstained) and final.reason == "conflicting_sources"
    assert final.candidate == "2017 or 2018" and final.score is None
    assert check_events(events).ok
    # One page cannot disagree with itself: the log says missing_fact, and what was asked is kept.
    events = await run(corpus, question, opening(PORTO), abstaining(hint))
    final = events[-1]
    assert isinstance(final, Abstained) and final.reason == "missing_fact"
    assert final.detail == "asked for conflicting_sources" and final.candidate is None
    # Nothing opened and no hit seen: no_hits, whatever was asked.
    events = await run(corpus, question, abstaining({"reason": "low_confidence", "candidate": "2017"}))
    final = events[-1]
    assert isinstance(final, Abstained) and final.reason == "no_hits"


@pytest.mark.parametrize(
    ("hint", "code"),
    [
        ({"reason": "budget"}, "types"),  # only missing_fact, low_confidence, conflicting_sources
        ({"reason": "low_confidence"}, "types"),  # low confidence in what? a candidate is required
        ({"reason": "low_confidence", "candidate": "  "}, "types"),
        ({"reason": "missing_fact", "score": True}, "types"),
        ({"reason": "missing_fact", "score": "high"}, "types"),
        ({"reason": "missing_fact", "why": "x"}, "types"),
        ("low_confidence", "types"),
    ],
)
async def test_a_malformed_hint_is_rejected(corpus: Corpus, hint: object, code: str) -> None:
    events = await run(corpus, "When did Acme open its Porto factory?", opening(PORTO), abstaining(hint))
    assert of_type(events, FinishRejected)[0].code == code


async def test_the_hint_belongs_to_an_abstention_and_four_keys_still_abstain(corpus: Corpus) -> None:
    payload = {
        "answer": "2017",
        "citations": [PORTO],
        "cannot_answer": False,
        "evidence": "Acme Robotics opened its first factory in Porto in 2017",
        "abstain": {"reason": "missing_fact"},
    }
    positive = react("answer", "finish", json.dumps(payload))
    plain = abstaining({"reason": "missing_fact"}).replace(', "abstain": {"reason": "missing_fact"}', "")
    events = await run(corpus, "When did Acme open its Porto factory?", opening(PORTO), positive, plain)
    assert of_type(events, FinishRejected)[0].code == "keys"
    final = events[-1]
    assert isinstance(final, Abstained) and final.reason == "missing_fact" and final.candidate is None
    assert b'"candidate"' not in encode_event(final)
