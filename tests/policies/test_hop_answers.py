"""The second hop's answer span: a place asked by its noun, a person who is no quoted title, and the
bridge quote that reaches back to what "the first track" is of - on small invented corpora, through
the real runtime and gate."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from citeloop.events import Answered, Page, open_store
from citeloop.policies import ExtractivePolicy
from citeloop.policies._questions import analyze
from citeloop.policies._sentences import split_sentences
from citeloop.policies._two_hop import Bridge, second_hop
from citeloop.runtime import Outcome, Runtime
from citeloop.tools import Corpus

VELL = (
    "https://wiki.example/vell",
    "Tomas Vell",
    "Tomas Vell (born 1950) was a chemistry lecturer at Harwick College.",
)
HARWICK = (
    "https://wiki.example/harwick",
    "Harwick College",
    "Harwick College is a private research college located in Lower Fenwick, Port Alder, founded in 1801. "
    "It teaches sciences and law.",
)
MOSS = (
    "https://wiki.example/moss",
    "Iris Moss",
    "Iris Moss is a Welsh painter. She is best known for her portraits of fishermen.",
)
RAIN = (
    "https://wiki.example/rain",
    "Tides of Rain",
    "Tides of Rain is a 1972 album of the ballads of the composer Jonas Brekke, sung by Mara Quell. "
    'The first track, "Under the Pale Moon," was recorded in Oslo.',
)
# The same album, its first sentence naming no composer.
RAIN_SUNG = (RAIN[0], RAIN[1], RAIN[2].replace("of the ballads of the composer Jonas Brekke, sung", "sung"))
MOON = (
    "https://wiki.example/moon",
    "Under the Pale Moon",
    '"Under the Pale Moon" is a song written by Jonas Brekke for the album, named after a line of "The '
    'Night Garden Poem." It was a hit in Norway.',
)


@pytest.fixture
def corpus(request: pytest.FixtureRequest) -> Iterator[Corpus]:
    pages: tuple[tuple[str, str, str], ...] = request.param
    built = Corpus.from_pages(pages, name="hop-answers")
    yield built
    built.close()


async def _ask(corpus: Corpus, question: str) -> tuple[Outcome, list[Answered]]:
    async with Runtime(store=open_store("memory://"), tools=corpus.tools(), policy=ExtractivePolicy()) as rt:
        outcome = await rt.run(question)
        events = await rt.transcript(outcome.run_id)
    return outcome, [e for e in events if isinstance(e, Answered)]


def _page(page: tuple[str, str, str]) -> Page:
    return Page(url=page[0], title=page[1], body=page[2], sha256="0" * 64)


@pytest.mark.anyio
@pytest.mark.parametrize("corpus", [(VELL, HARWICK, MOSS)], indirect=True)
async def test_in_what_city_is_answered_by_the_place_and_the_larger_place_after_its_comma(
    corpus: Corpus,
) -> None:
    # "in what city" asks where: the bridge's page names the place after "in", and the comma adds
    # the larger place - either may be the city, so the answer is both, never "Lower Fenwick" alone.
    outcome, answered = await _ask(
        corpus, "Tomas Vell was a chemistry lecturer at a college that is located in what city?"
    )
    assert outcome.status == "answered" and outcome.answer == "Lower Fenwick, Port Alder"
    assert outcome.citations == (VELL[0], HARWICK[0])
    assert all(verdict.verdict == "supported" for verdict in answered[0].support)


def test_a_who_answer_is_no_quoted_title() -> None:
    question = analyze("Who is the writer of the song that was the first track on the album Tides of Rain?")
    rain, moon = _page(RAIN_SUNG), _page(MOON)
    sentence = split_sentences(rain.body)[1]
    hop = second_hop(question, Bridge(rain, sentence, "Under the Pale Moon"), moon)
    # The longest capitalized run is the quoted poem's title, and the bridge is the quoted song's
    # (its page holds "song" and "album", which made it the answer): the person is the writer named.
    assert hop is not None and hop.answer == "Jonas Brekke"


@pytest.mark.anyio
@pytest.mark.parametrize("corpus", [(RAIN, MOON, MOSS)], indirect=True)
async def test_the_bridge_quote_reaches_back_to_what_the_first_track_is_of(corpus: Corpus) -> None:
    # "The first track, ..." names neither "Tides" nor "Rain": quoted alone, the gate cannot tell
    # whose first track it is. The quote starts at the sentence before, which names the album (and
    # here its composer, whom the song's page says wrote the track).
    outcome, answered = await _ask(
        corpus, "Who is the writer of the song that was the first track on the album Tides of Rain?"
    )
    assert outcome.status == "answered" and outcome.answer == "Jonas Brekke"
    assert outcome.citations == (RAIN[0], MOON[0])
    assert isinstance(outcome.evidence, tuple) and outcome.evidence[0].startswith("Tides of Rain is")
    assert all(verdict.verdict == "supported" for verdict in answered[0].support)


@pytest.mark.anyio
@pytest.mark.parametrize("corpus", [(RAIN_SUNG, MOON, MOSS)], indirect=True)
async def test_a_lead_that_does_not_name_the_writer_is_still_refused(corpus: Corpus) -> None:
    # Without the quoted-title rules this answered "Under the Pale Moon" (the song, for "who").
    # With them, the album's sentence names the album, not the writer; the song's names the writer,
    # not the album: the gate finds no sentence naming the question's album and the answer. Refuse.
    outcome, _ = await _ask(
        corpus, "Who is the writer of the song that was the first track on the album Tides of Rain?"
    )
    assert outcome.status == "abstained"
