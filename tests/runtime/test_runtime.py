"""The loop end to end on the memory store: outcomes, the repair turn, budgets, failures, views."""

from __future__ import annotations

import anyio
import pytest
from citeloop.events import (
    Abstained,
    ActionParsed,
    Answered,
    Event,
    FinishRejected,
    MemoryStore,
    ParseRejected,
    PolicyReply,
    SearchHits,
    ToolObserved,
    UsageError,
)
from citeloop.policies import RunView, ScriptedPolicy, abstain_reply, finish_reply, react
from citeloop.runtime import Runtime, fold
from helpers.fakes import SPEC_PAGES, ReplyQueue, page_tools

pytestmark = pytest.mark.anyio

WIKI = "https://wiki.example/acme"
NEWS = "https://news.example/ada"
FOUNDING = "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon."


async def test_scripted_policy_answers_with_citation_and_locator() -> None:
    store = MemoryStore()
    tools, counter = page_tools()
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo()) as rt:
        outcome = await rt.run("Who founded Acme Robotics?")
    assert outcome.status == "answered"
    assert "Ada Ortiz" in outcome.answer
    assert outcome.citations == (WIKI,)
    assert outcome.evidence == FOUNDING
    (locator,) = outcome.locators
    assert SPEC_PAGES[WIKI][1][locator.start : locator.end] == locator.quote == FOUNDING
    assert outcome.steps == 3
    events = await store.read(outcome.run_id)
    assert [e.seq for e in events] == list(range(len(events)))
    assert fold(events).status == "answered"
    assert counter.calls == ["search:Who founded Acme Robotics?", f"open:{WIKI}"]


async def test_current_ceo_requires_opening_the_news_page() -> None:
    tools, _ = page_tools()
    async with Runtime(store=MemoryStore(), tools=tools, policy=ScriptedPolicy.demo()) as rt:
        outcome = await rt.run("Who is the current CEO?")
        state = await rt.reopen(outcome.run_id)
    assert outcome.status == "answered"
    assert "Kenji Ito" in outcome.answer
    assert outcome.citations == (NEWS,)
    assert NEWS in state.opened


async def test_unknown_fact_abstains_with_missing_fact() -> None:
    tools, _ = page_tools()
    async with Runtime(store=MemoryStore(), tools=tools, policy=ScriptedPolicy.demo()) as rt:
        outcome = await rt.run("What is Ada's favorite food?")
    assert outcome.status == "abstained"
    assert outcome.reason == "missing_fact"
    assert outcome.answer.startswith("cannot:")
    assert outcome.citations == ()


async def test_no_hits_and_not_found_reasons_come_from_the_log() -> None:
    tools, _ = page_tools()
    async with Runtime(store=MemoryStore(), tools=tools, policy=ScriptedPolicy.demo()) as rt:
        no_hits = await rt.run("Zzzz qqqq?")
    assert no_hits.reason == "no_hits"

    failing_open = ReplyQueue(
        react("look", "open", "https://nowhere.example/x"),
        abstain_reply("give up", "nothing could be opened"),
    )
    tools, _ = page_tools()
    async with Runtime(store=MemoryStore(), tools=tools, policy=failing_open) as rt:
        not_found = await rt.run("anything")
    assert not_found.reason == "not_found"


async def test_cite_not_opened_gets_one_repair_turn_then_invalid_finish() -> None:
    bad = finish_reply("trust me", "Ada Ortiz founded it.", [WIKI], FOUNDING)
    policy = ReplyQueue(bad, bad)
    store = MemoryStore()
    tools, counter = page_tools()
    async with Runtime(store=store, tools=tools, policy=policy) as rt:
        outcome = await rt.run("Who founded Acme Robotics?")
    assert outcome.status == "abstained"
    assert outcome.reason == "invalid_finish"
    events = await store.read(outcome.run_id)
    rejections = [e for e in events if isinstance(e, FinishRejected)]
    assert [r.code for r in rejections] == ["cite_not_opened", "cite_not_opened"]
    assert policy.views[1].turns[-1].shown == "finish rejected: cite_not_opened"
    assert len(counter) == 0


