"""A second review's cases against this round's prose rules, after the first review's fixes
(test_answer_rules_review4.py): each gave a wrong answer with a real citation before its fix.

Where a case is decided (question kind, short answer) it is checked there; the others go
through the real runtime at threshold 0, so the rule, not the confidence, decides.
"""

from __future__ import annotations

import pytest
from citeloop.policies._questions import analyze
from citeloop.policies._short_answer import short_answer
from helpers.prose_pages import ask_pages


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        # A place noun is "where" only after a preposition of place: these ask for a thing.
        ("What state did Rui Costa represent in the Senate?", "what"),
        ("What country did Portugal beat in the 1990 final?", "what"),
        ("Which country singers recorded Jolene?", "which"),
        ("What city officials were arrested in the Kell scandal?", "what"),
        ("In what city was Rui Costa born?", "where"),
        # "where"/"when" inside the question is a relative clause unless it ends the question.
        ("In 1990 who bought the house where Lenin lived?", "who"),
        ("Among Acme's founders who was oldest when it was founded?", "who"),
        ("The woman who founded Acme was born where?", "where"),
    ],
)
def test_the_kind_a_question_asks(question: str, kind: str) -> None:
    assert analyze(question).kind == kind


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        # The name after "by" is the doer only when "by" follows the asked verb.
        (
            "Who built the Kell Bridge?",
            "In 1990 Borg Steel Industries built the Kell Bridge, which was opened by Ines Duarte.",
            "Borg Steel Industries",
        ),
        (
            "Who founded Acme Robotics?",
            "In 1998 Rui Costa founded Acme Robotics, and he was later succeeded by Ines Duarte.",
            "Rui Costa",
        ),
        # A typed subject is not reached through "of", nor does an opening adverb belong to it.
        (
            "Which company is the maker of the Kell phone?",
            "Rui Costa is the founder of the company that makes the Kell phone, Acme Robotics.",
            "Acme Robotics",
        ),
        (
            "Which actor played Quint in Jaws?",
            "Lee Strasberg was the teacher of the actor who played Quint in Jaws, Robert Shaw.",
            "Robert Shaw",
        ),
        (
            "Which actor is best remembered as Quint in Jaws?",
            "Today Robert Shaw is the actor best remembered as Quint in Jaws.",
            "Robert Shaw",
        ),
        # An opening name answers "who" only before the asked verb.
        (
            "Who built the bridge?",
            "Dickens admired the bridge, which was built in 1850 by local masons.",
            None,
        ),
        (
            "Who built the bridge?",
            "Originally built as a wooden crossing, the bridge was rebuilt in stone.",
            None,
        ),
        (
            "Who designed the Kell Tower?",
            "Originally designed as a water tower, the Kell Tower now houses a museum.",
            None,
        ),
        # A larger place after a comma ends its clause; a name after it is no place.
        (
            "Where was Rui Costa born?",
            "Rui Costa was born in Porto, Ines Duarte in Lisbon, and both in Coimbra.",
            "Porto",
        ),
        # A day or a century answers "when" only beside what is asked, and not as a describing word.
        (
            "When was the Kell Museum founded?",
            "The Kell Museum was founded in a former factory and holds its annual festival on June 12.",
            None,
        ),
        (
            "When was Kell Castle built?",
            "Kell Castle, a replica of a 12th century fortress, was built by Rui Costa.",
            None,
        ),
        ("When did people drown in the Kell flood?", "In March 12 people drowned in the Kell flood.", None),
        # "How old/long/high ...?" needs an amount in a unit of that measure.
        (
            "How old was Rui Costa when he founded Acme Robotics?",
            "Rui Costa founded Acme Robotics in 1998 with two friends.",
            None,
        ),
        (
            "How old is the Kell Church?",
            "The Kell Church was built in 1150 and has been restored 3 times.",
            None,
        ),
        (
            "How long is the Kell Bridge?",
            "The Kell Bridge, opened in 1990, carries 4 lanes of traffic across the river.",
            None,
        ),
        (
            "How high is the Kell Dam?",
            "Construction of the Kell Dam took 6 years and 2 engineers died.",
            None,
        ),
        (
            "How far did Rui Costa travel to reach the South Pole?",
            "Rui Costa travelled with 3 companions to reach the South Pole.",
            None,
        ),
        (
            "How long can a Skua fly in strong wind?",
            "A Skua can fly for 55 minutes in strong wind.",
            "55 minutes",
        ),
    ],
)
def test_the_short_answer_a_sentence_gives(question: str, sentence: str, expected: str | None) -> None:
    assert short_answer(analyze(question), sentence) == expected


HOTEL = (
    "https://wiki.example/acme",
    "Acme Robotics",
    "Braga has many old firms. Acme Robotics bought the Kell Hotel in Porto in 2001. "
    "It was built in 1920 and has 300 rooms. Its general manager is Ines Duarte.",
)


@pytest.mark.anyio
async def test_an_it_chain_reaches_back_past_one_sentence_only_to_the_pages_opening_one() -> None:
    # Mid-page, "It was built in 1920" is the hotel named before it, not the company. (The page's
    # opening sentence may still name two things; its "It" is read as its subject's, a known limit.)
    outcome = await ask_pages((HOTEL,), "Who is the general manager of Acme Robotics?")
    assert outcome.status == "abstained"
