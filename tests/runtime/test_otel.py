"""OpenTelemetry export: the span tree of a run (run → steps → chat / execute_tool), read off its events.

Spans are collected with the SDK's in-memory exporter. The sink is sync and backend-neutral,
so these tests run on asyncio and trio.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import anyio
import pytest
from citeloop.events import Event, MemoryStore, PolicyReply, ToolDispatched, UsageError
from citeloop.policies import RunView, abstain_reply, finish_reply, react
from citeloop.runtime import OtelSink, Runtime, export_run_spans
from helpers.fakes import SPEC_PAGES, Effectful, page_tools
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

pytestmark = pytest.mark.anyio

START = datetime(2026, 3, 4, 5, 6, 7, 123456, tzinfo=UTC)
ACME = "https://wiki.example/acme"
QUOTE = SPEC_PAGES[ACME][1]


class Ticking:
    """A clock that moves one second per reading: every event has its own time."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


class ModelReplies:
    """Replies like a chat model: each reply with its model, token usage and latency."""

    name = "openai:gpt-test"

    def __init__(self, *texts: str) -> None:
        self._texts = list(texts)

    async def next_step(self, view: RunView) -> PolicyReply:
        text = self._texts.pop(0)
        usage = {"prompt_tokens": 100 + len(self._texts), "completion_tokens": 7, "total_tokens": 0}
        return PolicyReply(text=text, model="gpt-test-0001", usage=usage, latency_ms=250.0)


def answering() -> ModelReplies:
    return ModelReplies(
        react("Look it up.", "search", "Acme Robotics founded"),
        react("Try a page.", "open", "https://wiki.example/missing"),  # fails: not_found
        react("Read it.", "open", ACME),
        finish_reply("It says so.", "Ada Ortiz", [ACME], QUOTE),
    )