async def test_repair_turn_can_succeed() -> None:
    bad = finish_reply("trust me", "Ada Ortiz founded it.", [WIKI], FOUNDING)
    good = finish_reply("now opened", "Ada Ortiz founded it.", [WIKI], FOUNDING)
    policy = ReplyQueue(bad, react("open it", "open", WIKI), good)
    tools, _ = page_tools()
    async with Runtime(store=MemoryStore(), tools=tools, policy=policy) as rt:
        outcome = await rt.run("Who founded Acme Robotics?")
        state = await rt.reopen(outcome.run_id)
    assert outcome.status == "answered"
    assert state.rejections == 1 and state.repair_used


async def test_protocol_error_is_recorded_shown_and_costs_a_step() -> None:
    policy = ReplyQueue("Final Answer: Ada Ortiz", react("search", "search", "Acme founder"))
    store = MemoryStore()
    tools, _ = page_tools()
    async with Runtime(store=store, tools=tools, policy=policy, max_steps=2) as rt:
        outcome = await rt.run("Who founded Acme Robotics?")
    events = await store.read(outcome.run_id)
    rejected = [e for e in events if isinstance(e, ParseRejected)]
    assert rejected[0].code == "final_answer"
    assert rejected[0].reply.text == "Final Answer: Ada Ortiz"
    assert policy.views[1].turns[0].shown.startswith("protocol error: final_answer")
    assert outcome.reason == "budget"
    assert outcome.steps == 2


async def test_budget_is_spent_on_steps() -> None:
    policy = ReplyQueue(
        react("again", "search", "Acme"), react("other", "search", "Ortiz"), react("x", "open", NEWS)
    )
    tools, _ = page_tools()
    async with Runtime(store=MemoryStore(), tools=tools, policy=policy, max_steps=3) as rt:
        outcome = await rt.run("q")
    assert outcome.status == "abstained" and outcome.reason == "budget" and outcome.steps == 3


async def test_repeated_search_is_answered_from_the_log() -> None:
    policy = ReplyQueue(react("a", "search", "Acme Robotics"), react("b", "search", "  acme   ROBOTICS "))
    store = MemoryStore()
    tools, counter = page_tools()
    async with Runtime(store=store, tools=tools, policy=policy, max_steps=3) as rt:
        outcome = await rt.run("q")
    assert counter.calls == ["search:Acme Robotics"]
    events = await store.read(outcome.run_id)
    repeats = [e for e in events if isinstance(e, ToolObserved) and e.observation.kind == "already_searched"]
    assert len(repeats) == 2
    assert repeats[0].call_id is None
    assert policy.views[-1].turns[-1].shown.startswith('already searched "acme   ROBOTICS"')


async def test_policy_exception_ends_in_policy_error() -> None:
    class Broken:
        name = "broken"

        async def next_step(self, view: RunView) -> str:
            raise RuntimeError("model exploded")

    tools, _ = page_tools()
    async with Runtime(store=MemoryStore(), tools=tools, policy=Broken()) as rt:
        outcome = await rt.run("q")
        state = await rt.reopen(outcome.run_id)
    assert outcome.reason == "policy_error"
    assert isinstance(state.outcome, Abstained)
    assert "model exploded" in state.outcome.detail


async def test_policy_timeout_ends_in_policy_error() -> None:
    class Slow:
        name = "slow"

        async def next_step(self, view: RunView) -> str:
            await anyio.sleep(10)
            return "never"

    tools, _ = page_tools()
    async with Runtime(store=MemoryStore(), tools=tools, policy=Slow(), policy_timeout=0.05) as rt:
        outcome = await rt.run("q")
    assert outcome.reason == "policy_error"


