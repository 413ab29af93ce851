"""`DeterministicWriter` and `DeterministicReviewer` on the demo corpus, held to the runtime's validation.

The writer's drafts are checked by `validate_draft` itself (runtime/_report_validate.py),
not by a copy of its rules: a draft that cites a sentence the source does not hold, or
states a fact without a marker, fails here as it would fail a run.
"""

from __future__ import annotations

import dataclasses
import re

import pytest
from citeloop.policies import (
    DeterministicReviewer,
    DeterministicWriter,
    DraftRound,
    ReportSource,
    ReportView,
    Reviewer,
    Writer,
    parse_review,
)
from citeloop.policies._report_text import question_parts
from citeloop.policies._report_writer import quotable
from citeloop.runtime._report_validate import validate_draft
from citeloop.tools import Corpus

ACME = "https://wiki.example/acme"
FOUNDED = "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon."
DEFINITION = re.compile(r'^\[\^(\d+)\]: (\S+) "(.*)"$', re.MULTILINE)


def sources(corpus: Corpus, *urls: str) -> tuple[ReportSource, ...]:
    out = []
    for url in urls:
        page = corpus.open(url)
        assert page is not None, url
        out.append(ReportSource(page.url, page.title, page.body, page.sha256))
    return tuple(out)


def searched(corpus: Corpus, question: str, limit: int = 5) -> tuple[ReportSource, ...]:
    return sources(corpus, *(hit.url for hit in corpus.search(question, limit=limit)))


def citable(view: ReportView) -> dict[str, tuple[str, str]]:
    return {source.id: (source.text, source.sha256) for source in view.sources}


def findings(draft: str, view: ReportView) -> list[str]:
    found, _ = validate_draft(draft, citable(view), question=view.question, support=("answer-in-quote",))
    return [f"{finding.code}: {finding.detail}" for finding in found]


def view_of(
    question: str, srcs: tuple[ReportSource, ...], *rounds: DraftRound, plan: tuple[str, ...] = ()
) -> ReportView:
    return ReportView(run_id="r1", question=question, sources=srcs, rounds=rounds, plan=plan)


def test_they_are_writer_and_reviewer() -> None:
    assert isinstance(DeterministicWriter(), Writer) and DeterministicWriter().name == "deterministic-writer"
    assert isinstance(DeterministicReviewer(), Reviewer)
    assert DeterministicReviewer().name == "deterministic-reviewer"


@pytest.mark.anyio
async def test_the_founder_report_quotes_the_founding_sentence_and_validates(demo: Corpus) -> None:
    view = view_of("Who founded Acme Robotics?", searched(demo, "Who founded Acme Robotics?"))
    draft = await DeterministicWriter().write(view)
    assert f"{FOUNDED}[^1]" in draft
    assert '[^1]: https://wiki.example/acme "' + FOUNDED + '"' in draft
    assert findings(draft, view) == []
    assert parse_review(
        DeterministicReviewer().verdict(view_of(view.question, view.sources, DraftRound(1, draft)))
    ) == (
        "ACCEPT",
        "",
    )


@pytest.mark.parametrize(
    "question",
    [
        "Who founded Acme Robotics?",
        "When did Acme open its Porto factory?",
        "Where is Acme Robotics headquartered?",
        "How many people does Acme Robotics employ, and who founded it?",
        "Who founded Acme Robotics and where is it based?",
        "What did Acme Robotics earn in 2023?",
        "Who is the current CEO of Acme Robotics?",
        "Who is the current CEO?",
        "Where was Ada Ortiz born?",
    ],
)
def test_every_draft_passes_validation_or_cites_nothing(demo: Corpus, question: str) -> None:
    view = view_of(question, searched(demo, question))
    draft = DeterministicWriter().compose(view)
    found = findings(draft, view)
    cited = DEFINITION.findall(draft)
    assert found == ([] if cited else ["no_citations: the draft has no footnote marker [^n]"])
    for n, source, quote in cited:
        assert quote in dict(citable(view))[source][0]  # verbatim
        assert draft.count(f"[^{n}]") == 2  # one claim per footnote: one marker, one definition
        assert f"{quote}[^{n}]" in draft  # the claim is the quote itself
    # What the writer does not quote, it discloses: the reviewer finds nothing left out.
    assert DeterministicReviewer().verdict(view_of(question, view.sources, DraftRound(1, draft))) == "ACCEPT"


