"""Cancellation at any moment leaves every started run with a terminal event, on every embedded store."""

from __future__ import annotations

from contextlib import aclosing
from pathlib import Path

import anyio
import pytest
from citeloop.events import Event, open_store
from citeloop.policies import ScriptedPolicy
from citeloop.runtime import Runtime, fold
from helpers.fakes import page_tools

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("kind", ["memory", "jsonl", "sqlite"])
async def test_cancel_at_any_moment_ends_every_started_run(kind: str, tmp_path: Path) -> None:
    url = {
        "memory": "memory://",
        "jsonl": f"jsonl:///{tmp_path}/l.jsonl",
        "sqlite": f"sqlite:///{tmp_path}/r.db",
    }
    store = open_store(url[kind])
    tools, _ = page_tools(latency=0.0005)
    async with store, Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo()) as rt:
        for i in range(60):
            # Deadlines from 0 to ~6 ms strike at every kind of moment: before the start is
            # written, inside an append, during a tool call, between steps.
            with anyio.move_on_after(i * 0.0001):
                await rt.run("Who is the current CEO?", run_id=f"r{i}")
        summaries = await store.runs()
        for summary in summaries:
            events = await store.read(summary.run_id)
            state = fold(events)
            assert state.finished, f"{summary.run_id} left running: {[e.type for e in events]}"
            # The store keeps the broad status; the fold says how the run ended (cancelled, ...).
            broad = {"cancelled": "abstained", "failed": "abstained"}.get(state.status, state.status)
            assert summary.status == broad
    assert summaries, "no run got as far as its start"


async def test_a_stream_abandoned_before_its_first_event_still_ends() -> None:
    store = open_store("memory://")
    tools, _ = page_tools(latency=0.01)
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo(), run_grace=0.5) as rt:
        with anyio.move_on_after(0):
            async with aclosing(rt.stream("Who is the current CEO?", run_id="s1")) as stream:
                async for _event in stream:
                    pass
    events = await store.read("s1")
    assert fold(events).finished


async def test_sinks_see_every_event_of_runs_still_going_at_exit() -> None:
    store = open_store("memory://")
    seen: list[Event] = []
    tools, _ = page_tools(latency=0.001)
    runtime = Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo(), sinks=[seen.append])
    async with runtime as rt, aclosing(rt.stream("Who founded Acme Robotics?", run_id="s2")) as events_so_far:
        async for _event in events_so_far:
            break  # the consumer leaves; the run goes on while the runtime shuts down
    events = await store.read("s2")
    assert fold(events).finished
    stats = runtime.sink_stats[0]
    assert stats.delivered + stats.dropped + stats.failed == len(events)
    assert seen == events
