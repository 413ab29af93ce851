"""`same-value` (runtime/_support_same.py): a "yes" or "no" checked against the value each quote states,
directly and through the Runtime, where a wrong verdict gets the repair turn."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest
from citeloop.events import Answered, FinishRejected
from citeloop.policies import finish_reply, react
from citeloop.runtime import SUPPORT_METHODS, assess_support, check_events
from citeloop.tools import Corpus
from helpers.replied import replied_run

ORIN = "Dara Orin (born 1961) is an American film director and writer."
VESK = "Pol Vesk (1902 - 1977) was an Argentine novelist and poet."
LUND = "Mira Lund is an American screenwriter."
# A page whose first sentence spells the name otherwise: only its title says whose it is.
HALL = "Thomas Harper Hall (1880 - 1924) was a Canadian film producer."
PAGES = (
    ("https://wiki.example/orin", "Dara Orin", ORIN),
    ("https://wiki.example/vesk", "Pol Vesk", VESK),
    ("https://wiki.example/lund", "Mira Lund", LUND),
    ("https://wiki.example/hall", "Thomas H. Hall (producer)", HALL),
)
SAME = "Were Dara Orin and Pol Vesk of the same nationality?"


def _judge(
    question: str, answer: str, quotes: list[str], pages: Sequence[tuple[str, str]] = ()
) -> tuple[str, str]:
    (verdict,) = assess_support(question, answer, "\n".join(quotes), ["same-value"], SUPPORT_METHODS, pages)
    return verdict.verdict, verdict.detail


def test_the_verdict_the_quotes_give_is_supported_and_the_other_is_not() -> None:
    assert _judge(SAME, "no", [ORIN, VESK]) == (
        "supported",
        "the quotes' nationality values (American and Argentine) say no",
    )
    assert _judge(SAME, "No.", [ORIN, VESK])[0] == "supported"
    verdict, detail = _judge(SAME, "yes", [ORIN, VESK])
    assert verdict == "unsupported" and detail.endswith("say no")
    agree = "Were Dara Orin and Mira Lund of the same nationality?"
    assert _judge(agree, "yes", [ORIN, LUND])[0] == "supported"
    assert _judge(agree, "no", [ORIN, LUND])[0] == "unsupported"


def test_each_name_needs_a_quote_of_its_own() -> None:
    verdict, detail = _judge(SAME, "no", [ORIN])
    assert verdict == "unsupported" and "'Pol Vesk'" in detail
    # Both values in one quote about someone else say nothing of either name.
    other = "Ann Ray is an American poet who married the Argentine writer Bo Li."
    assert _judge(SAME, "no", [other, other])[0] == "unsupported"


def test_a_quote_on_a_page_titled_with_the_name_is_about_it() -> None:
    question = "Were Thomas H. Hall and Dara Orin of the same nationality?"
    titled = [("Thomas H. Hall (producer)", HALL), ("Dara Orin", ORIN)]
    assert _judge(question, "no", [HALL, ORIN], titled)[0] == "supported"
    assert _judge(question, "no", [HALL, ORIN], [("Thomas Hall", ORIN)])[0] == "unsupported"


def test_quotes_that_do_not_settle_it_support_neither_answer() -> None:
    vague = "Pol Vesk (1902 - 1977) was a novelist and poet."
    for answer in ("yes", "no"):
        verdict, detail = _judge(SAME, answer, [ORIN, vague])
        assert verdict == "unsupported" and "do not settle it" in detail


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (SAME, "Argentine"),  # not a yes or no: the other methods judge it
        ("Is Dara Orin a film director?", "yes"),  # a yes-or-no question of another form
        ("Were Dara Orin and Pol Vesk born in the same decade?", "no"),
    ],
)
def test_other_answers_and_questions_are_not_judged(question: str, answer: str) -> None:
    assert assess_support(question, answer, f"{ORIN}\n{VESK}", ["same-value"]) == ()


@pytest.fixture(scope="module")
def corpus() -> Iterator[Corpus]:
    built = Corpus.from_pages(PAGES, name="same-value-gate")
    yield built
    built.close()


@pytest.mark.anyio
async def test_a_wrong_yes_is_rejected_then_the_right_no_is_accepted(corpus: Corpus) -> None:
    urls = [PAGES[0][0], PAGES[1][0]]
    events = await replied_run(
        corpus,
        SAME,
        react("open", "open", urls[0]),
        react("open", "open", urls[1]),
        finish_reply("guess", "yes", urls, [ORIN, VESK]),
        finish_reply("read", "no", urls, [ORIN, VESK]),
    )
    (rejected,) = [e for e in events if isinstance(e, FinishRejected)]
    assert rejected.code == "unsupported_answer"
    (judged,) = [v for v in rejected.support if v.method == "same-value"]
    assert judged.verdict == "unsupported" and judged.detail.endswith("say no")
    answered = events[-1]
    assert isinstance(answered, Answered) and answered.answer == "no"
    assert [v.verdict for v in answered.support if v.method == "same-value"] == ["supported"]
    assert check_events(events).ok


# A reviewer's cases against the first version: languages, birthplaces and settings read as
# nationalities, a quote about something else, the director of another film, initials spelled apart.
@pytest.mark.parametrize(
    ("question", "answer", "quotes"),
    [
        ("Are Le Devoir and Le Monde published in the same country?", "yes",
         ["Le Devoir is a French-language newspaper published in Montreal.",
          "Le Monde is a French daily newspaper."]),
        ("Are both Roma and Pan's Labyrinth Spanish-language films?", "no",
         ["Roma is a 2018 Mexican drama film.",
          "Pan's Labyrinth is a 2006 Spanish-language dark fantasy film."]),
        ("Were Ted Cruz and Barack Obama born in the same country?", "yes",
         ["Ted Cruz (born 1970) is an American politician.",
          "Barack Obama (born 1961) is an American politician."]),
        ("Are Lost in Translation and Tokyo Story set in the same country?", "no",
         ["Lost in Translation is a 2003 American film.", "Tokyo Story is a 1953 Japanese film."]),
        ("Were Henry Kissinger and Madeleine Albright both American-born?", "yes",
         ["Henry Kissinger (born Heinz Kissinger) was an American diplomat.",
          "Madeleine Albright (born Marie Jana Korbelova) was an American diplomat."]),
        ("Were Guillermo del Toro and Alfonso Cuaron of the same nationality?", "no",
         ["The Shape of Water is a 2017 American film directed by Guillermo del Toro.",
          "Alfonso Cuaron (born 1961) is a Mexican filmmaker."]),
        ("Were Ulysses and Dubliners published in the same country?", "yes",
         ["Ulysses is a modernist novel by Irish writer James Joyce.",
          "Dubliners is a collection of short stories by Irish writer James Joyce."]),
        ("Were Dune and Blue Velvet directed by the same person?", "yes",
         ["Dune is a 2021 American film directed and co-produced by Denis Villeneuve. It adapts the "
          "1965 novel, made into the 1984 film Dune, directed by David Lynch.",
          "Blue Velvet is a 1986 American film directed by David Lynch."]),
        ("Were Jaws and Jurassic Park directed by the same person?", "no",
         ["Jaws is a 1975 American film directed by Steven Spielberg. It stars Roy Scheider.",
          "Jurassic Park is a 1993 American film directed by Steven Spielberg."]),
        # The second review's.
        ("Are La Opinion and El Pais published in the same country?", "yes",
         ["La Opinion is a Spanish language daily newspaper based in Los Angeles.",
          "El Pais is a Spanish daily newspaper."]),
        ("Are Telesur and Venevision headquartered in the same country?", "no",
         ["Telesur is a Latin American television network headquartered in Caracas.",
          "Venevision is a Venezuelan television network."]),
        ("Are Rio Tinto and BHP headquartered in the same country?", "yes",
         ["Rio Tinto is an Anglo-Australian mining company headquartered in London.",
          "BHP is an Australian mining company headquartered in Melbourne."]),
        ("Were Theodor Herzl and Sigmund Freud of the same nationality?", "no",
         ["Theodor Herzl was an Austro-Hungarian journalist.", "Sigmund Freud was an Austrian neurologist."]),
        ("Were Mishima and Yasunari Kawabata of the same nationality?", "no",
         ["Mishima: A Life in Four Chapters is a 1985 American biographical film.",
          "Yasunari Kawabata was a Japanese novelist."]),
        ("Were Guillermo del Toro and Alfonso Cuaron of the same nationality?", "no",
         ["Guillermo del Toro's The Shape of Water is a 2017 American film.",
          "Alfonso Cuaron (born 1961) is a Mexican filmmaker."]),
        ("Were Barack Obama and Joe Biden of the same nationality?", "no",
         ["Barack Obama, whose father was a Kenyan economist, is an American politician.",
          "Joe Biden is an American politician."]),
        ("Are both The Italian Job and The French Lieutenant's Woman British films?", "no",
         ["The Italian Job is a 1969 British caper comedy film.",
          "The French Lieutenant's Woman is a 1981 British romantic drama film."]),
        ("Were Cruel Story of Youth and Death by Hanging directed by the same person?", "no",
         ["Cruel Story of Youth is a 1960 Japanese film directed by Nagisa Oshima.",
          "Death by Hanging is a 1968 Japanese film directed by Nagisa \u014cshima."]),
        ("Were The Departed and Initial D directed by the same person?", "yes",
         ["The Departed is a 2006 remake of the 2002 Hong Kong film Infernal Affairs directed by Andrew Lau.",
          "Initial D is a 2005 film directed by Andrew Lau."]),
        ("Were Halloween II and The Thing directed by the same person?", "yes",
         ["Halloween II is a 1981 American slasher film. It is the sequel to Halloween, directed by John "
          "Carpenter.",
          "The Thing is a 1982 American film directed by John Carpenter."]),
        # The third review's.
        ("Are the Frankfurt Galaxy and the Green Bay Packers produced in the same country?", "yes",
         ["Frankfurt Galaxy is a professional American football team.",
          "Green Bay Packers is a professional American football team."]),
        ("Are TP Mazembe and CARA Brazzaville from the same country?", "yes",
         ["TP Mazembe is a Congolese football club.", "CARA Brazzaville is a Congolese football club."]),
        ("Are MercadoLibre and YPF headquartered in the same country?", "yes",
         ["MercadoLibre is an Argentine company headquartered in Montevideo, Uruguay.",
          "YPF is an Argentine energy company."]),
        ("Were Barack Obama and Raila Odinga of the same nationality?", "yes",
         ["Barack Hussein Obama Sr. was a Kenyan economist.", "Raila Odinga is a Kenyan politician."]),
        ("Were Halloween and The Fog directed by the same person?", "no",
         ["Halloween Ends is a 2022 film directed by David Gordon Green.",
          "The Fog is a 1980 film directed by John Carpenter."]),
        ("Were Hearts of Darkness and The Conversation directed by the same person?", "yes",
         ["Hearts of Darkness is a 1991 documentary about the making of Apocalypse Now, directed by Francis "
          "Ford Coppola.",
          "The Conversation is a 1974 film directed by Francis Ford Coppola."]),
        ("Were John Lennon and Toshiro Mifune of the same nationality?", "yes",
         ["The widow of John Lennon, Yoko Ono, is a Japanese artist.",
          "Toshiro Mifune was a Japanese actor."]),
    ],
)  # fmt: skip
def test_wrong_answers_a_review_found_are_not_supported(
    question: str, answer: str, quotes: list[str]
) -> None:
    verdicts = assess_support(question, answer, "\n".join(quotes), ["same-value", "yes-no"], SUPPORT_METHODS)
    assert verdicts and any(v.verdict != "supported" for v in verdicts), verdicts


@pytest.mark.parametrize(
    ("question", "quotes"),
    [
        ("Were The Birth of a Nation and Intolerance directed by the same person?",
         ["The Birth of a Nation is a 1915 film directed by D. W. Griffith.",
          "Intolerance is a 1916 film directed by D.W. Griffith."]),
        ("Were Vertigo and Psycho directed by the same person?",
         ["Vertigo is a 1958 film directed and produced by Alfred Hitchcock.",
          "Psycho is a 1960 film directed and produced by Alfred Hitchcock."]),
        ("Were Andrei Tarkovsky and Sergei Eisenstein of the same nationality?",
         ["Andrei Tarkovsky (1932 - 1986) was a Soviet film director.",
          "Sergei Eisenstein (1898 - 1948) was a Soviet film director."]),
        ("Were Mrs. Doubtfire and Home Alone directed by the same person?",
         ["Mrs. Doubtfire is a 1993 American comedy film directed by Chris Columbus.",
          "Home Alone is a 1990 American comedy film directed by Chris Columbus."]),
        ("Were Cruel Story of Youth and Death by Hanging directed by the same person?",
         ["Cruel Story of Youth is a 1960 Japanese film directed by Nagisa Oshima.",
          "Death by Hanging is a 1968 Japanese film directed by Nagisa \u014cshima."]),
    ],
)  # fmt: skip
def test_right_answers_a_review_found_rejected_are_supported(question: str, quotes: list[str]) -> None:
    assert _judge(question, "yes", quotes)[0] == "supported"


def test_two_people_of_one_surname_are_two_and_an_initial_may_be_either() -> None:
    question = "Were Top Gun and Alien directed by the same person?"
    scotts = [
        "Top Gun is a 1986 film directed by Tony Scott.",
        "Alien is a 1979 film directed by Ridley Scott.",
    ]
    assert _judge(question, "no", scotts)[0] == "supported"
    initial = [
        "Top Gun is a 1986 film directed by T. Scott.",
        "Alien is a 1979 film directed by Ridley Scott.",
    ]
    assert _judge(question, "no", initial)[0] == "unsupported"


def test_a_year_each_quote_dates_its_subject_by_settles_the_same_year() -> None:
    # Review chains 3: "Were One Big Hapa Family and A Film Unfinished released in the same year?"
    question = "Were Salt Tides and Harbour Lights released in the same year?"
    tides = "Salt Tides is a 2010 documentary film by Ann Ray, which re-examines an unfinished 1942 film."
    lights = "Harbour Lights is a 2010 animated documentary film."
    assert _judge(question, "yes", [tides, lights]) == (
        "supported",
        "the quotes' year values (2010 and 2010) say yes",
    )
    assert _judge(question, "no", [tides, lights])[0] == "unsupported"
    assert _judge(question, "yes", [tides, "Harbour Lights is a 1996 film."])[0] == "unsupported"
