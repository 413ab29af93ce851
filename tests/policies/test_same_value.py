"""Yes-or-no questions one stated value per page settles (policies/_same_value.py): the forms read,
the values read, the verdicts, and the answers through the real runtime and gate, on invented pages."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from citeloop.events import Answered, FinishRejected, Hit, open_store
from citeloop.policies import ExtractivePolicy, same_value_question, settle_same_value, stated_values
from citeloop.policies._compare import title_hit
from citeloop.runtime import Outcome, Runtime
from citeloop.tools import Corpus
from hypothesis import given
from hypothesis import strategies as st

ORIN = (
    "https://wiki.example/orin",
    "Dara Orin",
    "Dara Orin (born 1961) is an American film director and writer.",
)
VESK = ("https://wiki.example/vesk", "Pol Vesk", "Pol Vesk (1902 - 1977) was an Argentine novelist and poet.")
LUND = ("https://wiki.example/lund", "Mira Lund", "Mira Lund is an American screenwriter. She lives in Ohio.")
HALE = ("https://wiki.example/hale", "Tom Hale", "Tom Hale (born 1950) was a Canadian-American author.")
QUILL = ("https://wiki.example/quill", "Ena Quill", "Ena Quill (born 1970) is a British poet.")
BRAE = ("https://wiki.example/brae", "Ian Brae", "Ian Brae (born 1972) is a Scottish poet.")
TIDES = (
    "https://wiki.example/tides",
    "Salt Tides",
    "Salt Tides is a 2011 documentary. It was directed by Noor Aziz and filmed in Oman.",
)
HARBOUR = (
    "https://wiki.example/harbour",
    "Harbour Lights",
    "Harbour Lights is a 2014 documentary directed by Lea Brandt.",
)
QUIET = ("https://wiki.example/quiet", "Quiet Fields", "Quiet Fields is a 2016 documentary about farming.")
# Its opening names its director; a later sentence names another film's, which is not read.
DUNES = (
    "https://wiki.example/dunes",
    "Red Dunes",
    "Red Dunes is a 2020 film directed and co-produced by Lea Brandt. It was shot in Oman. The novel was "
    "filmed before, as Red Sand, directed by Noor Aziz.",
)
# A director named by closed-up initials: the sentence splitter once cut after "D.W.".
ELM = (
    "https://wiki.example/elm",
    "Elm Hollow",
    "Elm Hollow is a 1923 film directed by D.W. Greer. It is silent.",
)
PAGES = (ORIN, VESK, LUND, HALE, QUILL, BRAE, TIDES, HARBOUR, QUIET, DUNES, ELM)


@pytest.fixture(scope="module")
def corpus() -> Iterator[Corpus]:
    built = Corpus.from_pages(PAGES, name="same-value")
    yield built
    built.close()


async def _ask(corpus: Corpus, question: str) -> tuple[Outcome, list[Answered], list[FinishRejected]]:
    async with Runtime(store=open_store("memory://"), tools=corpus.tools(), policy=ExtractivePolicy()) as rt:
        outcome = await rt.run(question)
        events = await rt.transcript(outcome.run_id)
    answered = [e for e in events if isinstance(e, Answered)]
    return outcome, answered, [e for e in events if isinstance(e, FinishRejected)]


@pytest.mark.parametrize(
    ("question", "first", "second", "attribute", "asked", "rest"),
    [
        ("Were Dara Orin and Mira Lund of the same nationality?", "Dara Orin", "Mira Lund", "nationality",
         "", ()),
        ("Are Parents and Madame Figaro published in the same country?", "Parents", "Madame Figaro",
         "nationality", "", ()),
        ("are the documentaries Salt Tides and Harbour Lights by the same director ?", "Salt Tides",
         "Harbour Lights", "director", "", ()),
        ("Were Salt Tides and Harbour Lights directed by the same person?", "Salt Tides", "Harbour Lights",
         "director", "", ()),
        ("Are both Pol Vesk and Tom Hale Argentinian authors?", "Pol Vesk", "Tom Hale", "nationality",
         "Argentine", ("authors",)),
        ("Were Dara Orin and Mira Lund both American?", "Dara Orin", "Mira Lund", "nationality", "American",
         ()),
        # Review chains 3: a year each page dates its subject by.
        ("Were Salt Tides and Harbour Lights released in the same year?", "Salt Tides", "Harbour Lights",
         "year", "", ()),
        ("Were the documentaries Über Tides and Harbour Lights both released in 2004?", "Über Tides",
         "Harbour Lights", "year", "2004", ()),
        # Review chains 3: "and the" inside a title is no third name.
        ("Were The Boat Club and Charley and the Owl directed by the same person?", "The Boat Club",
         "Charley and the Owl", "director", "", ()),
    ],
)  # fmt: skip
def test_the_forms_read(
    question: str, first: str, second: str, attribute: str, asked: str, rest: tuple[str, ...]
) -> None:
    what = same_value_question(question)
    assert what is not None
    assert (what.first, what.second, what.attribute, what.asked, what.rest) == (
        first, second, attribute, asked, rest,
    )  # fmt: skip


@pytest.mark.parametrize(
    "question",
    [
        "Are Dara Orin and Mira Lund American?",  # no "both": a list of names could go on
        "Are Giuseppe Verdi and Ambroise Thomas both Opera composers?",  # not a nationality
        "Were Ann, Dara Orin and Mira Lund of the same nationality?",  # three names
        "Were Ann Ray and Dara Orin and Mira Lund of the same nationality?",  # three names
        "Who were Dara Orin and Mira Lund of the same nationality as?",
        "Are Dara Orin and Mira Lund both film directors?",
        "Were Salt Tides and Harbour Lights released in 2004?",  # no "both": a list could go on
    ],
)
def test_other_questions_are_not_read(question: str) -> None:
    assert same_value_question(question) is None


@pytest.mark.parametrize(
    ("sentence", "attribute", "values"),
    [
        (ORIN[2], "nationality", {"American"}),
        (VESK[2], "nationality", {"Argentine"}),
        (HALE[2], "nationality", {"Canadian", "American"}),  # two: it settles nothing alone
        (
            "Ana Sol (born 1901, American Samoa) was a poet.",
            "nationality",
            set(),
        ),  # a bracket is no definition
        ("Zed Kim is a maker of polish and wax.", "nationality", set()),  # lower case: a common word
        (
            "Zed Kim is a painter, sculptor, teacher, printmaker and later a French citizen.",
            "nationality",
            set(),
        ),
        ("Zed Kim directed films.", "nationality", set()),  # no "is"/"was": no definition
        (TIDES[2], "director", {"Noor Aziz"}),
        (
            "Fargo is a 1996 film directed by Joel Coen and Ethan Coen.",
            "director",
            {"Joel Coen", "Ethan Coen"},
        ),
        (
            "Lo is a film directed by Ann Ray, Bo Li and Cy H. Vance.",
            "director",
            {"Ann Ray", "Bo Li", "Cy H. Vance"},
        ),
        ("Ajo Ruol is a South Sudanese runner.", "nationality", set()),  # not Sudanese
        ("Ann Cole is a Northern Irish poet.", "nationality", set()),  # not Irish
        ("Lo is a film directed by Ann Ray and written by Bo Li.", "director", {"Ann Ray"}),
        (QUIET[2], "director", set()),
        (
            "Hapa is a 2010 documentary film directed by Canadian director Jeff Chiba Stearns.",
            "director",
            {"Jeff Chiba Stearns"},
        ),
        (
            "A Film Unfinished is a 2010 documentary film by Yael Hersonski, which re-examines a film.",
            "director",
            {"Yael Hersonski"},
        ),
        ("Dust is a 2001 novel by Ann Ray.", "director", set()),  # a novel's "by" is its author
        ("Lo is a 2010 documentary film by Ann Ray, which re-examines a 1942 film.", "year", {"2010"}),
        ("Ann Ray (born 1950) is a poet.", "year", set()),  # a life's dates are no year of the subject
        ("Lo is a 1960 film based on the 1950 novel.", "year", {"1960", "1950"}),  # settles nothing
        ("Lo was founded in 1953 by Ann Ray (1901-1980).", "year", {"1953"}),
        # Review chains 3: a second sentence pointing back to the film says who directed it.
        (
            "Lo is a 1970 film starring Ann Ray. It was made by Rio Studios, released by Vista and "
            "directed by Bo Li.",
            "director",
            {"Bo Li"},
        ),
        (
            "Lo is a 1973 film set in a small city. The film, directed by Cy Vance, is based on a book.",
            "director",
            {"Cy Vance"},
        ),
        ("Lo is a 1973 film. Its sequel was directed by Cy Vance.", "director", set()),
    ],
)
def test_the_values_read(sentence: str, attribute: str, values: set[str]) -> None:
    assert stated_values(sentence, attribute) == values  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("question", "sentences", "verdict"),
    [
        ("Were Dara Orin and Mira Lund of the same nationality?", (ORIN[2], LUND[2]), "yes"),
        ("Were Dara Orin and Pol Vesk of the same nationality?", (ORIN[2], VESK[2]), "no"),
        ("Were Dara Orin and Tom Hale of the same nationality?", (ORIN[2], HALE[2]), None),  # two on one side
        (
            "Were Ena Quill and Ian Brae of the same nationality?",
            (QUILL[2], BRAE[2]),
            None,
        ),  # British, Scottish
        ("Are both Pol Vesk and Tom Hale Argentinian authors?", (VESK[2], HALE[2]), "no"),
        ("Are both Dara Orin and Mira Lund American?", (ORIN[2], LUND[2]), "yes"),
        (
            "Are both Dara Orin and Mira Lund American film directors?",
            (ORIN[2], LUND[2]),
            None,
        ),  # Lund writes
        ("Are both Ena Quill and Ian Brae British?", (QUILL[2], BRAE[2]), None),
        ("Are both Ian Brae and Dara Orin British?", (BRAE[2], ORIN[2]), "no"),  # American is not British
        (
            "Were Ian Brae and Ena Quill of the same nationality?",
            ("Ian Brae was a Soviet poet.", "Ena Quill was a Russian poet."),
            None,
        ),  # a whole and its part
        (
            "Were Ian Brae and Ena Quill of the same nationality?",
            ("Ian Brae was a Soviet poet.", "Ena Quill was an American poet."),
            "no",
        ),
        (
            "Were Ian Brae and Ena Quill of the same nationality?",
            ("Ian Brae was a Czech poet.", "Ena Quill was a Slovak poet."),
            "no",
        ),
        ("Were Salt Tides and Harbour Lights directed by the same person?", (TIDES[2], HARBOUR[2]), "no"),
        ("Were Salt Tides and Quiet Fields directed by the same person?", (TIDES[2], QUIET[2]), None),
        # Co-directors: one in common is neither the same people nor others.
        (
            "Were Lo and Fargo directed by the same person?",
            ("Lo is a film directed by Ethan Coen.", "Fargo is a film directed by Joel Coen and Ethan Coen."),
            None,
        ),
        (
            "Were Lo and Fargo directed by the same person?",
            (
                "Lo is a film directed by Joel Coen and Ethan Coen.",
                "Fargo is a film directed by Ethan Coen and Joel Coen.",
            ),
            "yes",
        ),
        (
            "Were Lo and Fargo released in the same year?",
            ("Lo is a 2010 film.", "Fargo is a 2010 documentary film, which re-examines a 1942 film."),
            "yes",
        ),
        (
            "Were Lo and Fargo released in the same year?",
            ("Lo is a 2010 film.", "Fargo is a 1996 film."),
            "no",
        ),
        (
            "Were Lo and Fargo released in the same year?",
            ("Lo is a 1960 film based on a 1950 novel.", "Fargo is a 1960 film."),
            None,
        ),
        ("Were Lo and Fargo both released in 2010?", ("Lo is a 2010 film.", "Fargo is a 2010 film."), "yes"),
        ("Were Lo and Fargo both released in 2010?", ("Lo is a 2010 film.", "Fargo is a 1996 film."), "no"),
    ],
)
def test_the_verdicts(question: str, sentences: tuple[str, str], verdict: str | None) -> None:
    what = same_value_question(question)
    assert what is not None
    assert settle_same_value(what, sentences) == verdict


_NATIONS = ("American", "Argentine", "Argentinian", "French", "English", "British", "Scottish", "Swiss")


@given(st.sampled_from(_NATIONS), st.sampled_from(_NATIONS))
def test_the_same_is_settled_alike_both_ways_and_never_yes_for_different_values(one: str, other: str) -> None:
    what = same_value_question("Were Ann Ray and Bo Li of the same nationality?")
    assert what is not None
    first, second = f"Ann Ray is a {one} poet.", f"Bo Li was a {other} painter."
    verdict = settle_same_value(what, (first, second))
    assert verdict == settle_same_value(what, (second, first))
    if verdict == "yes":
        assert stated_values(first, "nationality") == stated_values(second, "nationality")
    if verdict == "no":
        assert stated_values(first, "nationality") != stated_values(second, "nationality")


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "answer", "cited"),
    [
        ("Were Dara Orin and Mira Lund of the same nationality?", "yes", (ORIN[0], LUND[0])),
        ("Were Dara Orin and Pol Vesk of the same nationality?", "no", (ORIN[0], VESK[0])),
        ("Are both Pol Vesk and Tom Hale Argentinian authors?", "no", (VESK[0], HALE[0])),
        ("Were Salt Tides and Harbour Lights directed by the same person?", "no", (TIDES[0], HARBOUR[0])),
        ("Were Red Dunes and Harbour Lights directed by the same person?", "yes", (DUNES[0], HARBOUR[0])),
        ("Were Red Dunes and Salt Tides directed by the same person?", "no", (DUNES[0], TIDES[0])),
        ("Were Elm Hollow and Harbour Lights directed by the same person?", "no", (ELM[0], HARBOUR[0])),
    ],
)
async def test_answered_with_a_quote_from_each_page_and_supported(
    corpus: Corpus, question: str, answer: str, cited: tuple[str, str]
) -> None:
    outcome, answered, rejected = await _ask(corpus, question)
    assert outcome.status == "answered" and outcome.answer == answer and not rejected
    assert outcome.citations == cited
    (support,) = [s for s in answered[0].support if s.method == "same-value"]
    assert support.verdict == "supported"
    # The director's sentence is the page's second: the quote starts at the first, which names the film.
    assert isinstance(outcome.evidence, tuple) and all(q.split()[0] in question for q in outcome.evidence)


@pytest.mark.anyio
@pytest.mark.parametrize(
    "question",
    [
        "Were Dara Orin and Tom Hale of the same nationality?",  # Hale: two nationalities
        "Were Salt Tides and Quiet Fields directed by the same person?",  # Quiet Fields names no director
        "Were Dara Orin and Nobody Here of the same nationality?",  # no page for the second name
    ],
)
async def test_refused_when_the_pages_do_not_settle_it(corpus: Corpus, question: str) -> None:
    outcome, _, _ = await _ask(corpus, question)
    assert outcome.status == "abstained" and outcome.answer.startswith("cannot:")


def test_the_page_titled_with_the_name_alone_is_its_own() -> None:
    def hit(title: str) -> Hit:
        return Hit(url=f"https://wiki.example/{title}", title=title, snippet="", score=1.0)

    # "Ed Wood" the man and "Ed Wood (film)": both are titled "Ed Wood" without the qualifier.
    found = title_hit("Ed Wood", (hit("Ed Wood (film)"), hit("Ed Wood"), hit("Conrad Brooks")))
    assert found is not None and found.title == "Ed Wood"
    # Two pages qualified alike are still a tie: no page is read rather than the wrong one.
    assert title_hit("Ed Wood", (hit("Ed Wood (film)"), hit("Ed Wood (band)"))) is None
