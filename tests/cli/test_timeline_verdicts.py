"""What `show` says of a finish: each support method's verdict, and a refusal's best candidate."""

from __future__ import annotations

from datetime import timedelta

from citeloop.events import Abstained, FinishRejected, Support
from citeloop.events.testing import make_run_started, make_step
from citeloop.runtime.cli._timeline import build_timeline

RUN = "timeline-verdicts"


def test_a_refusal_names_its_best_candidate_and_score() -> None:
    started = make_run_started(RUN)
    step = make_step(RUN, 1, "no answer I trust")
    refused = Abstained(
        run_id=RUN,
        seq=2,
        at=step.at + timedelta(seconds=1),
        step=1,
        reason="low_confidence",
        answer="cannot: not confident",
        candidate="4MB",
        score=0.3125,
    )
    timeline = build_timeline([started, step, refused])
    (row,) = timeline.steps
    assert row.verdict == "abstained: low_confidence (best candidate '4MB', score 0.31)"
    assert timeline.to_json()["steps"][0]["decision"] == {
        "kind": "abstained",
        "reason": "low_confidence",
        "detail": "",
        "candidate": "4MB",
        "score": 0.3125,
    }


def test_the_support_verdicts_of_a_rejected_finish_are_in_its_row() -> None:
    started = make_run_started(RUN)
    step = make_step(RUN, 1, "a finish")
    rejected = FinishRejected(
        run_id=RUN,
        seq=2,
        at=step.at,
        step=1,
        code="unsupported_answer",
        payload={"answer": "4MB", "citations": [], "cannot_answer": False, "evidence": "x"},
        support=(Support(method="focus-entity", verdict="unsupported", detail="the quote never names 'x'"),),
    )
    (row,) = build_timeline([started, step, rejected]).steps
    assert row.verdict == (
        "finish rejected: unsupported_answer · support focus-entity: unsupported (the quote never names 'x')"
    )
    assert row.decision["support"] == [  # type: ignore[index]
        {"method": "focus-entity", "verdict": "unsupported", "detail": "the quote never names 'x'"}
    ]
