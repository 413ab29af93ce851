"""`yes-no` (runtime/_support_yes_no.py): a "yes" or "no" held to what its quote says, directly and
through the Runtime, where a "no" the quote contradicts gets the repair turn."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from citeloop.events import Answered, Event, FinishRejected, MemoryStore
from citeloop.policies import finish_reply, react
from citeloop.runtime import SUPPORT_METHODS, Runtime, assess_support, check_events
from citeloop.tools import Corpus
from helpers.fakes import ReplyQueue
from hypothesis import given
from hypothesis import strategies as st

SUPPORTS = "Postfix version 2.2 and later supports IPv6."
LACKS = "Postfix does not support IPv6 on this platform."


def _judge(question: str, answer: str, evidence: str) -> tuple[str, str] | None:
    verdicts = assess_support(question, answer, evidence, ["yes-no"], SUPPORT_METHODS)
    return (verdicts[0].verdict, verdicts[0].detail) if verdicts else None


@pytest.mark.parametrize(
    ("question", "answer", "evidence", "verdict"),
    [
        ("Does Postfix support IPv6?", "yes", SUPPORTS, "supported"),
        ("Does Postfix support IPv6?", "Yes, since 2.2.", SUPPORTS, "supported"),
        ("Does Postfix support IPv6?", "no", SUPPORTS, "contradicted"),
        ("Does Postfix support IPv6?", "No.", LACKS, "supported"),
        ("Does Postfix support IPv6?", "yes", LACKS, "contradicted"),
        ("Is Kenji the CEO?", "Yes.", "Current CEO is Kenji Ito.", "supported"),
        # A "no" read from another value is not checked mechanically.
        ("Is the default port 8080?", "no", "The default port is 8000.", "unsupported"),
        ("Does Postfix support IPv6?", "yes", "Postfix is a mail server.", "unsupported"),
        ("Can servers share one log?", "yes", "Many servers can share one log file.", "supported"),
    ],
)
def test_the_verdicts(question: str, answer: str, evidence: str, verdict: str) -> None:
    judged = _judge(question, answer, evidence)
    assert judged is not None and judged[0] == verdict, judged


def test_the_detail_names_the_words_the_quote_does_not_say() -> None:
    assert _judge("Is the default port 8080?", "no", "The default port is 8000.") == (
        "unsupported",
        "the quote does not say 8080",
    )


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What is the default of smtpd_tls_auth_only?", "no"),  # a value, not a verdict
        ("Does Postfix support IPv6?", "Postfix 2.2"),  # not a yes or no: the other methods judge it
        ("Isn't IPv6 supported by Postfix?", "yes"),  # which way "no" points is the asker's
        ("Is IPv6 not supported by Postfix?", "yes"),
        ("Were Dara Orin and Pol Vesk of the same nationality?", "no"),  # same-value's
    ],
)
def test_other_answers_and_questions_are_not_judged(question: str, answer: str) -> None:
    assert _judge(question, answer, SUPPORTS) is None


_FILLER = st.lists(st.sampled_from(["since", "version", "release", "fully", "the", "platform"]), max_size=4)


@given(_FILLER, _FILLER, st.booleans())
def test_a_negation_flips_which_verdict_the_same_words_support(
    before: list[str], after: list[str], negated: bool
) -> None:
    quote = " ".join([*before, "Postfix", *(["not"] if negated else []), "supports", "IPv6", *after])
    yes = _judge("Does Postfix support IPv6?", "yes", quote)
    no = _judge("Does Postfix support IPv6?", "no", quote)
    assert yes is not None and no is not None
    assert (yes[0] == "supported") != negated and (no[0] == "supported") == negated
    assert "contradicted" in (yes[0], no[0])


@pytest.fixture(scope="module")
def corpus() -> Iterator[Corpus]:
    built = Corpus.demo()
    yield built
    built.close()


async def _run(corpus: Corpus, question: str, *replies: str) -> list[Event]:
    store = MemoryStore()
    async with Runtime(store=store, tools=corpus.tools(), policy=ReplyQueue(*replies)) as rt:
        outcome = await rt.run(question)
    return await store.read(outcome.run_id)


@pytest.mark.anyio
async def test_a_no_the_quote_contradicts_is_rejected_then_the_yes_is_accepted(corpus: Corpus) -> None:
    url = next(u for u in corpus.urls() if "acme" in u and "porto" not in u)
    page = corpus.open(url)
    assert page is not None
    quote = next(s for s in page.body.split(". ") if "founded" in s and "Lisbon" in s)
    question = "Was Acme Robotics founded in Lisbon?"
    events = await _run(
        corpus,
        question,
        react("open", "open", url),
        finish_reply("guess", "no", [url], quote),
        finish_reply("read", "yes", [url], quote),
    )
    (rejected,) = [e for e in events if isinstance(e, FinishRejected)]
    assert rejected.code == "unsupported_answer"
    assert [(v.method, v.verdict) for v in rejected.support if v.method == "yes-no"] == [
        ("yes-no", "contradicted")
    ]
    answered = events[-1]
    assert isinstance(answered, Answered) and answered.answer == "yes"
    assert all(v.verdict == "supported" for v in answered.support)
    assert check_events(events).ok