async def test_tool_failure_and_timeout_are_observations() -> None:
    class Exploding:
        name = "search"
        read_only = True

        async def __call__(self, argument: str) -> ToolObserved:
            raise ValueError("index missing")

    class Hanging:
        name = "open"
        read_only = True

        async def __call__(self, argument: str) -> ToolObserved:
            await anyio.sleep(10)
            raise AssertionError("unreachable")

    policy = ReplyQueue(react("s", "search", "x"), react("o", "open", WIKI))
    store = MemoryStore()
    async with Runtime(
        store=store, tools=[Exploding(), Hanging()], policy=policy, max_steps=2, tool_timeout=0.05
    ) as rt:
        outcome = await rt.run("q")
    events = await store.read(outcome.run_id)
    codes = [
        e.observation.code
        for e in events
        if isinstance(e, ToolObserved) and e.observation.kind == "tool_error"
    ]
    assert codes == ["tool_raised", "timeout"]
    assert outcome.reason == "budget"


async def test_cancellation_is_recorded() -> None:
    asked = anyio.Event()

    class Stuck:
        name = "stuck"

        async def next_step(self, view: RunView) -> str:
            asked.set()
            await anyio.sleep_forever()
            raise AssertionError("unreachable")

    store = MemoryStore()
    tools, _ = page_tools()
    async with Runtime(store=store, tools=tools, policy=Stuck()) as rt:

        async def run() -> None:
            await rt.run("q", run_id="cancel-me")

        # Cancel once the run waits on its policy, not after a guess at how long that takes.
        with anyio.fail_after(10):
            async with anyio.create_task_group() as tg:
                tg.start_soon(run)
                await asked.wait()
                tg.cancel_scope.cancel()
    events = await store.read("cancel-me")
    assert isinstance(events[-1], Abstained)
    assert events[-1].reason == "cancelled"


async def test_stream_yields_every_event_in_order_once_durable() -> None:
    store = MemoryStore()
    tools, _ = page_tools()
    seen = []
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo()) as rt:
        async for event in rt.stream("Who is the current CEO?"):
            stored = await store.read(event.run_id)
            assert stored[event.seq] == event
            seen.append(event)
    assert [e.seq for e in seen] == list(range(len(seen)))
    assert isinstance(seen[-1], Answered)


async def test_thoughts_can_be_stripped_and_bodies_are_fenced_and_cut() -> None:
    from citeloop.runtime import ViewOptions

    long_pages = {WIKI: ("Acme Robotics", FOUNDING + " " + "filler " * 200)}
    policy = ReplyQueue(react("secret reasoning", "open", WIKI), react("x", "search", "y"))
    tools, _ = page_tools(long_pages)
    options = ViewOptions(max_body_chars=100, strip_thoughts=True)
    async with Runtime(
        store=MemoryStore(), tools=tools, policy=policy, max_steps=2, view_options=options
    ) as rt:
        await rt.run("q")
    turn = policy.views[1].turns[0]
    assert turn.thought == ""
    assert "<<<page" in turn.shown and "untrusted" in turn.shown
    assert "more characters not shown" in turn.shown
    assert len(policy.views[1].pages[WIKI].body) == len(long_pages[WIKI][1])


async def test_structured_reply_goes_through_the_same_checks() -> None:
    call = PolicyReply(structured={"name": "open", "arguments": {"url": WIKI}})
    bad = PolicyReply(structured={"name": "delete_everything", "arguments": {"path": "/"}})

    class Structured:
        name = "structured"

        def __init__(self) -> None:
            self.replies = [call, bad]

        async def next_step(self, view: RunView) -> PolicyReply:
            return self.replies.pop(0)

    store = MemoryStore()
    tools, counter = page_tools()
    async with Runtime(store=store, tools=tools, policy=Structured(), max_steps=2) as rt:
        outcome = await rt.run("q")
    events = await store.read(outcome.run_id)
    assert any(isinstance(e, ActionParsed) and e.reply.structured is not None for e in events)
    assert [e.code for e in events if isinstance(e, ParseRejected)] == ["bad_action"]
    assert counter.calls == [f"open:{WIKI}"]


