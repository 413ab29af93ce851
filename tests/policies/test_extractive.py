"""ExtractivePolicy: the seed questions through the real runtime, reply shape, determinism, repair."""

from __future__ import annotations

import hashlib
from types import MappingProxyType

import pytest
from citeloop.events import CallTool, Finish, FinishRejected, Hit, Page, PolicyReply, open_store
from citeloop.policies import ExtractivePolicy, Parsed, RunView, Turn, parse_reply
from citeloop.policies._extractive_score import CONF_WEIGHTS, FEATURE_NAMES, RANK_WEIGHTS
from citeloop.policies._hop_search import bridge_query, multi_hop
from citeloop.policies._prose_finish import choose, finish_prose
from citeloop.policies._questions import analyze
from citeloop.policies._sentences import split_sentences
from citeloop.policies._short_answer import short_answer
from citeloop.runtime import Runtime
from citeloop.tools import Corpus

WIKI = "https://wiki.example/acme"
NEWS = "https://news.example/ada"


async def _run(
    corpus: Corpus, question: str, policy: ExtractivePolicy | None = None
) -> tuple[object, object]:
    async with Runtime(
        store=open_store("memory://"), tools=corpus.tools(), policy=policy or ExtractivePolicy()
    ) as rt:
        outcome = await rt.run(question)
        state = await rt.reopen(outcome.run_id)
        return outcome, state


@pytest.mark.anyio
async def test_spec_who_founded(demo: Corpus) -> None:
    outcome, _ = await _run(demo, "Who founded Acme Robotics?")
    assert outcome.status == "answered"  # type: ignore[attr-defined]
    assert "Ada Ortiz" in outcome.answer  # type: ignore[attr-defined]
    assert outcome.citations == (WIKI,)  # type: ignore[attr-defined]
    page = demo.open(WIKI)
    assert page is not None and outcome.evidence in page.body  # type: ignore[attr-defined]
    (locator,) = outcome.locators  # type: ignore[attr-defined]
    assert page.body[locator.start : locator.end] == locator.quote and locator.sha256 == page.sha256


@pytest.mark.anyio
async def test_spec_current_ceo(demo: Corpus) -> None:
    outcome, state = await _run(demo, "Who is the current CEO?")
    assert outcome.status == "answered"  # type: ignore[attr-defined]
    assert "Kenji Ito" in outcome.answer  # type: ignore[attr-defined]
    assert outcome.citations == (NEWS,)  # type: ignore[attr-defined]
    assert NEWS in state.opened  # type: ignore[attr-defined]


@pytest.mark.anyio
async def test_spec_favorite_food_abstains(demo: Corpus) -> None:
    outcome, state = await _run(demo, "What is Ada's favorite food?")
    assert outcome.status == "abstained"  # type: ignore[attr-defined]
    assert outcome.reason == "missing_fact"  # type: ignore[attr-defined]
    assert outcome.answer.startswith("cannot:")  # type: ignore[attr-defined]
    assert state.opened  # type: ignore[attr-defined]  # it looked before refusing


@pytest.mark.anyio
async def test_threshold_is_the_knob(demo: Corpus) -> None:
    strict, _ = await _run(demo, "Who founded Acme Robotics?", ExtractivePolicy(min_confidence=0.999))
    assert strict.status == "abstained"  # type: ignore[attr-defined]
    lax, state = await _run(demo, "What is Ada's favorite food?", ExtractivePolicy(min_confidence=0.0))
    # With no threshold the policy proposes a sentence; the support check (focus-entity: it is
    # about Kenji Ito, not Ada) refuses it, so the run still abstains.
    assert lax.status == "abstained"  # type: ignore[attr-defined]
    rejected = [e for step in state.by_step for e in step if isinstance(e, FinishRejected)]  # type: ignore[attr-defined]
    assert rejected and rejected[0].code == "unsupported_answer"


@pytest.mark.anyio
async def test_no_hits_abstains_as_no_hits(demo: Corpus) -> None:
    outcome, _ = await _run(demo, "Zxqv wubblefrotz?")
    assert outcome.status == "abstained" and outcome.reason == "no_hits"  # type: ignore[attr-defined]


@pytest.mark.anyio
async def test_injected_page_changes_nothing(demo: Corpus) -> None:
    outcome, _ = await _run(demo, "Who spoke at the Lisbon robotics meetup?")
    assert "https://evil.example" not in outcome.citations  # type: ignore[attr-defined]
    assert "evil.example" not in outcome.answer  # type: ignore[attr-defined]


