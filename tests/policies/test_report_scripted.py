"""`ScriptedWriter` / `ScriptedReviewer`: the reply follows the view's rounds, not the number of calls."""

from __future__ import annotations

import pytest
from citeloop.events import PolicyReply, UsageError
from citeloop.policies import DraftRound, ReportView, Reviewer, ScriptedReviewer, ScriptedWriter, Writer

INVENTED = (
    'Call `acme.fly()`.[^1]\n\n[^1]: https://wiki.example/acme "Acme Robotics was founded by Ada Ortiz."\n'
)


def view(*rounds: DraftRound) -> ReportView:
    return ReportView(run_id="r1", question="Who founded Acme Robotics?", sources=(), rounds=rounds)


@pytest.mark.anyio
async def test_the_writer_answers_by_round_and_repeats_its_last_draft() -> None:
    writer = ScriptedWriter(["first", PolicyReply(text="second", model="m")])
    assert isinstance(writer, Writer) and writer.name == "scripted-writer"
    assert await writer.write(view()) == "first"
    assert await writer.write(view()) == "first"  # the same view, the same draft: replay-safe
    assert await writer.write(view(DraftRound(1, "first"))) == PolicyReply(text="second", model="m")
    later = view(DraftRound(1, "a"), DraftRound(2, "b"), DraftRound(3, "c"))
    assert await writer.write(later) == PolicyReply(text="second", model="m")


@pytest.mark.anyio
async def test_a_writer_scripted_with_one_invention_writes_it_every_round() -> None:
    writer = ScriptedWriter([INVENTED], name="inventor")
    rounds = [DraftRound(n, INVENTED, findings=("unsupported_claim: x",)) for n in range(1, 4)]
    for done in range(4):
        assert await writer.write(view(*rounds[:done])) == INVENTED
    assert writer.name == "inventor"


@pytest.mark.anyio
async def test_the_reviewer_counts_earlier_verdicts_not_drafts() -> None:
    reviewer = ScriptedReviewer(["REVISE: more", "ACCEPT"])
    assert isinstance(reviewer, Reviewer)
    invalid = DraftRound(1, "d1", findings=("no_citations: none",))  # never reviewed
    assert await reviewer.review(view(invalid, DraftRound(2, "d2"))) == "REVISE: more"
    revised = DraftRound(2, "d2", verdict="REVISE", review_notes="more")
    assert await reviewer.review(view(invalid, revised, DraftRound(3, "d3"))) == "ACCEPT"


@pytest.mark.parametrize("replies", [[], "ACCEPT"])
def test_an_empty_or_bare_script_is_refused(replies: list[str] | str) -> None:
    with pytest.raises(UsageError):
        ScriptedWriter(replies)
    with pytest.raises(UsageError):
        ScriptedReviewer(replies)