def test_a_correction_is_quoted_in_place_of_what_it_corrects(demo: Corpus) -> None:
    srcs = sources(demo, "https://news.example/porto-factory", "https://news.example/correction-porto")
    draft = DeterministicWriter().compose(view_of("When did Acme open its Porto factory?", srcs))
    assert "The factory opened in 2018.[^" in draft
    assert "according to a company statement.[^" not in draft


def test_nothing_answering_is_disclosed_not_filled(demo: Corpus) -> None:
    view = view_of("What is the capital of Mars?", sources(demo, "https://wiki.example/acme"))
    draft = DeterministicWriter().compose(view)
    assert "## Gaps" in draft and "Not found in the sources: What is the capital of Mars." in draft
    assert "[^" not in draft


def test_each_plan_item_is_a_section_or_a_gap(demo: Corpus) -> None:
    srcs = sources(demo, "https://wiki.example/acme", "https://wiki.example/ada-ortiz")
    plan = ("Where was Ada Ortiz born?", "What is the moon made of?")
    view = view_of("Who founded Acme Robotics?", srcs, plan=plan)
    draft = DeterministicWriter().compose(view)
    assert "## Where was Ada Ortiz born" in draft
    assert "Not found in the sources: What is the moon made of." in draft
    assert findings(draft, view) == []
    assert (
        DeterministicReviewer().verdict(view_of(view.question, srcs, DraftRound(1, draft), plan=plan))
        == "ACCEPT"
    )


def test_a_later_round_drops_the_footnote_a_finding_names(demo: Corpus) -> None:
    srcs = sources(demo, "https://wiki.example/acme", "https://wiki.example/ada-ortiz")
    first = DeterministicWriter().compose(view_of("Who founded Acme Robotics?", srcs))
    assert FOUNDED in first
    rejected = DraftRound(1, first, findings=("unsupported_claim: footnote [^1] is not supported",))
    second = DeterministicWriter().compose(view_of("Who founded Acme Robotics?", srcs, rejected))
    assert FOUNDED not in second
    assert "She founded Acme Robotics in 2014 and led it for seven years." in second


def test_a_later_round_drops_a_sentence_a_finding_quotes(demo: Corpus) -> None:
    srcs = sources(demo, "https://wiki.example/acme", "https://wiki.example/ada-ortiz")
    first = DeterministicWriter().compose(view_of("Who founded Acme Robotics?", srcs))
    detail = f"uncited_fact: {FOUNDED[:59] + chr(0x2026)!r} states Ada, Ortiz without a marker"
    second = DeterministicWriter().compose(
        view_of("Who founded Acme Robotics?", srcs, DraftRound(1, first, (detail,)))
    )
    assert FOUNDED not in second


def test_review_notes_naming_a_part_make_it_a_section_or_a_gap(demo: Corpus) -> None:
    srcs = sources(demo, "https://wiki.example/acme", "https://wiki.example/ada-ortiz")
    question = "Who founded Acme Robotics?"
    first = DeterministicWriter().compose(view_of(question, srcs))
    notes = "\n".join(
        (
            "- neither covered nor disclosed: Where was Ada Ortiz born",
            "- neither covered nor disclosed: Who owns Mars",
        )
    )
    revise = DraftRound(1, first, verdict="REVISE", review_notes=notes)
    second = DeterministicWriter().compose(view_of(question, srcs, revise))
    assert "## Where was Ada Ortiz born" in second and "Seville." in second
    assert "Not found in the sources: Who owns Mars." in second
    assert findings(second, view_of(question, srcs)) == []


