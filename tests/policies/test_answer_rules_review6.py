"""A third review's cases against this round's prose rules, after the first two reviews' fixes
(test_answer_rules_review4.py, _review5.py): each gave a wrong answer with a real citation
before its fix. Checked where they are decided; the conflict case through the real runtime.
"""

from __future__ import annotations

import pytest
from citeloop.policies._questions import analyze
from citeloop.policies._short_answer import short_answer
from helpers.prose_pages import ask_pages


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        # A measure is the amount the sentence marks as it, not the first in any unit.
        ("How long is the Kell Tunnel?", "The Kell Tunnel took 6 years to dig and is 12 km long.", "12 km"),
        ("How deep is Lake Kell?", "Lake Kell is 12 kilometres long and 300 metres deep.", "300 metres"),
        (
            "How wide is the Kell Bridge?",
            "The Kell Bridge is 300 metres long and 20 metres wide.",
            "20 metres",
        ),
        (
            "How tall is the Kell Tower?",
            "The Kell Tower stands 2 miles from the river and is 90 metres tall.",
            "90 metres",
        ),
        ("How long ago was Kell Castle built?", "Kell Castle was built in 1150 and is 40 metres long.", None),
        (
            "How old was Rui Costa when he founded Acme?",
            "Rui Costa founded Acme in 1998, 12 years after leaving university.",
            None,
        ),
        (
            "How old is the Kell Church?",
            "The Kell Church is old: it was built in 1150 and restored 20 years ago.",
            None,
        ),
        (
            "How heavy is the Kell Bell?",
            "The Kell Bell hangs beside a 500 kg clock and weighs 3 tonnes.",
            "3 tonnes",
        ),
        (
            "How long did the siege of Kell last?",
            "Fought along a 20 km front, the siege of Kell lasted 3 months.",
            "3 months",
        ),
        # An opening name answers "who" only before the asked verb itself, done to what is asked.
        (
            "Who composed the Kell Symphony?",
            "Duarte completed the Kell Symphony after the composer's death.",
            None,
        ),
        (
            "Who founded the Kell Museum?",
            "Duarte found the Kell Museum closed when she visited in 1990.",
            None,
        ),
        ("Who founded Acme Robotics?", "Costa founded the firm that later bought Acme Robotics.", None),
        # "By" names the doer only after the asked verb, in a sentence naming what is asked before it.
        (
            "Who founded the Kell Museum?",
            "The Kell Museum, established by Rui Manuel Costa, displays a painting found by Ines Duarte.",
            "Rui Manuel Costa",
        ),
        (
            "Who designed the Kell Tower?",
            "In 1900 Rui Manuel Costa designed the Kell Tower, later designated by Ines Duarte a monument.",
            "Rui Manuel Costa",
        ),
        (
            "Who founded Acme Robotics?",
            "Borg Industries, founded by Pedro Lima, bought Acme Robotics, which Rui Manuel Costa founded.",
            "Rui Manuel Costa",
        ),
        (
            "Who discovered the Kell Comet?",
            "The Kell Comet, first spotted by Rui Manuel Costa, was discussed by Ines Duarte in 1990.",
            "Rui Manuel Costa",
        ),
        # "Which N" types only a subject whose phrase ends at N.
        (
            "Which film won the Palme d'Or in 1990?",
            "Rui Costa is a film director whose Kell River Story won the Palme d'Or in 1990.",
            "Kell River Story",
        ),
        (
            "Which actor played Quint in Jaws?",
            "Ines Duarte is an actor's agent who signed Robert Archibald Shaw to play Quint in Jaws.",
            "Robert Archibald Shaw",
        ),
        (
            "Which actor played Quint in Jaws?",
            "Lee Strasberg was a mentor to the actor who played Quint in Jaws, Robert Archibald Shaw.",
            "Robert Archibald Shaw",
        ),
        (
            "Which team won the 1990 Kell Cup?",
            "Rui Costa was the team captain when Sporting Clube de Braga won the 1990 Kell Cup.",
            "Sporting Clube de Braga",
        ),
        # A day or century dating something else is no answer to "when".
        ("When was Kell Castle built?", "Kell Castle was built to house relics from the 12th century.", None),
        (
            "When was the Kell Museum founded?",
            "The Kell Museum was founded to display art of the 18th century.",
            None,
        ),
        (
            "When was the Kell Museum founded?",
            "The Kell Museum was founded to mark the Battle of Kell, fought on June 12.",
            None,
        ),
        # A maker named in a descriptive phrase is still the maker.
        (
            "Who painted the Kell Madonna?",
            "The Kell Madonna is a Leonardo da Vinci painting owned by Costa.",
            "Leonardo da Vinci",
        ),
        # "In what state/country ...": the place called so, or the last of a chain; never an adjective.
        ("In what state is the Kell Dam?", "The Kell Dam is on Lake Erie in the state of Ohio.", "Ohio"),
        (
            "From what country did Acme Robotics buy its steel?",
            "Acme Robotics bought its steel from Borg in the United Kingdom.",
            "United Kingdom",
        ),
        (
            "In what country was Rui Costa born?",
            "Rui Costa was born at Kell Farm near Braga in Portugal.",
            "Portugal",
        ),
        ("In what country did Rui Costa die?", "Rui Costa was a Portuguese engineer.", None),
    ],
)
def test_the_short_answer_a_sentence_gives(question: str, sentence: str, expected: str | None) -> None:
    assert short_answer(analyze(question), sentence) == expected


@pytest.mark.anyio
async def test_a_surname_is_the_same_person_only_on_that_persons_own_page() -> None:
    # "the younger Dumas" may be Alexandre Dumas's son: two novels' pages disagree.
    pages = (
        (
            "https://wiki.example/kl",
            "Kell Letters",
            "The Kell Letters are a French epistolary novel written by Alexandre Dumas in 1850.",
        ),
        (
            "https://wiki.example/kl2",
            "Kell Letters (novel)",
            "The Kell Letters are a French epistolary novel written by the younger Dumas in 1850.",
        ),
    )
    outcome = await ask_pages(pages, "Who wrote the Kell Letters?")
    assert outcome.status == "abstained" and outcome.reason == "conflicting_sources"
