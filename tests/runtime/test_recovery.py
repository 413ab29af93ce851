"""Reopen and resume: the log is the truth, and a crash at any event loses and repeats nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import anyio
import anyio.abc
import pytest
from citeloop.events import (
    ConcurrencyError,
    Event,
    MemoryStore,
    RunBusyError,
    ToolDispatched,
    ToolObserved,
    ToolOutcomeUnknown,
    UnknownRunError,
)
from citeloop.policies import RunView, ScriptedPolicy, abstain_reply, react
from citeloop.runtime import Outcome, Runtime, fold
from helpers.fakes import CountingPolicy, Effectful, ReplyQueue, page_tools

pytestmark = pytest.mark.anyio

FIXED = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def fixed_clock() -> datetime:
    return FIXED


async def full_run(question: str) -> list[Event]:
    store = MemoryStore()
    tools, _ = page_tools()
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo(), clock=fixed_clock) as rt:
        outcome = await rt.run(question, run_id="r1")
    return await store.read(outcome.run_id)


@pytest.mark.parametrize("question", ["Who is the current CEO?", "What is Ada's favorite food?"])
async def test_crash_matrix_every_prefix_resumes_to_the_same_log(question: str) -> None:
    full = await full_run(question)
    assert len(full) >= 6
    for cut in range(1, len(full)):
        prefix = full[:cut]
        store = MemoryStore()
        await store.append("r1", prefix, 0)
        tools, counter = page_tools()
        async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo(), clock=fixed_clock) as rt:
            outcome = await rt.resume("r1")
        resumed = await store.read("r1")
        assert resumed == full, f"resume after event {cut - 1} took another path"
        assert outcome == Outcome.from_state(fold(full))
        observed_before = {e.call_id for e in prefix if isinstance(e, ToolObserved) and e.call_id}
        redispatched = [e for e in full[cut:] if isinstance(e, ToolObserved) and e.call_id in observed_before]
        assert redispatched == []
        calls_needed = sum(1 for e in full[cut:] if isinstance(e, ToolObserved) and e.call_id is not None)
        assert len(counter) == calls_needed, f"cut {cut}: {counter.calls}"


async def test_unknown_effect_dispatch_is_never_run_again_and_the_policy_is_told() -> None:
    store = MemoryStore()
    notified = []

    def first(view: RunView) -> str:
        return react("tell them", "notify", "ops@acme.example")

    policy = ReplyQueue(first, abstain_reply("done", "nothing to report"))
    effect_tools, counter = page_tools()
    effect = Effectful(counter)
    async with Runtime(store=store, tools=[*effect_tools, effect], policy=policy, clock=fixed_clock) as rt:
        await rt.run("q", run_id="fx")
    full = await store.read("fx")
    dispatch_at = next(i for i, e in enumerate(full) if isinstance(e, ToolDispatched))
    crashed = full[: dispatch_at + 1]

    store2 = MemoryStore()
    await store2.append("fx", crashed, 0)
    policy2 = ReplyQueue(abstain_reply("done", "nothing to report"))
    tools2, counter2 = page_tools()
    async with Runtime(
        store=store2, tools=[*tools2, Effectful(counter2)], policy=policy2, clock=fixed_clock
    ) as rt:
        outcome = await rt.resume("fx")
    assert counter2.calls == []
    events = await store2.read("fx")
    unknown = [e for e in events if isinstance(e, ToolOutcomeUnknown)]
    assert len(unknown) == 1 and unknown[0].tool == "notify"
    assert "unknown" in policy2.views[0].turns[-1].shown
    assert outcome.status == "abstained"
    assert notified == []


async def test_read_only_dispatch_is_run_again_once() -> None:
    full = await full_run("Who founded Acme Robotics?")
    dispatch_at = next(i for i, e in enumerate(full) if isinstance(e, ToolDispatched) and e.tool == "open")
    store = MemoryStore()
    await store.append("r1", full[: dispatch_at + 1], 0)
    tools, counter = page_tools()
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo(), clock=fixed_clock) as rt:
        await rt.resume("r1")
    assert counter.calls == ["open:https://wiki.example/acme"]
    assert await store.read("r1") == full


async def test_resume_trusts_the_tool_over_the_log_about_read_only() -> None:
    """A log that calls a dispatch read-only does not make an effectful tool safe to run twice."""
    store = MemoryStore()
    effect_tools, counter = page_tools()
    policy = ReplyQueue(react("tell them", "notify", "ops@acme.example"), abstain_reply("done", "sent"))
    async with Runtime(store=store, tools=[*effect_tools, Effectful(counter)], policy=policy) as rt:
        await rt.run("q", run_id="fx")
    full = await store.read("fx")
    dispatch_at = next(i for i, e in enumerate(full) if isinstance(e, ToolDispatched))
    dispatched = full[dispatch_at]
    assert isinstance(dispatched, ToolDispatched) and not dispatched.read_only
    lying = dispatched.model_copy(update={"read_only": True})  # an edited or older log

    store2 = MemoryStore()
    await store2.append("fx", [*full[:dispatch_at], lying], 0)
    tools2, counter2 = page_tools()
    policy2 = ReplyQueue(abstain_reply("done", "unknown"))
    async with Runtime(store=store2, tools=[*tools2, Effectful(counter2)], policy=policy2) as rt:
        await rt.resume("fx")
    assert counter2.calls == []  # not run a second time
    assert any(isinstance(e, ToolOutcomeUnknown) for e in await store2.read("fx"))


async def test_reopen_dispatches_no_tool_and_calls_no_policy() -> None:
    store = MemoryStore()
    tools, counter = page_tools()
    policy = CountingPolicy(ScriptedPolicy.demo())
    async with Runtime(store=store, tools=tools, policy=policy) as rt:
        finished = await rt.run("Who is the current CEO?")
        unfinished = await rt.submit("Who founded Acme Robotics?")
        tool_calls, policy_calls = len(counter), policy.calls
        state = await rt.reopen(finished.run_id)
        pending = await rt.reopen(unfinished)
        transcript = await rt.transcript(finished.run_id)
        report = await rt.check(finished.run_id)
    assert (len(counter), policy.calls) == (tool_calls, policy_calls)
    assert state.status == "answered" and "https://news.example/ada" in state.opened
    assert pending.status == "queued" and pending.steps == 0  # only its start is recorded
    assert fold(transcript) == state
    assert report.ok


async def test_unknown_run_is_a_clear_error() -> None:
    tools, _ = page_tools()
    async with Runtime(store=MemoryStore(), tools=tools, policy=ScriptedPolicy.demo()) as rt:
        with pytest.raises(UnknownRunError, match="no run 'nope'"):
            await rt.reopen("nope")


async def test_two_resumers_exactly_one_proceeds() -> None:
    """Two runtimes resume one run: the second is refused at once (the run has a driver),
    before it asks its policy or appends anything; the first drives the run to its end."""
    store = MemoryStore()
    tools, _ = page_tools()
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo(), clock=fixed_clock) as rt:
        run_id = await rt.submit("Who founded Acme Robotics?", run_id="shared")

    refused = anyio.Event()
    waiting = anyio.Event()
    asked: list[str] = []

    class WaitsForTheOther:
        """The first driver holds its first step until the second resumer has been refused."""

        name = "scripted"

        def __init__(self, label: str) -> None:
            self._inner = ScriptedPolicy.demo()
            self._label = label

        async def next_step(self, view: RunView) -> str:
            asked.append(self._label)
            waiting.set()
            await refused.wait()
            return await self._inner.next_step(view)

    results: list[object] = []

    async def resume_in_own_runtime(label: str, *, task_status: anyio.abc.TaskStatus[None]) -> None:
        tools, _ = page_tools()
        policy = WaitsForTheOther(label)
        async with Runtime(store=store, tools=tools, policy=policy, clock=fixed_clock) as rt:
            task_status.started()
            try:
                results.append(await rt.resume(run_id))
            except (RunBusyError, ConcurrencyError) as exc:
                results.append(exc)
                refused.set()

    with anyio.fail_after(10):
        async with anyio.create_task_group() as tg:
            await tg.start(resume_in_own_runtime, "first")
            await waiting.wait()  # the first holds the run and waits in its policy
            await tg.start(resume_in_own_runtime, "second")
    errors = [r for r in results if isinstance(r, RunBusyError)]
    outcomes = [r for r in results if isinstance(r, Outcome)]
    assert len(errors) == 1 and len(outcomes) == 1
    assert set(asked) == {"first"}  # the refused resumer never asked its policy
    events = await store.read(run_id)
    assert [e.seq for e in events] == list(range(len(events)))
    assert Outcome.from_state(fold(events)) == outcomes[0]
    dispatches = [e for e in events if isinstance(e, ToolDispatched)]
    assert len({(d.tool, d.input) for d in dispatches}) == len(dispatches)
