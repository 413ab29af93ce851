"""Report routing as a property: any writer and reviewer script ends by the rules, and check agrees.

Hypothesis draws what the writer returns each round (a valid draft, a new invented API, a
draft without citations) and what the reviewer says (ACCEPT, REVISE, no verdict), and the
cap and its rule; the run must end as SPEC §12 says, replay clean, and every prefix of its
log must fold to a state the routing can read.
"""

from __future__ import annotations

import anyio
from citeloop.events import Answered, DraftValidated, DraftWritten, Event, MemoryStore, ReviewGiven
from citeloop.runtime import Runtime, check_events, fold
from citeloop.runtime._report_decide import report_move
from helpers.fakes import page_tools
from helpers.reports import GOOD, ListReviewer, ListWriter, fixed_clock, invented, researcher
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

NO_CITATION = "# Acme\n\nAcme Robotics is a company.\n"
drafts = st.lists(
    st.one_of(st.just(GOOD), st.just(NO_CITATION), st.sampled_from(["a", "b", "c", "d", "e"]).map(invented)),
    min_size=1,
    max_size=6,
)
verdicts = st.lists(st.sampled_from(["ACCEPT", "REVISE: more", "looks good"]), min_size=1, max_size=6)


def run(script: list[str], said: list[str], cap: int, on_cap: str) -> list[Event]:
    async def go() -> list[Event]:
        store = MemoryStore()
        tools, _ = page_tools()
        writer, reviewer = ListWriter(*script), ListReviewer(*said)
        async with Runtime(
            store=store, tools=tools, policy=researcher(), writer=writer, reviewer=reviewer, clock=fixed_clock
        ) as runtime:
            await runtime.report("Who founded Acme Robotics?", run_id="r1", max_revisions=cap, on_cap=on_cap)  # type: ignore[arg-type]
        return await store.read("r1")

    return anyio.run(go)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    script=drafts,
    said=verdicts,
    cap=st.integers(0, 3),
    on_cap=st.sampled_from(["refuse", "accept-validated"]),
)
def test_any_script_ends_by_the_rules_and_replays_clean(
    script: list[str], said: list[str], cap: int, on_cap: str
) -> None:
    events = run(script, said, cap, on_cap)
    assert check_events(events).ok, check_events(events).divergences
    written = [event for event in events if isinstance(event, DraftWritten)]
    validated = [event for event in events if isinstance(event, DraftValidated)]
    reviews = [event for event in events if isinstance(event, ReviewGiven)]
    assert len(written) == len(validated) <= cap + 1
    # Only a draft that validated is reviewed, each once.
    assert [review.draft for review in reviews] == [v.draft for v in validated if v.valid]
    final = events[-1]
    if isinstance(final, Answered):
        accepted_by_review = bool(reviews) and reviews[-1].verdict == "ACCEPT"
        assert accepted_by_review or (on_cap == "accept-validated" and any(v.valid for v in validated))
        assert (final.note == "") == accepted_by_review  # an acceptance at the cap says so
    else:
        assert final.type == "Abstained" and final.reason == "insufficient_grounding"
        assert all(review.verdict == "REVISE" for review in reviews)
    start = next(i for i, event in enumerate(events) if event.type == "ResearchEnded")
    for cut in range(start + 1, len(events)):
        report_move(fold(events[:cut]))  # every prefix is a state the routing reads