async def peek_at_the_log_while_the_tool_runs(read_only: bool) -> tuple[list[str], list[Event]]:
    """The log's last event type as the tool sees it mid-call, and the whole log after."""
    store = MemoryStore()
    seen: list[str] = []

    class Peeking:
        name = "search"

        async def __call__(self, argument: str) -> SearchHits:
            seen.append((await store.read("peek"))[-1].type)
            return SearchHits(query=argument, hits=())

    Peeking.read_only = read_only  # type: ignore[attr-defined]
    policy = ReplyQueue(react("s", "search", "x"))
    async with Runtime(store=store, tools=[Peeking()], policy=policy, max_steps=1) as rt:
        await rt.run("q", run_id="peek")
    return seen, await store.read("peek")


async def test_a_tool_of_unknown_effect_is_written_ahead() -> None:
    # Its dispatch is durable before it runs: after a crash, resume knows it may have happened.
    seen, log = await peek_at_the_log_while_the_tool_runs(read_only=False)
    assert seen == ["ToolDispatched"]
    assert [e.type for e in log[1:4]] == ["ActionParsed", "ToolDispatched", "ToolObserved"]


async def test_a_read_only_step_is_one_append_after_the_tool_returns() -> None:
    # Nothing of the step is durable while the tool runs; then all three events land together.
    seen, log = await peek_at_the_log_while_the_tool_runs(read_only=True)
    assert seen == ["RunStarted"]
    assert [e.type for e in log[1:4]] == ["ActionParsed", "ToolDispatched", "ToolObserved"]
    assert [e.seq for e in log] == list(range(len(log)))


async def test_runtime_must_be_entered() -> None:
    tools, _ = page_tools()
    rt = Runtime(store=MemoryStore(), tools=tools, policy=ScriptedPolicy.demo())
    with pytest.raises(UsageError, match="async with"):
        await rt.run("q")


async def test_a_reply_with_lone_surrogates_is_recorded_not_lost() -> None:
    broken = "Thought: \ud800 odd\nAction: search\nAction Input: Acme \udfff Robotics"
    store = MemoryStore()
    tools, counter = page_tools()
    async with Runtime(store=store, tools=tools, policy=ReplyQueue(broken), max_steps=1) as rt:
        outcome = await rt.run("q")
    events = await store.read(outcome.run_id)
    parsed = [e for e in events if isinstance(e, ActionParsed)]
    assert parsed[0].reply.text == broken.replace("\ud800", "\ufffd").replace("\udfff", "\ufffd")
    assert counter.calls == ["search:Acme \ufffd Robotics"]
    assert outcome.reason == "budget"


async def test_a_structured_reply_with_lone_surrogates_is_recorded() -> None:
    class Structured:
        name = "structured"

        async def next_step(self, view: RunView) -> PolicyReply:
            return PolicyReply(structured={"name": "search", "arguments": {"query": "Acme \ud800"}})

    store = MemoryStore()
    tools, counter = page_tools()
    async with Runtime(store=store, tools=tools, policy=Structured(), max_steps=1) as rt:
        outcome = await rt.run("q")
    assert counter.calls == ["search:Acme \ufffd"]
    assert len(await store.read(outcome.run_id)) == 5


async def test_a_policy_returning_the_wrong_type_ends_in_policy_error() -> None:
    class Confused:
        name = "confused"

        async def next_step(self, view: RunView) -> object:
            return {"action": "search"}

    tools, _ = page_tools()
    async with Runtime(store=MemoryStore(), tools=tools, policy=Confused()) as rt:  # type: ignore[arg-type]
        outcome = await rt.run("q")
        state = await rt.reopen(outcome.run_id)
    assert outcome.reason == "policy_error"
    assert isinstance(state.outcome, Abstained) and "returned dict" in state.outcome.detail


async def test_a_policy_error_detail_is_redacted_in_the_log() -> None:
    class Leaky:
        name = "leaky"

        async def next_step(self, view: RunView) -> str:
            raise PermissionError("401 for https://api.example/v1?api_key=sk-live-abcdefghijklmnop")

    tools, _ = page_tools()
    store = MemoryStore()
    async with Runtime(store=store, tools=tools, policy=Leaky()) as rt:
        outcome = await rt.run("q")
    events = await store.read(outcome.run_id)
    assert all("abcdefghijklmnop" not in e.model_dump_json() for e in events)
