"""`check` reports every step where today's parser or gate decides differently from the log."""

from __future__ import annotations

import pytest
from citeloop.events import (
    Abstained,
    Answered,
    Event,
    FinishRejected,
    MemoryStore,
    Page,
    ParseRejected,
    ToolDispatched,
    ToolObserved,
    ToolOutcomeUnknown,
    ToolSpec,
    stamp_chain,
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


def restamped(events: list[Event]) -> list[Event]:
    """The log as a forger who recomputes the hash chain would leave it: only re-deciding finds the edit."""
    return list(stamp_chain(events, None)[0])


def replace_event(events: list[Event], index: int, **changes: object) -> list[Event]:
    changed = list(events)
    changed[index] = events[index].model_copy(update=changes)
    return restamped(changed)


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


# -- a forged or edited log is always a divergence -----------------------------------


def kinds(events: list[Event]) -> list[str]:
    return [d.kind for d in check_events(events).divergences]


async def test_a_forged_answer_that_no_finish_decided() -> None:
    events = await record(ScriptedPolicy.demo())
    answered = next(e for e in events if isinstance(e, Answered))
    forged = answered.model_copy(
        update={"seq": 1, "step": 0, "citations": ("https://evil.example/",), "evidence": "totally made up"}
    )
    report = check_events(restamped([events[0], forged]))
    assert not report.ok
    assert report.divergences[0].kind == "unexplained"


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("answer", "Ada Ortiz, in 2014."),  # an edit of the stored answer
        ("answer_sha256", "0" * 64),
        ("evidence", "Acme Robotics was founded by Ada Ortiz in 2014"),
        ("citations", ("https://news.example/ada",)),
    ],
)
async def test_an_answer_that_differs_from_its_finish(field: str, value: object) -> None:
    events = await record(ScriptedPolicy.demo())
    index = next(i for i, e in enumerate(events) if isinstance(e, Answered))
    (divergence,) = check_events(replace_event(events, index, **{field: value})).divergences
    assert divergence.kind == "answer"
    assert field in divergence.recorded


async def test_a_one_character_edit_of_a_stored_answer() -> None:
    events = await record(ScriptedPolicy.demo())
    index = next(i for i, e in enumerate(events) if isinstance(e, Answered))
    answered = events[index]
    assert isinstance(answered, Answered)
    edited = answered.answer[:-1] + ("!" if answered.answer[-1] != "!" else "?")
    assert kinds(replace_event(events, index, answer=edited)) == ["answer"]


async def test_an_abstention_replaced_by_an_answer() -> None:
    events = await record(ScriptedPolicy.demo(), "What is Ada's favorite food?")
    last = events[-1]
    assert isinstance(last, Abstained)
    forged = Answered(
        run_id=last.run_id,
        seq=last.seq,
        at=last.at,
        step=last.step,
        answer="Pizza",
        citations=(),
        evidence="",
        locators=(),
        answer_sha256="0" * 64,
    )
    assert kinds(restamped([*events[:-1], forged])) == ["gate"]


async def test_events_after_the_end_and_a_log_cut_mid_decision() -> None:
    events = await record(ScriptedPolicy.demo())
    last = events[-1]
    extra = last.model_copy(update={"seq": last.seq + 1})
    assert kinds(restamped([*events, extra])) == ["unexplained"]
    # The finish's ActionParsed without the verdict recorded in the same batch.
    assert kinds(events[:-1]) == ["incomplete"]


async def test_an_observation_that_does_not_answer_its_dispatch() -> None:
    events = await record(ScriptedPolicy.demo())
    index = next(
        i for i, e in enumerate(events) if isinstance(e, ToolObserved) and isinstance(e.observation, Page)
    )
    assert kinds(replace_event(events, index, input="https://elsewhere.example/")) == ["dispatch"]


async def test_check_judges_recovery_by_the_tools_declared_today() -> None:
    """A dispatch left unobserved is re-run when the tool is read-only today, whatever the log says."""
    events = await record(ScriptedPolicy.demo())
    index = next(i for i, e in enumerate(events) if isinstance(e, ToolDispatched))
    dispatched = events[index]
    assert isinstance(dispatched, ToolDispatched)
    unknown = ToolOutcomeUnknown(
        run_id=dispatched.run_id,
        seq=dispatched.seq + 1,
        at=dispatched.at,
        step=dispatched.step,
        call_id=dispatched.call_id,
        tool=dispatched.tool,
        input=dispatched.input,
    )
    cut = restamped([*events[: index + 1], unknown])
    assert kinds(cut) == ["recovery"]
    # Judged by a table in which the tools have effects, the recorded flag is what differs,
    # and not running the call again is what today's code does too.
    effectful = {name: ToolSpec(name=name, read_only=False) for name in ("search", "open")}
    assert [d.kind for d in check_events(cut, tools=effectful).divergences] == ["dispatch"]
