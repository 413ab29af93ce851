"""A run's status is read off its log by the fold alone (RunState.status, docs/events.md)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from citeloop.events import (
    Abstained,
    AbstainReason,
    ActionParsed,
    CallTool,
    Event,
    PolicyReply,
    RunStarted,
    ToolDispatched,
    ToolError,
    ToolObserved,
)
from citeloop.runtime import Outcome, fold
from citeloop.runtime._decide import decide_continuation

AT = datetime(2025, 1, 1, tzinfo=UTC)


def started() -> RunStarted:
    return RunStarted(run_id="r", seq=0, at=AT, question="q", max_steps=6, tools=(), allowlist=(), policy="p")


def step(seq: int) -> ActionParsed:
    action = CallTool(tool="open", input="https://x")
    reply = PolicyReply(text="t")
    return ActionParsed(run_id="r", seq=seq, at=AT, step=1, reply=reply, thought="", action=action)


def observed(seq: int, code: str) -> list[Event]:
    dispatched = ToolDispatched(
        run_id="r", seq=seq, at=AT, step=1, call_id="c", tool="open", input="https://x", read_only=True
    )
    error = ToolError(code=code, url="https://x")
    return [
        dispatched,
        ToolObserved(run_id="r", seq=seq + 1, at=AT, step=1, call_id="c", tool="open", input="https://x",
                     observation=error),
    ]


def abstained(seq: int, reason: AbstainReason) -> Abstained:
    return Abstained(run_id="r", seq=seq, at=AT, step=1, reason=reason, answer="cannot: x")


def test_only_a_start_is_queued_and_a_step_is_running() -> None:
    assert fold([started()]).status == "queued"
    assert fold([started(), step(1)]).status == "running"


@pytest.mark.parametrize(
    ("reason", "code", "status"),
    [
        ("missing_fact", "not_found", "abstained"),  # a grounded refusal
        ("not_found", "timeout", "failed"),  # the tool was unavailable
        ("not_found", "tool_raised", "failed"),
        ("policy_error", None, "failed"),
        ("cancelled", "timeout", "cancelled"),
    ],
)
def test_how_a_run_ended(reason: AbstainReason, code: str | None, status: str) -> None:
    events: list[Event] = [started(), step(1)]
    if code is not None:
        events += observed(2, code)
    events.append(abstained(len(events), reason))
    state = fold(events)
    assert state.status == status
    assert Outcome.from_state(state).to_json()["status"] == status


def test_a_continued_run_carries_the_log_without_its_end_and_names_the_run_it_continues() -> None:
    events: list[Event] = [started(), step(1), *observed(2, "timeout"), abstained(4, "cancelled")]
    carried = decide_continuation(events, "r2")
    assert [event.type for event in carried] == [event.type for event in events[:-1]]
    assert {event.run_id for event in carried} == {"r2"}
    assert isinstance(carried[0], RunStarted) and carried[0].meta["continues"] == "r"
    assert fold(carried).status == "running"