def _view(
    question: str, *, turns: tuple[Turn, ...] = (), corpus: Corpus | None = None, step: int = 0
) -> RunView:
    pages = {}
    searched: dict[str, tuple[Hit, ...]] = {}
    if corpus is not None:
        hits = tuple(corpus.search(analyze(question).query))
        searched[analyze(question).query.casefold()] = hits
        for hit in hits[:3]:
            page = corpus.open(hit.url)
            assert page is not None
            pages[hit.url] = page
    return RunView(
        run_id="r",
        question=question,
        allowlist=("search", "open", "finish"),
        step=step,
        max_steps=6,
        turns=turns,
        pages=MappingProxyType(pages),
        searched=MappingProxyType(searched),
    )


@pytest.mark.anyio
async def test_every_reply_parses_and_is_deterministic(demo: Corpus) -> None:
    policy = ExtractivePolicy()
    for question in ("Who founded Acme Robotics?", "What is Ada's favorite food?", "When did Borealis list?"):
        for view in (_view(question), _view(question, corpus=demo, step=4)):
            first, second = await policy.next_step(view), await ExtractivePolicy().next_step(view)
            assert first == second
            parsed = parse_reply(first)
            assert isinstance(parsed, Parsed), (first, parsed)
    finish = parse_reply(await policy.next_step(_view("Who founded Acme Robotics?", corpus=demo, step=4)))
    assert isinstance(finish, Parsed) and isinstance(finish.action, Finish)
    assert set(finish.action.payload) == {"answer", "citations", "cannot_answer", "evidence"}


def _rejected(code: str) -> tuple[Turn, ...]:
    return (
        Turn(
            step=4, reply=PolicyReply(text="..."), thought="", action=None, shown=f"finish rejected: {code}"
        ),
    )


@pytest.mark.anyio
async def test_repair_after_rejected_finish(demo: Corpus) -> None:
    policy = ExtractivePolicy()
    view = _view("Who founded Acme Robotics?", corpus=demo, step=5, turns=_rejected("unsupported"))
    repaired = parse_reply(await policy.next_step(view))
    assert isinstance(repaired, Parsed) and isinstance(repaired.action, Finish)
    payload = repaired.action.payload
    assert payload["cannot_answer"] is False and payload["answer"] == payload["evidence"]
    view = _view("Who founded Acme Robotics?", corpus=demo, step=5, turns=_rejected("evidence"))
    gave_up = parse_reply(await policy.next_step(view))
    assert isinstance(gave_up, Parsed) and isinstance(gave_up.action, Finish)
    assert gave_up.action.payload["cannot_answer"] is True


def test_sentences_are_verbatim_spans() -> None:
    body = (
        "Dr. Ada Ortiz founded it in 2014. It grew fast!  J. R. Smith joined;\n"
        "then 3.5 million came. e.g. this."
    )
    sentences = split_sentences(body)
    assert [s.text for s in sentences] == [
        "Dr. Ada Ortiz founded it in 2014.",
        "It grew fast!",
        "J. R. Smith joined;",
        "then 3.5 million came. e.g. this.",
    ]
    assert all(body[s.start : s.end] == s.text for s in sentences)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Who founded Acme?", "who"),
        ("When did Ortiz leave?", "when"),
        ("In what year was it founded?", "when"),
        ("Where was Ada born?", "where"),
        ("How many robots are there?", "how_many"),
        ("Is Kenji the CEO?", "yesno"),
        ("Why did Ortiz leave?", "why"),
        ("What is the Wren?", "what"),
        # A wh-word after the first words opens a relative clause when a later one asks the question.
        ("The battle in which Ada Ortiz fell secured what for Porto?", "what"),
        ("The woman who founded Acme was born where?", "where"),
        ("In which city is Acme based?", "where"),
        ("The man who founded Acme?", "who"),
        ("In what city was Ada born?", "where"),
        ("How far is the Porto factory from Lisbon?", "how_much"),
        ("How long can a Skua fly?", "how_much"),
    ],
)
def test_question_kinds(question: str, kind: str) -> None:
    assert analyze(question).kind == kind


def test_question_entities_and_negation() -> None:
    q = analyze("Who did not found Acme Robotics in 2014?")
    assert q.negated and {"acme", "robotic", "2014"} <= set(q.entities)


def _page(url: str, body: str) -> Page:
    return Page(
        url=url, title=url.rsplit("/", 1)[-1], body=body, sha256=hashlib.sha256(body.encode()).hexdigest()
    )


