"""A review's cases against this round's prose rules: each gave a wrong answer with a real
citation (or let one through the gate) before its fix, and must not again.

Through the real runtime at threshold 0, so the rule, not the confidence, decides; the
short-answer and question-kind cases are checked where they are decided.
"""

from __future__ import annotations

import pytest
from citeloop.policies._questions import analyze
from citeloop.policies._short_answer import short_answer
from citeloop.runtime._support import assess_support
from citeloop.tools import Corpus
from helpers.prose_pages import ask_corpus


def _page(slug: str, title: str, body: str) -> tuple[str, str, str]:
    return (f"https://wiki.example/{slug}", title, body)


ADAMS = _page(
    "jqa",
    "John Quincy Adams",
    "John Quincy Adams was born on July 11, 1767, in Braintree. "
    "He was the sixth president of the United States.",
)


@pytest.mark.anyio
@pytest.mark.parametrize("pages_corpus", [(ADAMS,)], indirect=True)
async def test_a_name_with_another_middle_name_is_another_person(pages_corpus: Corpus) -> None:
    outcome = await ask_corpus(pages_corpus, "When was John Adams born?")
    assert outcome.status == "abstained"


@pytest.mark.parametrize(
    ("question", "answer", "quote"),
    [
        (
            "Where was John Smith born?",
            "Leeds",
            "The firm was started by John Adams. The Smith family came from Leeds.",
        ),
        (
            "What did Bill Gates sponsor?",
            "a tax bill",
            "The bill Senator Robert Gates sponsored was a tax bill.",
        ),
    ],
)
def test_the_gate_takes_no_words_between_a_first_and_a_last_name_for_the_name(
    question: str, answer: str, quote: str
) -> None:
    assert [v.verdict for v in assess_support(question, answer, quote, ["focus-entity"])] == ["unsupported"]


@pytest.mark.anyio
@pytest.mark.parametrize(
    "pages_corpus",
    [
        (
            _page("a", "Acme Robotics", "Acme Robotics is a robotics company headquartered in Virginia."),
            _page(
                "b",
                "Acme Robotics (company)",
                "Acme Robotics is a robotics company headquartered in West Virginia.",
            ),
        ),
        (
            _page("a", "Acme Robotics", "Acme Robotics is a robotics company headquartered in York."),
            _page(
                "b",
                "Acme Robotics (company)",
                "Acme Robotics is a robotics company headquartered in New York.",
            ),
        ),
    ],
    indirect=True,
)
async def test_a_place_inside_another_place_name_is_a_conflict(pages_corpus: Corpus) -> None:
    # Only a person is named by part of their name: "York" is not "New York".
    outcome = await ask_corpus(pages_corpus, "Where is Acme Robotics headquartered?")
    assert outcome.status == "abstained" and outcome.reason == "conflicting_sources"


BORG = _page(
    "acme",
    "Acme Robotics",
    "Acme Robotics was founded in 1998 by Rui Costa. He later founded Borg Industries in Porto. "
    "Its chief executive is Ines Duarte.",
)


@pytest.mark.anyio
@pytest.mark.parametrize("pages_corpus", [(BORG,)], indirect=True)
async def test_its_after_a_sentence_about_him_does_not_reach_back_to_the_company(
    pages_corpus: Corpus,
) -> None:
    # "Its" follows "He later founded Borg Industries": the chief executive is Borg's.
    outcome = await ask_corpus(pages_corpus, "Who is the chief executive of Acme Robotics?")
    assert outcome.status == "abstained"


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        (
            "When was St Olaf Cathedral built?",
            "St Olaf Cathedral, which replaced a 10th century church, was built in 1150.",
            "1150",
        ),
        (
            "When did the Siege of Acre end?",
            "The siege lasted from March 20 to May 21, 1799.",
            "March 20 to May 21, 1799",
        ),
        ("When did the Great War happen?", "The war lasted from 1914 to 1918.", "1914 to 1918"),
    ],
)
def test_when_prefers_a_dated_span_and_keeps_a_range_whole(
    question: str, sentence: str, expected: str
) -> None:
    assert short_answer(analyze(question), sentence) == expected


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("In 1990, who bought the hall where the treaty was signed?", "who"),
        ("In the novel, who dies when the ship sinks?", "who"),
        ("Which state senator introduced the Clean Air Bill?", "which"),
        ("What country singer recorded Jolene?", "what"),
        ("Who first predicted how long the Hundred Years War would last?", "who"),
    ],
)
def test_a_wh_word_after_a_comma_or_a_noun_used_as_an_adjective_keeps_the_kind(
    question: str, kind: str
) -> None:
    assert analyze(question).kind == kind


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        ("Who built the bridge?", "Originally the bridge was built by local masons.", None),
        ("Who wrote the poem?", "Nobody knows who wrote the poem.", None),
        ("Who owns the firm?", "Today the firm is owned by several banks.", None),
        ("Who founded the museum?", "Unlike Florence, the museum was founded by Peter Hahn.", "Peter Hahn"),
        ("Who leads Apple?", "Today Apple is led by Tim Cook.", "Tim Cook"),
        (
            "Which president was the first to sign the treaty?",
            "However, Smith was the first president to sign the treaty.",
            "Smith",
        ),
        (
            "Which actor played Quint in Jaws?",
            "Spielberg was the director who cast the actor Robert Shaw as Quint.",
            "Robert Shaw",
        ),
    ],
)
def test_an_opening_word_is_no_name_unless_it_names_the_doer(
    question: str, sentence: str, expected: str | None
) -> None:
    assert short_answer(analyze(question), sentence) == expected