def test_the_reviewer_names_the_part_neither_covered_nor_disclosed(demo: Corpus) -> None:
    srcs = sources(demo, "https://wiki.example/acme")
    question = "Who founded Acme Robotics and how many robots has it sold?"
    only_founder = f'# Report\n\n{FOUNDED}[^1]\n\n[^1]: https://wiki.example/acme "{FOUNDED}"\n'
    verdict = DeterministicReviewer().verdict(view_of(question, srcs, DraftRound(1, only_founder)))
    parsed = parse_review(verdict)
    assert parsed == ("REVISE", "- neither covered nor disclosed: how many robots has it sold")
    disclosed = only_founder.replace(
        "\n\n[^1]", "\n\n## Gaps\n\n- Not found in the sources: how many robots it sold.\n\n[^1]"
    )
    assert DeterministicReviewer().verdict(view_of(question, srcs, DraftRound(1, disclosed))) == "ACCEPT"
    # A sentence that shares the words but cites nothing is not coverage.
    uncited = only_founder.replace("\n\n[^1]", "\n\nIt has sold many robots.\n\n[^1]")
    assert (
        DeterministicReviewer().verdict(view_of(question, srcs, DraftRound(1, uncited))).startswith("REVISE")
    )


def test_the_reviewer_wants_a_draft() -> None:
    assert DeterministicReviewer().verdict(view_of("Who?", ())).startswith("REVISE")


@pytest.mark.parametrize(
    ("sentence", "ok"),
    [
        (FOUNDED, True),
        ("# Acme Robotics was founded by Ada Ortiz.", False),
        ("- Acme Robotics was founded by Ada Ortiz.", False),
        ("Acme Robotics was founded by Ada Ortiz", False),  # no sentence end: the marker would run on
        ("Acme Inc. Robotics was founded by Ada Ortiz.", False),  # a reader may split it
        ("Short one.", False),
        ('She said "it was 2014."', True),
    ],
)
def test_quotable(sentence: str, ok: bool) -> None:
    assert quotable(sentence) is ok


def researched(
    question: str, srcs: tuple[ReportSource, ...], answer: str, citations: tuple[str, ...], *evidence: str
) -> ReportView:
    return ReportView(
        run_id="r1",
        question=question,
        sources=srcs,
        research_answer=answer,
        research_citations=citations,
        research_evidence=evidence,
    )


def test_the_research_finish_leads_the_report_widened_to_its_sentence(demo: Corpus) -> None:
    srcs = searched(demo, "Who founded Acme Robotics?")
    view = researched("Who founded Acme Robotics?", srcs, "Ada Ortiz", (ACME,), "founded by Ada Ortiz")
    draft = DeterministicWriter().compose(view)
    assert draft.split("\n\n")[1] == f"{FOUNDED}[^1]"  # the research's sentence, and only it
    assert findings(draft, view) == []


def test_a_refused_research_leaves_the_question_a_gap_however_well_a_sentence_ranks(demo: Corpus) -> None:
    srcs = sources(demo, ACME, "https://wiki.example/ada-ortiz")
    question = "Who founded Acme Robotics?"
    assert f"{FOUNDED}[^1]" in DeterministicWriter().compose(view_of(question, srcs))  # ranked, it is quoted
    refused = researched(question, srcs, "cannot: the opened pages do not state the answer", ())
    draft = DeterministicWriter().compose(refused)
    assert "[^" not in draft and "- Not found in the sources: Who founded Acme Robotics." in draft
    # A plan item is the user's own sub-question: it is still looked for.
    with_plan = dataclasses.replace(refused, plan=("Where was Ada Ortiz born?",))
    assert "## Where was Ada Ortiz born" in DeterministicWriter().compose(with_plan)


def test_research_quotes_that_do_not_hold_its_answer_are_not_used(demo: Corpus) -> None:
    srcs = sources(demo, ACME)
    view = researched("Who founded Acme Robotics?", srcs, "Kenji Ito", (ACME,), FOUNDED)
    draft = DeterministicWriter().compose(view)
    assert "[^" not in draft and "Not found in the sources" in draft


DOC = "https://docs.example/random"
DOC_BODY = (
    "ZIP_STORED\n"
    "random.seed(a=None, version=2)¶\n"
    "Initialize the random number generator.\n"
    "Python uses the Mersenne Twister.\nIt has a period of 2**19937-1.\n"
)


def doc_view(question: str, answer: str, *evidence: str) -> ReportView:
    srcs = (ReportSource(DOC, "random", DOC_BODY, "0" * 64),)
    return researched(question, srcs, answer, (DOC,), *evidence)