def test_nested_questions_take_a_second_hop() -> None:
    nested = analyze("What position was held by the woman who portrayed Corliss Archer in Kiss and Tell?")
    assert multi_hop(nested)
    assert not multi_hop(analyze("Who founded Acme Robotics?"))
    film = _page(
        "https://x.example/film", "Kiss and Tell is a 1945 film starring Shirley Temple as Corliss Archer."
    )
    query = bridge_query(nested, [film])
    assert query is not None and query.startswith("Shirley Temple")  # the name the first page adds


def test_an_opposite_in_the_sentence_lowers_confidence() -> None:
    body = "The largest city of Norland is Vell. It was founded in 1820."
    question = analyze("What is the smallest city of Norland?")
    flipped = choose(question, [_page("https://x.example/n", body)])
    straight = choose(analyze("What is the largest city of Norland?"), [_page("https://x.example/n", body)])
    assert flipped is not None and straight is not None
    assert flipped.scored.vector[FEATURE_NAMES.index("antonym")] == 1.0
    assert straight.scored.vector[FEATURE_NAMES.index("antonym")] == 0.0
    assert flipped.confidence < straight.confidence


def test_weights_match_the_signals() -> None:
    assert len(RANK_WEIGHTS) == len(FEATURE_NAMES)
    assert len(CONF_WEIGHTS) == len(FEATURE_NAMES) + 2  # plus the ranking score and the margin


def test_a_place_is_the_name_after_a_preposition_of_place_not_a_nationality() -> None:
    sentence = "Tomas Reis is a Portuguese businessman born in 1968 in Braga."
    assert short_answer(analyze("Where was Tomas Reis born?"), sentence) == "Braga"
    # With no preposition of place before any name, the first name not asked about.
    assert short_answer(analyze("Where does Tomas Reis work?"), "Tomas Reis works for Helicor.") == "Helicor"


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("question", "body"),
    [
        # The best sentence holds no date: quoting it would answer "when" with a sentence.
        ("When was the Tagus Lights festival held?", "The Tagus Lights festival is held along the river."),
        ("Who runs the Tagus Lights festival?", "The Tagus Lights festival is run by volunteers."),
    ],
)
async def test_a_typed_question_is_refused_when_the_sentence_holds_no_span_of_its_type(
    question: str, body: str
) -> None:
    corpus = Corpus.from_pages([("https://wiki.example/tagus-lights", "Tagus Lights festival", body)])
    outcome, _ = await _run(corpus, question)
    assert outcome.status == "abstained"  # type: ignore[attr-defined]
    assert outcome.reason == "low_confidence"  # type: ignore[attr-defined]


def test_a_count_is_never_a_year() -> None:
    question = analyze("How many laps did Harry Prowl run in the 10,000 metres at the 1967 Games?")
    assert short_answer(question, "He ran 25 laps at the 1967 Games, finishing fifth.") == "25"
    # Must fail: the only numbers are years, and a year counts no laps.
    assert short_answer(question, "He also ran in 1970 and in 1971.") is None


def test_a_typed_question_quoted_with_its_antecedent_still_needs_a_span_of_its_type() -> None:
    # The best sentence opens with "He", so it is quoted with the one before it; that longer quote is
    # no reason to answer "how many" with a sentence that holds no count (at any confidence).
    body = (
        "Harry Prowl is a Canadian runner. He also ran the 10,000 metres at the 1967 Pan American Games in "
        "Winnipeg."
    )
    page = _page("https://wiki.example/prowl", body)
    question = analyze("How many laps did Harry Prowl run in the 10,000 metres at the 1967 Games?")
    reply = finish_prose(question, hits_order=[page.url], pages={page.url: page}, min_confidence=0.0)
    parsed = parse_reply(reply)
    assert isinstance(parsed, Parsed) and isinstance(parsed.action, Finish)
    assert str(parsed.action.payload["answer"]).startswith("cannot:"), parsed.action.payload


@pytest.mark.parametrize(
    ("question", "query"),
    [
        # A name written as code is searched whole too: the index matches it as a phrase.
        (
            "What does cmake -E compare_files return when given invalid arguments?",
            "cmake E compare files return given invalid arguments compare_files",
        ),
        (
            "What is the default log level for cmake --log-level?",
            "default log level cmake log-level --log-level",
        ),
        # A question naming no code searches its words alone.
        ("Who founded Acme Robotics?", "founded Acme Robotics"),
    ],
)
def test_the_first_search_carries_the_code_names_whole(question: str, query: str) -> None:
    parsed = parse_reply(ExtractivePolicy().decide(_view(question)))
    assert isinstance(parsed, Parsed)
    assert isinstance(parsed.action, CallTool)
    assert (parsed.action.tool, parsed.action.input) == ("search", query)
