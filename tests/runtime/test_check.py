"""`check` reports every step where today's parser or gate decides differently from the log."""

from __future__ import annotations

import pytest
from citeloop.events import (
    Answered,
    Event,
    FinishRejected,
    MemoryStore,
    Page,
    ParseRejected,
    ToolObserved,
)
from citeloop.policies import ScriptedPolicy, finish_reply, react
from citeloop.runtime import Runtime, check_events
from helpers.fakes import ReplyQueue, page_tools

pytestmark = pytest.mark.anyio

WIKI = "https://wiki.example/acme"
FOUNDING = "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon."


async def record(policy: object, question: str = "Who founded Acme Robotics?") -> list[Event]:
    store = MemoryStore()
    tools, _ = page_tools()
    async with Runtime(store=store, tools=tools, policy=policy) as rt:  # type: ignore[arg-type]
        outcome = await rt.run(question)
    return await store.read(outcome.run_id)


def replace_event(events: list[Event], index: int, **changes: object) -> list[Event]:
    changed = list(events)
    changed[index] = events[index].model_copy(update=changes)
    return changed


async def test_an_untouched_run_has_no_divergence() -> None:
    for question in ("Who founded Acme Robotics?", "What is Ada's favorite food?"):
        report = check_events(await record(ScriptedPolicy.demo(), question))
        assert report.ok, report.divergences


async def test_a_recorded_gate_verdict_that_today_differs_on() -> None:
    bad = finish_reply("trust me", "Ada Ortiz founded it.", [WIKI], FOUNDING)
    events = await record(ReplyQueue(bad, react("open", "open", WIKI), bad))
    index = next(i for i, e in enumerate(events) if isinstance(e, FinishRejected))
    tampered = replace_event(events, index, code="evidence")
    (divergence,) = check_events(tampered).divergences
    assert divergence.kind == "gate"
    assert divergence.recorded == "rejected: evidence"
    assert divergence.today == "rejected: cite_not_opened"


async def test_a_parse_decision_that_today_differs_on() -> None:
    events = await record(ReplyQueue("Final Answer: Ada", react("s", "search", "Acme")))
    index = next(i for i, e in enumerate(events) if isinstance(e, ParseRejected))
    # As if an older parser had accepted nothing but rejected this reply for its shape.
    tampered = replace_event(events, index, code="react_shape")
    (divergence,) = check_events(tampered).divergences
    assert (divergence.kind, divergence.recorded, divergence.today) == (
        "parse",
        "rejected: react_shape",
        "rejected: final_answer",
    )


async def test_a_page_whose_body_no_longer_matches_its_digest() -> None:
    events = await record(ScriptedPolicy.demo())
    index = next(
        i for i, e in enumerate(events) if isinstance(e, ToolObserved) and isinstance(e.observation, Page)
    )
    event = events[index]
    assert isinstance(event, ToolObserved) and isinstance(event.observation, Page)
    edited = event.observation.model_copy(update={"body": event.observation.body.replace("2014", "2015")})
    kinds = {d.kind for d in check_events(replace_event(events, index, observation=edited)).divergences}
    assert "digest" in kinds


async def test_locators_that_no_longer_select_the_quote() -> None:
    events = await record(ScriptedPolicy.demo())
    index = next(i for i, e in enumerate(events) if isinstance(e, Answered))
    answered = events[index]
    assert isinstance(answered, Answered)
    shifted = tuple(loc.model_copy(update={"start": loc.start + 1}) for loc in answered.locators)
    (divergence,) = check_events(replace_event(events, index, locators=shifted)).divergences
    assert divergence.kind == "locators"


async def test_report_json_shape() -> None:
    report = check_events(await record(ScriptedPolicy.demo()))
    data = report.to_json()
    assert (
        data["ok"] is True
        and data["divergences"] == []
        and data["events"] == len(await record(ScriptedPolicy.demo()))
    )