def collector() -> tuple[TracerProvider, InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, exporter


@dataclass
class Node:
    span: ReadableSpan
    children: list[Node]

    @property
    def name(self) -> str:
        return self.span.name

    @property
    def attributes(self) -> dict[str, Any]:
        return dict(self.span.attributes or {})

    def walk(self) -> Iterator[Node]:
        yield self
        for child in self.children:
            yield from child.walk()

    def shape(self) -> object:
        """Everything but the span ids: names, kinds, attributes, times, status, children."""
        span = self.span
        return (
            span.name,
            span.kind,
            sorted(self.attributes.items()),
            span.start_time,
            span.end_time,
            span.status.status_code,
            [(event.name, dict(event.attributes or {}), event.timestamp) for event in span.events],
            [child.shape() for child in self.children],
        )


def trees(spans: tuple[ReadableSpan, ...]) -> list[Node]:
    """The exported spans as trees, children in start order; every span has its parent exported."""
    nodes = {span.context.span_id: Node(span, []) for span in spans}  # type: ignore[union-attr]
    roots = []
    for span in spans:
        node = nodes[span.context.span_id]  # type: ignore[union-attr]
        if span.parent is None:
            roots.append(node)
        else:
            assert span.parent.trace_id == span.context.trace_id  # type: ignore[union-attr]
            nodes[span.parent.span_id].children.append(node)
    for node in nodes.values():
        node.children.sort(key=lambda child: (child.span.start_time or 0, child.name))
    return sorted(roots, key=lambda root: root.attributes["citeloop.run_id"])


def ns(at: datetime) -> int:
    return int((at - datetime(1970, 1, 1, tzinfo=UTC)) / timedelta(microseconds=1)) * 1000


async def run_with_sink(policy: Any, run_id: str = "r1", **kwargs: Any) -> tuple[Node, list[Event]]:
    provider, exporter = collector()
    store = MemoryStore()
    tools, _ = page_tools()
    async with Runtime(
        store=store, tools=tools, policy=policy, sinks=[OtelSink(provider)], clock=Ticking(), **kwargs
    ) as rt:
        await rt.run("Who founded Acme Robotics?", run_id=run_id)
    (root,) = trees(exporter.get_finished_spans())
    return root, await store.read(run_id)


async def test_a_run_is_a_tree_of_steps_with_model_and_tool_calls() -> None:
    root, events = await run_with_sink(answering())
    assert root.name == "invoke_agent citeloop" and root.span.kind == SpanKind.INTERNAL
    attributes = root.attributes
    assert attributes["gen_ai.operation.name"] == "invoke_agent"
    assert attributes["gen_ai.agent.name"] == "citeloop"
    assert attributes["gen_ai.agent.id"] == attributes["citeloop.run_id"] == "r1"
    assert attributes["citeloop.status"] == "answered" and attributes["citeloop.steps"] == 4
    assert attributes["citeloop.policy"] == "openai:gpt-test" and attributes["citeloop.seq"] == 0
    assert attributes["citeloop.end_seq"] == events[-1].seq
    assert "citeloop.question" not in attributes  # content only when asked for
    assert root.span.start_time == ns(events[0].at) and root.span.end_time == ns(events[-1].at)

    steps = root.children
    assert [step.name for step in steps] == ["citeloop.step"] * 4
    assert [step.attributes["citeloop.step"] for step in steps] == [0, 1, 2, 3]  # the log's numbering
    children = [[child.name for child in step.children] for step in steps]
    assert children == [
        ["chat gpt-test-0001", "execute_tool search"],
        ["chat gpt-test-0001", "execute_tool open"],
        ["chat gpt-test-0001", "execute_tool open"],
        ["chat gpt-test-0001"],
    ]
    chat = steps[0].children[0]
    assert chat.span.kind == SpanKind.CLIENT
    assert chat.attributes["gen_ai.operation.name"] == "chat"
    assert chat.attributes["gen_ai.provider.name"] == "openai"
    assert (
        chat.attributes["gen_ai.request.model"] == chat.attributes["gen_ai.response.model"] == "gpt-test-0001"
    )
    assert chat.attributes["gen_ai.usage.input_tokens"] == 103
    assert chat.attributes["gen_ai.usage.output_tokens"] == 7
    parsed = next(e for e in events if e.type == "ActionParsed")
    # The chat span ends when the reply was recorded and began its latency before.
    assert chat.span.end_time == ns(parsed.at)
    assert chat.span.start_time == ns(parsed.at) - 250_000_000
    assert chat.attributes["citeloop.seq"] == parsed.seq

    search = steps[0].children[1]
    dispatched = next(e for e in events if isinstance(e, ToolDispatched))
    observed = next(e for e in events if e.type == "ToolObserved")
    assert search.attributes["gen_ai.operation.name"] == "execute_tool"
    assert search.attributes["gen_ai.tool.name"] == "search"
    assert search.attributes["gen_ai.tool.call.id"] == dispatched.call_id
    assert search.attributes["citeloop.tool.read_only"] is True
    assert search.attributes["citeloop.tool.outcome"] == "search_hits"
    assert search.span.status.status_code == StatusCode.UNSET
    assert (search.span.start_time, search.span.end_time) == (ns(dispatched.at), ns(observed.at))

    # Every child lies within its parent; every span carries the run id.
    for node in root.walk():
        assert node.attributes["citeloop.run_id"] == "r1"
        for child in node.children:
            assert node.span.start_time <= child.span.start_time <= child.span.end_time <= node.span.end_time  # type: ignore[operator]


async def test_a_failing_tool_is_an_error_span() -> None:
    root, _ = await run_with_sink(answering())
    failed = root.children[1].children[1]
    assert failed.attributes["citeloop.tool.outcome"] == "tool_error"
    assert failed.attributes["citeloop.tool.error_code"] == failed.attributes["error.type"] == "not_found"
    assert failed.span.status.status_code == StatusCode.ERROR
    assert root.span.status.status_code == StatusCode.UNSET  # the run still answered


async def test_an_abstained_run_carries_its_status_and_reason() -> None:
    policy = ModelReplies(
        react("Look it up.", "search", "zebra migration"),
        abstain_reply("Nothing found.", "no page mentions it"),
    )
    root, events = await run_with_sink(policy)
    assert root.attributes["citeloop.status"] == "abstained"
    assert root.attributes["citeloop.abstain_reason"] == events[-1].reason  # type: ignore[union-attr]
    assert root.span.status.status_code == StatusCode.UNSET
    assert [step.attributes["citeloop.step"] for step in root.children] == [0, 1]


async def test_a_failing_policy_is_an_error_run_span() -> None:
    class Broken:
        name = "broken"

        async def next_step(self, view: RunView) -> str:
            raise RuntimeError("model is down")

    root, _ = await run_with_sink(Broken())
    assert root.attributes["citeloop.status"] == "failed"
    assert root.attributes["citeloop.abstain_reason"] == "policy_error"
    assert root.span.status.status_code == StatusCode.ERROR
    assert root.children == []  # no reply, no step


async def test_content_is_captured_only_when_asked_and_redacted() -> None:
    provider, exporter = collector()
    store = MemoryStore()
    tools, _ = page_tools()
    sink = OtelSink(provider, capture_content=True)
    async with Runtime(store=store, tools=tools, policy=answering(), sinks=[sink], clock=Ticking()) as rt:
        await rt.run("Who founded Acme? token sk-abcdefghijklmnopqrstuvwxyz0123456789", run_id="r1")
    (root,) = trees(exporter.get_finished_spans())
    assert "Who founded Acme?" in root.attributes["citeloop.question"]
    assert "sk-abcdefghijklmnopqrstuvwxyz0123456789" not in root.attributes["citeloop.question"]
    assert root.attributes["citeloop.answer"] == "Ada Ortiz"
    search = root.children[0].children[1]
    assert search.attributes["gen_ai.tool.call.arguments"] == "Acme Robotics founded"


async def test_a_stored_run_exports_the_same_tree_as_the_live_sink() -> None:
    live, events = await run_with_sink(answering())
    provider, exporter = collector()
    export_run_spans(events, provider)
    (stored,) = trees(exporter.get_finished_spans())
    assert stored.shape() == live.shape()


async def test_many_runs_at_once_each_get_their_own_tree() -> None:
    provider, exporter = collector()
    store = MemoryStore()
    tools, _ = page_tools()
    questions = ["Who founded Acme Robotics?", "Who is the current CEO?"] * 3

    class Demo:
        name = "scripted"

        async def next_step(self, view: RunView) -> str:
            if not view.searched:
                return react("Look it up.", "search", view.question)
            return abstain_reply("Enough.", "stop here")

    runtime = Runtime(store=store, tools=tools, policy=Demo(), sinks=[OtelSink(provider)])
    async with runtime as rt, anyio.create_task_group() as group:
        for index, question in enumerate(questions):
            group.start_soon(functools.partial(rt.run, question, run_id=f"run-{index}"))
    roots = trees(exporter.get_finished_spans())
    assert [root.attributes["citeloop.run_id"] for root in roots] == [f"run-{i}" for i in range(6)]
    assert len({root.span.context.trace_id for root in roots}) == 6  # type: ignore[union-attr]
    for root in roots:
        assert [step.attributes["citeloop.step"] for step in root.children] == [0, 1]


async def test_a_resumed_run_continues_its_tree() -> None:
    # A tool of unknown effect was dispatched, then the process died: resume records the
    # outcome as unknown and goes on. Exported from the log, the run is one tree; the live
    # sink of the resuming process sees the run from the resume on.
    provider, _ = collector()
    store = MemoryStore()
    effect_tools, counter = page_tools()
    notify = ModelReplies(
        react("Tell them.", "notify", "ops@acme.example"), abstain_reply("Done.", "nothing")
    )
    tools = [*effect_tools, Effectful(counter)]
    async with Runtime(store=store, tools=tools, policy=notify, clock=Ticking()) as rt:
        await rt.run("q", run_id="fx")
    full = await store.read("fx")
    cut = next(i for i, e in enumerate(full) if isinstance(e, ToolDispatched)) + 1
    crashed = MemoryStore()
    await crashed.append("fx", full[:cut], 0)

    live_provider, live_exporter = collector()
    clock = Ticking()
    clock.now = full[cut - 1].at
    resume_policy = ModelReplies(abstain_reply("Done.", "the outcome is unknown"))
    sink = OtelSink(live_provider)
    async with Runtime(store=crashed, tools=tools, policy=resume_policy, sinks=[sink], clock=clock) as rt:
        await rt.resume("fx")
    events = await crashed.read("fx")
    assert [e.type for e in events[cut:]] == ["ToolOutcomeUnknown", "ActionParsed", "Abstained"]

    (live,) = trees(live_exporter.get_finished_spans())
    assert live.attributes["citeloop.resumed"] is True and live.attributes["citeloop.seq"] == cut
    assert live.attributes["citeloop.status"] == "abstained"
    unknown = live.children[0].children[0]
    assert unknown.name == "execute_tool notify"
    assert unknown.attributes["citeloop.tool.outcome"] == "outcome_unknown"
    assert unknown.attributes["citeloop.resumed"] is True

    exporter = InMemorySpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    export_run_spans(events, provider)
    (whole,) = trees(exporter.get_finished_spans())
    assert "citeloop.resumed" not in whole.attributes
    assert [step.attributes["citeloop.step"] for step in whole.children] == [0, 1]
    step_one = whole.children[0]
    assert [child.name for child in step_one.children] == ["chat gpt-test-0001", "execute_tool notify"]
    notify_span = step_one.children[1]
    assert notify_span.attributes["citeloop.tool.read_only"] is False
    assert notify_span.attributes["citeloop.tool.outcome"] == "outcome_unknown"
    assert notify_span.span.start_time == ns(events[cut - 1].at)
    assert notify_span.span.end_time == ns(events[cut].at)


async def test_a_fork_exports_its_own_steps_and_names_its_parent() -> None:
    # The fork's log copies the parent's first steps with their times; those spans are
    # the parent's. The fork's tree holds the steps it took itself, within its own span.
    provider, exporter = collector()
    store = MemoryStore()
    tools, _ = page_tools()
    sink = OtelSink(provider)
    clock = Ticking()
    async with Runtime(store=store, tools=tools, policy=answering(), sinks=[sink], clock=clock) as rt:
        await rt.run("Who founded Acme Robotics?", run_id="parent")
        other = ModelReplies(abstain_reply("Not sure.", "I would rather not say"))
        other.name = "anthropic:claude-test"
        await rt.fork("parent", at_step=2, policy=other, run_id="child")
    fork_events = await store.read("child")
    child, parent = trees(exporter.get_finished_spans())  # by run id
    assert child.attributes["citeloop.parent_run_id"] == "parent"
    assert child.attributes["citeloop.forked_at_step"] == 2
    assert child.attributes["citeloop.policy"] == "anthropic:claude-test"
    assert child.attributes["citeloop.status"] == "abstained"
    assert [step.attributes["citeloop.step"] for step in child.children] == [2]
    (chat,) = child.children[0].children
    assert chat.attributes["gen_ai.provider.name"] == "anthropic"
    assert child.span.start_time == ns(fork_events[0].at)
    for node in child.walk():
        for inner in node.children:
            assert node.span.start_time <= inner.span.start_time <= inner.span.end_time <= node.span.end_time  # type: ignore[operator]
    assert [step.attributes["citeloop.step"] for step in parent.children] == [0, 1, 2, 3]
    again, collected = collector()
    export_run_spans(fork_events, again)
    (stored,) = trees(collected.get_finished_spans())
    assert stored.shape() == child.shape()


def test_an_unfinished_stored_run_ends_at_its_last_event() -> None:
    provider, exporter = collector()
    started = {
        "type": "RunStarted",
        "run_id": "u1",
        "seq": 0,
        "at": START.isoformat(),
        "question": "q",
        "max_steps": 3,
        "tools": [{"name": "search", "read_only": True}],
        "allowlist": ["search"],
        "policy": "scripted",
    }
    dispatched = {
        "type": "ToolDispatched",
        "run_id": "u1",
        "seq": 1,
        "at": (START + timedelta(seconds=2)).isoformat(),
        "step": 1,
        "call_id": "c1",
        "tool": "search",
        "input": "q",
        "read_only": True,
    }
    from citeloop.events import event_from_dict

    export_run_spans([event_from_dict(started), event_from_dict(dispatched)], provider)
    (root,) = trees(exporter.get_finished_spans())
    assert root.attributes["citeloop.status"] == "running"
    assert root.span.end_time == ns(START + timedelta(seconds=2))
    (tool,) = root.children[0].children
    assert tool.attributes["citeloop.tool.outcome"] == "not_observed"


def test_one_run_per_export() -> None:
    provider, _ = collector()
    base = {"type": "RunStarted", "seq": 0, "at": START.isoformat(), "question": "q", "max_steps": 3}
    rest = {"tools": [], "allowlist": [], "policy": "p"}
    from citeloop.events import event_from_dict

    events = [event_from_dict({**base, **rest, "run_id": run_id}) for run_id in ("a", "b")]
    with pytest.raises(UsageError, match="one run"):
        export_run_spans(events, provider)


def test_without_the_extra_the_error_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "opentelemetry", None)
    with pytest.raises(UsageError, match=r"citeloop\[otel\]"):
        OtelSink()
