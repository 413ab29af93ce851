"""Properties of `DeterministicWriter` over generated sources: its drafts pass the runtime's validation.

Whatever the sources hold - names, numbers, Markdown, abbreviations, quotes, negations -
every footnote the writer defines quotes its source verbatim and is cited once, and the
draft has no finding but `no_citations` (when nothing answered). The deterministic
reviewer accepts it: whatever the writer did not quote, it disclosed.
"""

from __future__ import annotations

import hashlib

from citeloop.policies import (
    DeterministicReviewer,
    DeterministicWriter,
    DraftRound,
    ReportSource,
    ReportView,
    parse_review,
)
from citeloop.policies._report_text import question_parts
from citeloop.policies._report_writer import UNCOVERED
from citeloop.runtime._report_validate import validate_draft
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

_WORDS = st.sampled_from(
    [
        "Acme", "Robotics", "Ada", "Ortiz", "founded", "founder", "was", "by", "in", "the", "Lisbon",
        "2014", "3.5", "1,200", "not", "never", "company", "robots", "e.g.", "Dr.", "Inc.", "`acme.fly()`",
        "**bold**", "\"quoted\"", "it", "She", "born", "Seville", "CEO", "is", "and", "[link](x)", "#",
        "-", "n't", "snake_case", "CamelCase", "J.", "U.S.", "(aside)", "employs", "480", "people",
        "[^2]", "Gaps:",
    ]
)  # fmt: skip
_SENTENCE = st.builds(
    lambda words, end: " ".join(words) + end,
    st.lists(_WORDS, min_size=2, max_size=12),
    st.sampled_from([".", "!", "?", "", ".\n", "\n\n", ". "]),
)
_BODY = st.lists(_SENTENCE, min_size=1, max_size=8).map(lambda sentences: " ".join(sentences))
_QUESTION = st.builds(
    lambda opener, words: " ".join([opener, *words]) + "?",
    st.sampled_from(["Who", "When", "Where", "How many", "What"]),
    st.lists(_WORDS, min_size=1, max_size=6),
) | st.sampled_from(
    [
        "Who founded Acme Robotics?",
        "Where was Ada Ortiz born, and when?",
        "How many people\n does Acme employ?",
    ]
)


def _source(index: int, body: str) -> ReportSource:
    return ReportSource(
        f"https://s{index}.example/page", f"Page {index}", body, hashlib.sha256(body.encode()).hexdigest()
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    bodies=st.lists(_BODY, min_size=1, max_size=3), question=_QUESTION, plan=st.lists(_QUESTION, max_size=2)
)
def test_drafts_validate_and_are_accepted(bodies: list[str], question: str, plan: list[str]) -> None:
    sources = tuple(_source(index, body) for index, body in enumerate(bodies))
    view = ReportView(run_id="r", question=question, sources=sources, plan=tuple(plan))
    draft = DeterministicWriter().compose(view)
    citable = {source.id: (source.text, source.sha256) for source in sources}
    # As a report run validates it: each cited sentence also held to the answer-in-quote method.
    findings, footnotes = validate_draft(draft, citable, question=question, support=("answer-in-quote",))
    codes = [finding.code for finding in findings]
    assert codes in ([], ["no_citations"]), (draft, findings)
    for footnote in footnotes:
        assert draft.count(f"[^{footnote.n}]") == 2
    assert bool(footnotes) == (codes == [])
    reviewed = ReportView(
        run_id="r", question=question, sources=sources, plan=tuple(plan), rounds=(DraftRound(1, draft),)
    )
    assert DeterministicReviewer().verdict(reviewed) == "ACCEPT", draft


@given(st.text(max_size=300), _QUESTION, st.lists(_QUESTION, max_size=2))
def test_the_reviewer_gives_a_verdict_on_any_draft(draft: str, question: str, plan: list[str]) -> None:
    rounds = (DraftRound(1, draft),)
    reviewed = ReportView(run_id="r", question=question, sources=(), plan=tuple(plan), rounds=rounds)
    verdict = DeterministicReviewer().verdict(reviewed)
    parsed = parse_review(verdict)
    assert isinstance(parsed, tuple), verdict
    if parsed[0] == "REVISE":
        # Each note names a part of the question or plan, as the writer reads them back.
        for line in parsed[1].splitlines():
            assert line.removeprefix(f"- {UNCOVERED} ") in question_parts(question, plan)
