"""Report runs (SPEC §12): research, drafts, validation, review, the cap and the human pause, from the log."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from citeloop.events import (
    Abstained,
    ActionParsed,
    Answered,
    DraftValidated,
    DraftWritten,
    Event,
    FinishRejected,
    MemoryStore,
    PolicyReply,
    ResearchEnded,
    ReviewGiven,
    ReviewRequested,
)
from citeloop.policies import ReportView, abstain_reply, finish_reply, react
from citeloop.runtime import ReviewNotAwaitedError, Runtime, check_events, fold
from helpers.fakes import ReplyQueue, page_tools
from helpers.reports import (
    ACME,
    GOOD,
    INVENTED,
    QUESTION,
    SENTENCE,
    ListReviewer,
    ListWriter,
    fixed_clock,
    invented,
    report_run,
    researcher,
)

pytestmark = pytest.mark.anyio


def types(events: Sequence[Event]) -> list[str]:
    return [event.type for event in events]


async def test_a_draft_that_validates_and_is_accepted_is_the_report_with_its_footnotes() -> None:
    writer, reviewer = ListWriter(GOOD), ListReviewer("ACCEPT")
    events, outcome = await report_run(writer, reviewer)
    assert outcome.status == "accepted"
    assert outcome.report == GOOD
    (note,) = outcome.footnotes
    body = "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon."
    assert (note.n, note.url, note.start, note.end, note.quote) == (1, ACME, 0, len(body), body)
    assert types(events)[-5:] == [
        "ResearchEnded",
        "DraftWritten",
        "DraftValidated",
        "ReviewGiven",
        "Answered",
    ]
    final = events[-1]
    assert isinstance(final, Answered) and final.citations == (ACME,) and final.evidence == (body,)
    # The writer was given the opened page itself, not a paraphrase of it.
    (source,) = writer.views[0].sources
    assert (source.id, source.text) == (ACME, "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon.")
    assert check_events(events).ok, check_events(events).divergences


async def test_the_invented_api_is_refused_every_round_and_the_run_ends_insufficient_grounding() -> None:
    # The post-mortem's writer: a new invented API each round, never one a source names.
    rounds = [invented(name) for name in ("connect_fast", "open_session", "SessionManager", "dial")]
    writer, reviewer = ListWriter(*rounds), ListReviewer("ACCEPT")
    events, outcome = await report_run(writer, reviewer)
    assert outcome.status == "refused" and outcome.reason == "insufficient_grounding"
    assert outcome.answer.startswith("cannot: INSUFFICIENT GROUNDING")
    assert len(writer.views) == 4  # the first draft and three revisions: the cap
    assert reviewer.calls == 0  # a draft that fails validation never reaches the reviewer
    verdicts = [event for event in events if isinstance(event, DraftValidated)]
    assert [v.valid for v in verdicts] == [False] * 4
    assert all("unsupported_claim" in v.codes for v in verdicts)
    # The writer is told why on the next round.
    assert any("unsupported_claim" in finding for finding in writer.views[1].rounds[0].findings)
    assert not any(isinstance(event, Answered) for event in events)
    assert check_events(events).ok


async def test_a_writer_that_repeats_a_rejected_draft_word_for_word_is_not_asked_again() -> None:
    writer, reviewer = ListWriter(INVENTED), ListReviewer("ACCEPT")
    events, outcome = await report_run(writer, reviewer)
    assert outcome.status == "refused" and "repeated a draft" in outcome.answer
    assert len(writer.views) == 2  # the second draft repeats the first: no revision can help
    assert check_events(events).ok


async def test_revise_goes_back_to_the_writer_and_the_count_is_read_off_the_log() -> None:
    writer, reviewer = ListWriter(GOOD), ListReviewer("REVISE: say where", "ACCEPT")
    events, outcome = await report_run(writer, reviewer)
    assert outcome.status == "accepted" and outcome.revisions == 1
    assert [r.verdict for r in outcome.reviews] == ["REVISE", "ACCEPT"]
    assert writer.views[1].rounds[0].review_notes == "say where"
    state = fold(events)
    assert state.report is not None and state.report.revisions == 1


@pytest.mark.parametrize("cap", [0, 1, 3])
async def test_a_reviewer_that_never_accepts_ends_the_run_at_the_cap(cap: int) -> None:
    writer, reviewer = ListWriter(GOOD), ListReviewer("REVISE: more")
    _, outcome = await report_run(writer, reviewer, max_revisions=cap)
    assert outcome.status == "refused" and outcome.reason == "insufficient_grounding"
    assert len(writer.views) == cap + 1 and reviewer.calls == cap + 1
    assert "more" in outcome.detail


async def test_accept_validated_at_the_cap_accepts_the_last_valid_draft_and_says_so() -> None:
    writer, reviewer = ListWriter(GOOD, INVENTED), ListReviewer("REVISE: more")
    events, outcome = await report_run(writer, reviewer, max_revisions=2, on_cap="accept-validated")
    assert outcome.status == "accepted" and outcome.report == GOOD
    assert "revision cap" in outcome.note
    final = events[-1]
    assert isinstance(final, Answered) and "accept-validated" in final.note
    assert check_events(events).ok


async def test_with_no_source_the_writer_is_never_asked() -> None:
    store = MemoryStore()
    tools, _ = page_tools()
    writer, reviewer = ListWriter(GOOD), ListReviewer("ACCEPT")
    policy = ReplyQueue(lambda view: abstain_reply("nothing", "no idea"))
    async with Runtime(
        store=store, tools=tools, policy=policy, writer=writer, reviewer=reviewer, clock=fixed_clock
    ) as runtime:
        outcome = await runtime.report(QUESTION, run_id="r1")
    assert outcome.status == "refused" and "opened no page" in outcome.answer
    assert writer.views == []
    events = await store.read("r1")
    assert types(events)[-2:] == ["ResearchEnded", "Abstained"]


async def test_a_reply_that_is_no_verdict_counts_as_a_revision_with_its_reason() -> None:
    writer, reviewer = ListWriter(GOOD), ListReviewer("Looks fine to me!", "ACCEPT")
    events, outcome = await report_run(writer, reviewer)
    assert outcome.status == "accepted" and outcome.revisions == 1
    first = next(event for event in events if isinstance(event, ReviewGiven))
    assert first.verdict == "REVISE" and "not a verdict" in first.notes


async def test_a_failing_writer_fails_the_run() -> None:
    class Broken(ListWriter):
        async def write(self, view: ReportView) -> str:
            raise RuntimeError("model down")

    _, outcome = await report_run(Broken(), ListReviewer("ACCEPT"))
    assert outcome.run_status == "failed" and outcome.reason == "policy_error"
    assert "model down" in outcome.detail


async def test_a_human_review_pauses_the_run_until_a_verdict_is_appended() -> None:
    store = MemoryStore()
    writer, reviewer = ListWriter(GOOD), ListReviewer("ACCEPT")
    events, outcome = await report_run(writer, reviewer, store=store, review="human")
    assert outcome.status == "waiting" and outcome.awaiting == GOOD
    assert isinstance(events[-1], ReviewRequested)
    assert fold(events).status == "waiting"
    assert reviewer.calls == 0
    tools, _ = page_tools()
    async with Runtime(
        store=store, tools=tools, policy=researcher(), writer=writer, clock=fixed_clock
    ) as runtime:
        done = await runtime.review("r1", "ACCEPT", by="ana")
        assert done.status == "accepted" and done.reviews[-1].by == "human:ana"
        with pytest.raises(ReviewNotAwaitedError):
            await runtime.review("r1", "ACCEPT")
    assert check_events(await store.read("r1")).ok


async def test_a_human_revise_at_the_cap_lifts_it_by_one_revision() -> None:
    store = MemoryStore()
    writer = ListWriter(GOOD)
    await report_run(writer, ListReviewer(), store=store, review="human", max_revisions=0)
    tools, _ = page_tools()
    async with Runtime(
        store=store, tools=tools, policy=researcher(), writer=writer, clock=fixed_clock
    ) as runtime:
        again = await runtime.review("r1", "REVISE", notes="one more pass")
        assert again.status == "waiting" and again.revisions == 1
        done = await runtime.review("r1", "ACCEPT")
    assert done.status == "accepted"
    assert writer.views[1].rounds[0].review_notes == "one more pass"


async def test_every_prefix_of_a_report_run_resumes_to_the_same_log() -> None:
    full, _ = await report_run(ListWriter(INVENTED, GOOD), ListReviewer("REVISE: tighten", "ACCEPT"))
    start = next(i for i, event in enumerate(full) if isinstance(event, ResearchEnded))
    assert isinstance(full[-1], Answered)
    for cut in range(start, len(full)):
        store = MemoryStore()
        await store.append("r1", full[:cut], 0)
        writer, reviewer = ListWriter(INVENTED, GOOD), ListReviewer("REVISE: tighten", "ACCEPT")
        # The writer and reviewer pick up where the log says they are: skip their recorded turns.
        writer.views = [None] * sum(isinstance(e, DraftWritten) for e in full[:cut])  # type: ignore[list-item]
        reviewer.calls = sum(isinstance(e, ReviewGiven) for e in full[:cut])
        tools, _ = page_tools()
        async with Runtime(
            store=store, tools=tools, policy=researcher(), writer=writer, reviewer=reviewer, clock=fixed_clock
        ) as runtime:
            await runtime.resume("r1")
        assert await store.read("r1") == full, f"resume after event {cut - 1} took another path"


async def test_check_catches_a_forged_acceptance_of_a_rejected_draft() -> None:
    events, _ = await report_run(ListWriter(INVENTED), ListReviewer("ACCEPT"), max_revisions=0)
    final = events[-1]
    assert isinstance(final, Abstained)
    written = next(e for e in events if isinstance(e, DraftWritten))
    forged = Answered(
        run_id="r1",
        seq=final.seq,
        at=final.at,
        step=final.step,
        answer=written.reply.text or "",
        citations=(ACME,),
        evidence=("x",),
        locators=(),
        answer_sha256="0" * 64,
    )
    report = check_events([*events[:-1], forged])
    assert not report.ok


class LookingReviewer(ListReviewer):
    """Keeps the views it was given, to show what its lookups returned."""

    def __init__(self, *verdicts: str) -> None:
        super().__init__(*verdicts)
        self.views: list[ReportView] = []

    async def review(self, view: ReportView) -> str | PolicyReply:
        self.views.append(view)
        return await super().review(view)


OPEN_ADA = "Thought: who runs it now?\nAction: open\nAction Input: https://news.example/ada"


async def test_a_reviewer_may_open_a_page_before_its_verdict_and_the_lookup_is_in_the_log() -> None:
    reviewer = LookingReviewer(OPEN_ADA, "ACCEPT")
    events, outcome = await report_run(ListWriter(GOOD), reviewer)
    assert outcome.status == "accepted"
    tail = types(events)[types(events).index("DraftValidated") + 1 :]
    assert tail == ["ActionParsed", "ToolDispatched", "ToolObserved", "ReviewGiven", "Answered"]
    (lookup,) = reviewer.views[1].lookups
    assert lookup.startswith("open: https://news.example/ada") and "Current CEO is Kenji Ito." in lookup
    state = fold(events)
    assert "https://news.example/ada" in state.opened  # a page the reviewer opened is citable
    assert check_events(events).ok, check_events(events).divergences


async def test_a_reviewer_gets_three_lookups_a_draft_then_must_give_a_verdict() -> None:
    search = "Thought: more\nAction: search\nAction Input: Ortiz {n}"
    reviewer = LookingReviewer(*(search.format(n=n) for n in range(5)))
    events, outcome = await report_run(ListWriter(GOOD), reviewer, max_revisions=0)
    assert outcome.status == "refused"
    (review,) = [event for event in events if isinstance(event, ReviewGiven)]
    assert review.verdict == "REVISE" and "not a verdict" in review.notes
    after = events[types(events).index("ResearchEnded") :]
    assert sum(isinstance(event, ActionParsed) for event in after) == 3
    assert check_events(events).ok


async def test_a_reviewer_may_not_finish_nor_call_a_tool_outside_search_and_open() -> None:
    finish = 'Thought: done\nAction: finish\nAction Input: {"answer": "x", "citations": [], "evidence": ""}'
    events, outcome = await report_run(ListWriter(GOOD), ListReviewer(finish), max_revisions=0)
    assert outcome.status == "refused"
    assert not any(
        isinstance(event, ActionParsed) for event in events[types(events).index("ResearchEnded") :]
    )


async def test_every_prefix_of_a_run_whose_reviewer_looked_something_up_resumes_to_the_same_log() -> None:
    full, _ = await report_run(ListWriter(GOOD), LookingReviewer(OPEN_ADA, "ACCEPT"))
    start = next(i for i, event in enumerate(full) if isinstance(event, ResearchEnded))
    for cut in range(start, len(full)):
        store = MemoryStore()
        await store.append("r1", full[:cut], 0)
        reviewer = LookingReviewer(OPEN_ADA, "ACCEPT")
        after = full[start:cut]
        reviewer.calls = sum(isinstance(e, ReviewGiven | ActionParsed) for e in after)
        writer = ListWriter(GOOD)
        tools, _ = page_tools()
        async with Runtime(
            store=store, tools=tools, policy=researcher(), writer=writer, reviewer=reviewer, clock=fixed_clock
        ) as runtime:
            await runtime.resume("r1")
        assert await store.read("r1") == full, f"resume after event {cut - 1} took another path"


async def research_with(*finishes: str) -> tuple[list[Event], ListWriter]:
    """A report run whose research searches, opens the Acme page, then finishes as given, in turn."""
    replies = [react("look it up", "search", "Acme founded"), react("read it", "open", ACME), *finishes]
    store, writer = MemoryStore(), ListWriter(GOOD)
    tools, _ = page_tools()
    async with Runtime(
        store=store,
        tools=tools,
        policy=ReplyQueue(*replies),
        writer=writer,
        reviewer=ListReviewer("ACCEPT"),
        clock=fixed_clock,
    ) as runtime:
        await runtime.report(QUESTION, run_id="r1")
    return await store.read("r1"), writer


SUPPORTED = finish_reply("it says so", "Ada Ortiz", [ACME], SENTENCE)
# The quote is in the page, but does not name what the question is about (focus-entity).
UNSUPPORTED = finish_reply("it says so", "Ada Ortiz", [ACME], "founded by Ada Ortiz")


async def test_the_research_finish_is_gated_as_an_ask_finish_is() -> None:
    events, writer = await research_with(SUPPORTED)
    (ended,) = [event for event in events if isinstance(event, ResearchEnded)]
    assert (ended.answer, ended.citations, ended.evidence) == ("Ada Ortiz", (ACME,), (SENTENCE,))
    assert writer.views[0].research_answer == "Ada Ortiz"
    assert check_events(events).ok


async def test_an_unsupported_research_finish_gets_the_repair_turn_then_ends_the_research_refused() -> None:
    events, writer = await research_with(UNSUPPORTED, UNSUPPORTED)
    rejected = [event.code for event in events if isinstance(event, FinishRejected)]
    assert rejected == ["unsupported_answer", "unsupported_answer"]
    (ended,) = [event for event in events if isinstance(event, ResearchEnded)]
    assert ended.answer.startswith("cannot:") and ended.citations == () and ended.evidence == ()
    # The writer is told the research found nothing it stands by, not the rejected answer.
    assert writer.views[0].research_answer.startswith("cannot:")
    assert check_events(events).ok


async def test_a_repaired_research_finish_ends_the_research_with_the_repair() -> None:
    events, writer = await research_with(UNSUPPORTED, SUPPORTED)
    assert [type(e).__name__ for e in events].count("FinishRejected") == 1
    (ended,) = [event for event in events if isinstance(event, ResearchEnded)]
    assert ended.evidence == (SENTENCE,) and writer.views[0].research_citations == (ACME,)
    assert check_events(events).ok