def test_a_line_that_is_no_prose_sentence_is_written_in_a_code_span_and_validates() -> None:
    view = doc_view(
        "What is the default version of random.seed?", "version=2", "random.seed(a=None, version=2)¶"
    )
    draft = DeterministicWriter().compose(view)
    assert "`random.seed(a=None, version=2)¶`[^1]" in draft
    assert f'[^1]: {DOC} "random.seed(a=None, version=2)¶"' in draft
    assert findings(draft, view) == []


def test_a_quote_across_a_line_break_is_found_and_a_star_does_not_become_emphasis() -> None:
    # The policy's quote folds the line break to a space; `**` would be bold in Markdown.
    quote = "Python uses the Mersenne Twister. It has a period of 2**19937-1."
    draft = DeterministicWriter().compose(doc_view("What is the period of the Twister?", "2**19937-1", quote))
    assert "Python uses the Mersenne Twister.[^1] `It has a period of 2**19937-1.`[^2]" in draft
    assert findings(draft, doc_view("What is the period of the Twister?", "2**19937-1", quote)) == []


def test_only_the_sentences_the_quote_spans_are_claimed_not_a_word_of_it_elsewhere() -> None:
    quote = "class zipfile.ZipFile(file, compression=ZIP_STORED)¶"
    body = f"ZIP_STORED\nThe numeric constant for an uncompressed archive member.\n{quote}\n"
    srcs = (ReportSource(DOC, "zipfile", body, "0" * 64),)
    draft = DeterministicWriter().compose(
        researched("What is the default compression of ZipFile?", srcs, "ZIP_STORED", (DOC,), quote)
    )
    assert draft.count("[^") == 2 and f"`{quote}`[^1]" in draft


def test_the_reviewer_takes_the_research_sentence_as_the_answer_to_a_question_of_one_part() -> None:
    body = "Repr.maxlevel\nDepth limit on the creation of recursive representations.\nThe default is 6.\n"
    srcs = (ReportSource(DOC, "reprlib", body, "0" * 64),)
    question = "What is the default value of Repr.maxlevel in reprlib?"
    draft = f'# Report\n\nThe default is 6.[^1]\n\n[^1]: {DOC} "The default is 6."\n'
    rounds = (DraftRound(1, draft),)
    research = researched(question, srcs, "6", (DOC,), "The default is 6.")
    answered = dataclasses.replace(research, rounds=rounds)
    assert DeterministicReviewer().verdict(answered) == "ACCEPT"
    # Without the research's word for it, the sentence names too little of the question.
    assert DeterministicReviewer().verdict(view_of(question, srcs, *rounds)).startswith("REVISE")
    # A question of two parts is not settled by it: each part is still checked.
    two = dataclasses.replace(answered, question=question.rstrip("?") + " and where is it defined?")
    assert DeterministicReviewer().verdict(two).startswith("REVISE")


def test_a_bare_question_word_asks_it_of_the_part_before() -> None:
    assert question_parts("Where was Ada Ortiz born, and when?") == (
        "Where was Ada Ortiz born",
        "When was Ada Ortiz born",
    )
    assert question_parts("Who founded Acme Robotics, and how?")[1] == "How founded Acme Robotics"
    assert question_parts("Who founded Acme, and the?") == ("Who founded Acme",)  # no question word: no part


def test_a_when_part_is_answered_only_by_a_sentence_with_a_date(demo: Corpus) -> None:
    question = "Where was Ada Ortiz born, and when?"
    srcs = sources(demo, "https://wiki.example/seville", "https://wiki.example/ada-ortiz")
    seville = "The engineer Ada Ortiz was born in Seville."
    placeless = f'{seville}[^1]\n\n[^1]: https://wiki.example/seville "{seville}"\n'
    verdict = DeterministicReviewer().verdict(view_of(question, srcs, DraftRound(1, placeless)))
    assert verdict == "REVISE:\n- neither covered nor disclosed: When was Ada Ortiz born"
    draft = DeterministicWriter().compose(view_of(question, srcs))
    assert "She was born in 1979 in Seville.[^" in draft
    assert findings(draft, view_of(question, srcs)) == []
    assert DeterministicReviewer().verdict(view_of(question, srcs, DraftRound(1, draft))) == "ACCEPT"
