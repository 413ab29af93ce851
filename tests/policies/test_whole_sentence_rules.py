"""When a sentence may not answer: a whole sentence for a question asking for a person or a name
anywhere in it, "What is X?" answered by a sentence that names X only in passing, a "which N" question
answered from a sentence that never says N, and "who did it" from one that never says the deed.

Each case runs at threshold 0 through the real runtime, so the rule, not the confidence,
decides; each refusal has a twin that the same pages do answer.
"""

from __future__ import annotations

import pytest
from citeloop.tools import Corpus
from helpers.prose_pages import ask_corpus

GARDENS = (
    "https://wiki.example/gardens",
    "Alder Woodland Gardens",
    "Alder Woodland Gardens is an open space in the east of Brackley, flanked by Mill Road and "
    "linking Brackley Zoo with Ferris Park.",
)
FERRIS = (
    "https://wiki.example/ferris",
    "Ferris Park",
    "Ferris Park is a public park in Brackley. It was laid out under the watchful eye of a "
    "landscape architect from Kendal.",
)
STEAMER = (
    "https://wiki.example/steamer",
    "River Queen (boat)",
    "River Queen is a paddle steamer. It was the smaller of two paddle steamers based at Quay "
    "Mills in Dunmore; the other is the Duchess.",
)
QUAY = (
    "https://wiki.example/quay",
    "Quay Mills",
    "Quay Mills is a shopping mall in Dunmore that opened in 2000 on the site of a theme park.",
)
SCORE = (
    "https://wiki.example/score",
    "Harbour (film score)",
    "Harbour: The Music of Lena Voss is a film score by composer Lena Voss, released in 1986 for "
    "the film of the same name.",
)


@pytest.mark.anyio
@pytest.mark.parametrize("pages_corpus", [(GARDENS, FERRIS)], indirect=True)
async def test_a_trailing_who_asks_for_a_person_not_a_sentence(pages_corpus: Corpus) -> None:
    # No sentence names the architect: quoting the gardens' description would answer "who?" with a place.
    outcome = await ask_corpus(
        pages_corpus, "Alder Woodland Gardens links a zoo with a park laid out under the eye of who?"
    )
    assert outcome.status == "abstained"
    assert outcome.reason == "low_confidence"


@pytest.mark.anyio
@pytest.mark.parametrize("pages_corpus", [(SCORE, QUAY)], indirect=True)
async def test_the_name_of_something_is_not_a_whole_sentence(pages_corpus: Corpus) -> None:
    outcome = await ask_corpus(
        pages_corpus, "What is the name of the producer of the film that has a score by Lena Voss?"
    )
    assert outcome.status == "abstained"
    assert outcome.reason == "low_confidence"


@pytest.mark.anyio
@pytest.mark.parametrize("pages_corpus", [(STEAMER, SCORE)], indirect=True)
async def test_what_a_thing_is_is_not_answered_by_a_sentence_naming_it_in_passing(
    pages_corpus: Corpus,
) -> None:
    # The only sentence naming Quay Mills is about a steamer based there.
    outcome = await ask_corpus(pages_corpus, "What is Quay Mills in Dunmore?")
    assert outcome.status == "abstained"
    assert outcome.reason == "low_confidence"


@pytest.mark.anyio
@pytest.mark.parametrize("pages_corpus", [(STEAMER, QUAY)], indirect=True)
async def test_what_a_thing_is_is_answered_by_its_own_definition(pages_corpus: Corpus) -> None:
    outcome = await ask_corpus(pages_corpus, "What is Quay Mills in Dunmore?")
    assert outcome.status == "answered"
    assert "shopping mall" in outcome.answer
    assert outcome.citations == (QUAY[0],)


@pytest.mark.anyio
@pytest.mark.parametrize("pages_corpus", [(STEAMER, QUAY)], indirect=True)
async def test_a_definition_opening_with_it_on_the_things_own_page_answers(pages_corpus: Corpus) -> None:
    # "It was the smaller ..." stands on River Queen's own page: there "it" is the thing asked.
    outcome = await ask_corpus(pages_corpus, "What was River Queen?")
    assert outcome.status == "answered"
    assert outcome.citations == (STEAMER[0],)


PRESS = (
    "https://wiki.example/press",
    "Rook Lane Press",
    "Rook Lane Press was a small publisher of letterpress books in Leeds, printing work by Edith Marr "
    "and Tom Hale.",
)
MARR = (
    "https://wiki.example/marr",
    "Edith Marr",
    "Edith Marr is a Yorkshire author whose poems were printed by Rook Lane Press.",
)


@pytest.mark.anyio
@pytest.mark.parametrize("pages_corpus", [(PRESS, QUAY)], indirect=True)
async def test_which_noun_is_not_answered_from_a_sentence_that_never_says_the_noun(
    pages_corpus: Corpus,
) -> None:
    # The press's sentence names two people and a place, and calls none of them an author.
    outcome = await ask_corpus(
        pages_corpus, "Which Yorkshire author has had work printed by Rook Lane Press?"
    )
    assert outcome.status == "abstained"
    assert outcome.reason == "low_confidence"


@pytest.mark.anyio
@pytest.mark.parametrize("pages_corpus", [(PRESS, MARR)], indirect=True)
async def test_which_noun_is_answered_by_the_name_a_sentence_calls_so(pages_corpus: Corpus) -> None:
    outcome = await ask_corpus(
        pages_corpus, "Which Yorkshire author has had work printed by Rook Lane Press?"
    )
    assert outcome.status == "answered"
    assert outcome.answer == "Edith Marr"
    assert outcome.citations == (MARR[0],)


WANDERER = (
    "https://wiki.example/wanderer",
    "The Wanderer",
    "The Wanderer is an Old English poem. Nobody knows who wrote the poem. It survives in the Exeter Book.",
)
SEAFARER = (
    "https://wiki.example/seafarer",
    "The Seafarer",
    "The Seafarer is an Old English poem written by the monk Aldred Lode in 990.",
)


@pytest.mark.anyio
@pytest.mark.parametrize("pages_corpus", [(WANDERER,)], indirect=True)
async def test_who_did_it_is_not_answered_from_a_sentence_that_never_says_the_deed(
    pages_corpus: Corpus,
) -> None:
    # "The Wanderer is an Old English poem." names no writer: "Old English" is no answer to who wrote it.
    for question in ("Who wrote the poem The Wanderer?", "Who wrote the Old English poem?"):
        outcome = await ask_corpus(pages_corpus, question)
        assert outcome.status == "abstained", question


@pytest.mark.anyio
@pytest.mark.parametrize("pages_corpus", [(SEAFARER,)], indirect=True)
async def test_who_did_it_is_answered_from_a_sentence_saying_the_deed_in_another_form(
    pages_corpus: Corpus,
) -> None:
    # "wrote" asked, "written by" said: one verb.
    outcome = await ask_corpus(pages_corpus, "Who wrote the poem The Seafarer?")
    assert outcome.status == "answered"
    assert outcome.answer == "Aldred Lode"
