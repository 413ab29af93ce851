"""Forking a run at step k: the copied steps are reused without dispatching, the fork diverges after them."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
from citeloop.events import (
    Event,
    EventStore,
    Forked,
    MemoryStore,
    RunStarted,
    TamperedLogError,
    ToolDispatched,
    ToolObserved,
    ToolOutcomeUnknown,
    UsageError,
    open_store,
    stamp_chain,
)
from citeloop.policies import ScriptedAnswer, ScriptedPolicy, react
from citeloop.runtime import Runtime, check_events, fold
from citeloop.runtime._fork import decide_fork
from helpers.fakes import CountingPolicy, Effectful, ReplyQueue, page_tools

pytestmark = pytest.mark.anyio

QUESTION = "Who founded Acme Robotics?"
WIKI = "https://wiki.example/acme"
FOUNDING = "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon."
# Another policy for the same question: it gives another answer from the same page.
OTHER = ScriptedPolicy(
    {QUESTION: ScriptedAnswer(answer="Ada Ortiz, in 2014.", evidence=FOUNDING)}, name="other"
)


@pytest.fixture(params=["memory", "sqlite"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[EventStore]:
    url = "memory://" if request.param == "memory" else f"sqlite:///{tmp_path / 'runs.db'}"
    async with open_store(url) as opened:
        yield opened


def _plain(event: Event) -> dict[str, object]:
    """An event without what a fork re-numbers: its run id, seq, chain link and seq-derived call id."""
    return event.model_dump(exclude={"run_id", "seq", "prev", "call_id"})


def _call_ids(events: Sequence[Event]) -> list[str | None]:
    return [getattr(event, "call_id", None) for event in events]


async def _parent(rt: Runtime) -> str:
    outcome = await rt.run(QUESTION)
    assert outcome.status == "answered" and outcome.steps == 3  # search, open, finish
    return outcome.run_id


async def test_a_fork_reuses_the_steps_before_k_and_diverges_after(store: EventStore) -> None:
    tools, counter = page_tools()
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo()) as rt:
        parent_id = await _parent(rt)
        parent = await store.read(parent_id)
        calls_before = list(counter.calls)
        other = CountingPolicy(OTHER)
        forked = await rt.fork(parent_id, at_step=2, policy=other)
        report = await rt.check(forked.run_id)

    assert counter.calls == calls_before  # neither the search nor the open ran again
    assert other.calls == 1  # asked for step 2 only
    assert forked.status == "answered" and forked.answer == "Ada Ortiz, in 2014."
    assert forked.run_id != parent_id and forked.answer != fold(parent).outcome.answer  # type: ignore[union-attr]
    events = await store.read(forked.run_id)
    head = events[0]
    assert isinstance(head, Forked)
    assert (head.parent_run_id, head.at_step, head.policy) == (parent_id, 2, "other")
    # The copied prefix: the parent's events before step 2's reply, the same facts re-numbered.
    kept = parent[:7]
    assert [e.type for e in kept] == ["RunStarted", *["ActionParsed", "ToolDispatched", "ToolObserved"] * 2]
    assert head.parent_seq == kept[-1].seq and head.parent_head == parent[7].prev
    copied = events[1 : 1 + len(kept)]
    assert [_plain(e) for e in copied] == [_plain(e) for e in kept]
    assert [e.seq for e in copied] == [e.seq + 1 for e in kept]
    assert all(e.run_id == forked.run_id for e in events)
    assert _call_ids(copied) == [None, None, "c3", "c3", None, "c6", "c6"]
    assert report.ok and report.chain == "chained", report.divergences
    state = fold(events)
    assert (state.parent_run_id, state.forked_at, state.policy) == (parent_id, 2, "other")


async def test_a_fork_at_step_1_dispatches_only_what_the_new_policy_asks(store: EventStore) -> None:
    tools, counter = page_tools()
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo()) as rt:
        parent_id = await _parent(rt)
        done = len(counter)
        policy = CountingPolicy(OTHER)
        forked = await rt.fork(parent_id, at_step=1, policy=policy)
        assert (await rt.check(forked.run_id)).ok
    assert counter.calls[done:] == [f"open:{WIKI}"]  # step 1's open, decided again; the search is reused
    assert policy.calls == 2 and forked.steps == 3


async def test_k_0_keeps_only_the_start(store: EventStore) -> None:
    tools, counter = page_tools()
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo()) as rt:
        parent_id = await _parent(rt)
        done = len(counter)
        forked = await rt.fork(parent_id, at_step=0)
        events = await store.read(forked.run_id)
        assert (await rt.check(forked.run_id)).ok
    assert [e.type for e in events[:3]] == ["Forked", "RunStarted", "ActionParsed"]
    started = events[1]
    assert isinstance(started, RunStarted) and started.question == QUESTION
    assert len(counter) - done == 2  # nothing kept: the search and the open run again
    assert forked.status == "answered"


async def test_a_fork_of_a_fork(store: EventStore) -> None:
    tools, counter = page_tools()
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo()) as rt:
        parent_id = await _parent(rt)
        first = await rt.fork(parent_id, at_step=2, policy=OTHER)
        done = len(counter)
        second = await rt.fork(first.run_id, at_step=2)  # the runtime's own policy again
        assert (await rt.check(second.run_id)).ok
        first_events, second_events = await store.read(first.run_id), await store.read(second.run_id)
    assert len(counter) == done
    head = second_events[0]
    assert isinstance(head, Forked) and head.parent_run_id == first.run_id
    # The parent's own Forked is not copied: the fork's RunStarted follows its Forked.
    assert [_plain(e) for e in second_events[1:7]] == [_plain(e) for e in first_events[1:7]]
    assert second.answer == "Acme Robotics was founded by Ada Ortiz."
    summaries = {s.run_id: s for s in await store.runs()}
    assert summaries[second.run_id].question == QUESTION
    assert summaries[first.run_id].question == QUESTION


@pytest.mark.parametrize(
    ("at_step", "message"),
    [
        (-1, "0 or more"),
        (4, "has 3 steps (0 to 2): fork it at a step from 0 to 3"),
        (3, "ended at step 2 (answered): fork it at step 2 or earlier"),
    ],
)
async def test_a_step_the_run_cannot_be_forked_at(store: EventStore, at_step: int, message: str) -> None:
    tools, _ = page_tools()
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo()) as rt:
        parent_id = await _parent(rt)
        before = len(await store.runs())
        with pytest.raises(UsageError, match=re.escape(message)):
            await rt.fork(parent_id, at_step=at_step)
        assert len(await store.runs()) == before  # nothing written


async def test_a_spent_budget_is_refused_and_an_earlier_step_is_not(store: EventStore) -> None:
    tools, _ = page_tools()
    searching = ReplyQueue(*(react("look", "search", f"Acme {i}") for i in range(3)))
    async with Runtime(store=store, tools=tools, policy=searching, max_steps=2) as rt:
        parent = await rt.run(QUESTION)
        assert parent.reason == "budget"
        with pytest.raises(UsageError, match=r"spent its step budget \(2\)"):
            await rt.fork(parent.run_id, at_step=2)
        forked = await rt.fork(parent.run_id, at_step=1, policy=ScriptedPolicy.demo())
        assert (await rt.check(forked.run_id)).ok


async def test_a_failed_policy_is_forked_after_its_last_step_to_try_another() -> None:
    """The run stopped because its model failed at step 1: fork at 1, and another policy goes on."""

    def fail(_: object) -> str:
        raise RuntimeError("model unavailable")

    store = MemoryStore()
    tools, counter = page_tools()
    async with Runtime(
        store=store, tools=tools, policy=ReplyQueue(react("look", "search", QUESTION), fail)
    ) as rt:
        parent = await rt.run(QUESTION)
        assert parent.status == "failed" and parent.steps == 1
        done = len(counter)
        forked = await rt.fork(parent.run_id, at_step=1, policy=ScriptedPolicy.demo())
        assert (await rt.check(forked.run_id)).ok
    assert forked.status == "answered"
    assert counter.calls[done:] == [f"open:{WIKI}"]  # the search is reused; the failure is not copied
    assert not any(e.type == "Abstained" for e in (await store.read(forked.run_id))[:-1])


async def test_an_unsettled_step_is_refused() -> None:
    """A tool of unknown effect dispatched by a process that stopped: its step is not forked past."""
    store = MemoryStore()
    notify = Effectful(page_tools()[1])
    policy = ReplyQueue(react("tell", "notify", "ops"), react("tell", "notify", "ops"))
    async with Runtime(store=store, tools=[notify], policy=policy, max_steps=1) as rt:
        recorded = await store.read((await rt.run(QUESTION)).run_id)
    dispatched = next(i for i, e in enumerate(recorded) if isinstance(e, ToolDispatched))
    stopped = [e.model_copy(update={"run_id": "stopped"}) for e in recorded[: dispatched + 1]]
    await store.append("stopped", stamp_chain(stopped, None)[0], 0)
    async with Runtime(store=store, tools=[notify], policy=policy) as rt:
        with pytest.raises(UsageError, match="step 0 of run stopped did not settle"):
            await rt.fork("stopped", at_step=1)
        forked = await rt.fork("stopped", at_step=0, policy=ReplyQueue(react("done", "finish", "{}")))
    assert forked.run_id != "stopped"


async def test_a_parent_that_breaks_its_chain_is_refused() -> None:
    store = MemoryStore()  # a store that does not check the chain on read: the fork does
    tools, _ = page_tools()
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo()) as rt:
        events = await store.read(await _parent(rt))
        copy = stamp_chain([e.model_copy(update={"run_id": "edited"}) for e in events], None)[0]
        edited = list(copy)
        edited[2] = copy[2].model_copy(update={"input": "something else"})  # seq 3 no longer names it
        await store.append("edited", edited, 0)
        with pytest.raises(TamperedLogError):
            await rt.fork("edited", at_step=1)


async def test_check_re_derives_the_copy_from_the_parent() -> None:
    """A fork's copied prefix is judged against its parent's log: a lying Forked is a lineage divergence."""
    store = MemoryStore()
    tools, _ = page_tools()
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo()) as rt:
        parent_id = await _parent(rt)
        forked = await rt.fork(parent_id, at_step=2, policy=OTHER)
        parent, events = await store.read(parent_id), await store.read(forked.run_id)
    assert check_events(events, parent=parent).ok
    head = events[0]
    assert isinstance(head, Forked)
    lying = stamp_chain([head.model_copy(update={"at_step": 1}), *events[1:]], None)[0]
    assert check_events(lying).ok  # on its own, the log is consistent
    (divergence,) = check_events(lying, parent=parent).divergences
    assert (divergence.kind, divergence.seq) == ("lineage", 0)
    # A copied observation edited (and re-chained, as a forger would) no longer matches the parent's.
    index = next(i for i, e in enumerate(events) if isinstance(e, ToolObserved))
    observed = events[index]
    assert isinstance(observed, ToolObserved)
    forged = list(events)
    forged[index] = observed.model_copy(update={"input": "Who else?"})
    kinds = {d.kind for d in check_events(stamp_chain(forged, None)[0], parent=parent).divergences}
    assert "lineage" in kinds


async def test_a_fork_that_stopped_after_its_first_batch_is_resumed(store: EventStore) -> None:
    tools, counter = page_tools()
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo()) as rt:
        parent_id = await _parent(rt)
        parent = await store.read(parent_id)
    # What a process that stopped right after the fork's first append leaves behind.
    first = decide_fork(parent, "stopped-fork", at_step=2, policy="other", at=parent[-1].at)
    await store.append("stopped-fork", stamp_chain(first, None)[0], 0)
    done = len(counter)
    other = CountingPolicy(OTHER)
    async with Runtime(store=store, tools=tools, policy=other) as rt:
        resumed = await rt.resume("stopped-fork")
        assert (await rt.check("stopped-fork")).ok
    assert resumed.answer == "Ada Ortiz, in 2014." and other.calls == 1 and len(counter) == done


async def test_an_effectful_call_in_a_fork_is_not_run_twice_on_resume(store: EventStore) -> None:
    counter = page_tools()[1]
    notify = Effectful(counter)
    tools = [*page_tools()[0], notify]
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo()) as rt:
        parent_id = await _parent(rt)
        forked = await rt.fork(
            parent_id, at_step=1, policy=ReplyQueue(react("tell", "notify", "ops")), run_id="f"
        )
        assert forked.reason == "budget"
        events = await store.read("f")
    # The fork as a crash mid-call leaves it: its first dispatch of `notify` with no observation.
    cut = next(i for i, e in enumerate(events) if isinstance(e, ToolDispatched) and e.tool == "notify")
    await store.append(
        "f2", stamp_chain([e.model_copy(update={"run_id": "f2"}) for e in events[: cut + 1]], None)[0], 0
    )
    calls = len(counter)
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo()) as rt:
        await rt.resume("f2")
        assert (await rt.check("f2")).ok
    assert len(counter) == calls  # the call of unknown effect is not made again
    assert any(isinstance(e, ToolOutcomeUnknown) for e in await store.read("f2"))
