"""Abstention reasons are read off a run's log (docs/gate.md), never held in a flag."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

import pytest
from citeloop.events import (
    AlreadySearched,
    Event,
    FinishRejected,
    Hit,
    Observation,
    Page,
    ParseRejected,
    PolicyReply,
    RunStarted,
    SearchHits,
    Text,
    ToolError,
    ToolObserved,
    ToolSpec,
)
from citeloop.runtime import fold

AT = datetime(2026, 1, 1, tzinfo=UTC)
WIKI = "https://wiki.example/acme"
HIT = Hit(url=WIKI, title="Acme Robotics", snippet="Acme Robotics was founded", score=1.0)
BODY = "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon."


class Log:
    """Builds one run's events with gap-free sequence numbers."""

    def __init__(self, max_steps: int = 6) -> None:
        self.events: list[Event] = [
            RunStarted(
                run_id="r",
                seq=0,
                at=AT,
                question="What is Ada's favorite food?",
                max_steps=max_steps,
                tools=(ToolSpec(name="search", read_only=True), ToolSpec(name="open", read_only=True)),
                allowlist=("search", "open", "finish"),
                policy="test",
            )
        ]

    def _next(self) -> dict[str, Any]:
        return {"run_id": "r", "seq": len(self.events), "at": AT, "step": len(self.events)}

    def observe(self, tool: str, argument: str, observation: Observation) -> Log:
        self.events.append(
            ToolObserved(**self._next(), call_id=None, tool=tool, input=argument, observation=observation)
        )
        return self

    def search(self, query: str, *hits: Hit) -> Log:
        return self.observe("search", query, SearchHits(query=query, hits=hits))

    def open_ok(self, url: str = WIKI) -> Log:
        digest = hashlib.sha256(BODY.encode()).hexdigest()
        return self.observe("open", url, Page(url=url, title="Acme Robotics", body=BODY, sha256=digest))

    def open_fails(self, url: str = WIKI) -> Log:
        return self.observe("open", url, ToolError(code="not_found", url=url))

    def finish_rejected(self) -> Log:
        self.events.append(FinishRejected(**self._next(), code="need_citation", payload={}))
        return self

    def parse_rejected(self) -> Log:
        reply = PolicyReply(text="Final Answer: x")
        self.events.append(ParseRejected(**self._next(), reply=reply, code="final_answer"))
        return self

    def reason(self) -> str:
        reason = fold(self.events).own_abstain_reason()
        # The fold is split-invariant, so the reason is too.
        half = len(self.events) // 2
        assert fold(self.events[half:], fold(self.events[:half])).own_abstain_reason() == reason
        return reason


@pytest.mark.parametrize(
    ("log", "expected"),
    [
        (Log(), "no_hits"),  # did nothing at all: nothing was found
        (Log().search("ada favorite food"), "no_hits"),
        (Log().search("ada food").search("ada food", *()).search("ortiz food"), "no_hits"),
        (
            Log()
            .search("ada food")
            .observe("search", "ada food", AlreadySearched(query="ada food", hits=())),
            "no_hits",
        ),
        (Log().observe("search", "x", ToolError(code="timeout")), "no_hits"),  # a failed search finds nothing
        (Log().search("acme", HIT).open_fails(), "not_found"),
        (Log().search("acme", HIT).open_fails().open_fails("https://news.example/ada"), "not_found"),
        (Log().open_fails(), "not_found"),  # a guessed URL that failed, no search
        (Log().search("acme", HIT), "missing_fact"),  # hits, but nothing opened
        (Log().search("acme", HIT).open_ok(), "missing_fact"),
        (Log().search("acme", HIT).open_fails("https://gone.example").open_ok(), "missing_fact"),
        (Log().open_ok(), "missing_fact"),
    ],
)
def test_own_abstention_reason(log: Log, expected: str) -> None:
    assert log.reason() == expected


def test_a_failing_custom_tool_is_not_a_failed_open() -> None:
    log = Log().search("x").observe("calc", "2+2", ToolError(code="tool_raised"))
    assert log.reason() == "no_hits"
    assert log.observe("calc", "2+2", Text(text="4")).reason() == "no_hits"


def test_the_repair_turn_is_derived_from_the_count_of_rejected_finishes() -> None:
    log = Log().search("acme", HIT).open_ok()
    assert not fold(log.events).repair_used
    log.parse_rejected()  # a parse rejection is not a rejected finish
    assert not fold(log.events).repair_used
    log.finish_rejected()
    state = fold(log.events)
    assert state.repair_used and state.rejections == 1 and state.parse_rejections == 1


def test_the_budget_is_derived_from_the_steps_taken() -> None:
    log = Log(max_steps=2).parse_rejected()
    assert not fold(log.events).budget_spent
    log.parse_rejected()
    assert fold(log.events).budget_spent
