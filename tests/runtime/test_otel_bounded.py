"""`OtelSink` keeps the state of at most `max_open_runs` unfinished runs: abandoned runs cannot grow it.

Past the cap the run fed least recently is let go (its spans end, `citeloop.evicted`);
runs that go on to finish still export exactly the spans `export_run_spans` gives.
"""

from __future__ import annotations

from typing import Any

import pytest
from citeloop.events import Event, MemoryStore, UsageError
from citeloop.policies import ScriptedPolicy
from citeloop.runtime import OtelSink, Runtime, export_run_spans
from citeloop.runtime._otel import DEFAULT_MAX_OPEN_RUNS
from helpers.fakes import page_tools
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

pytestmark = pytest.mark.anyio


def collector() -> tuple[TracerProvider, InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, exporter


async def answered_run() -> list[Event]:
    store = MemoryStore()
    tools, _ = page_tools()
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo()) as rt:
        outcome = await rt.run("Who founded Acme Robotics?", run_id="template")
    events = await store.read(outcome.run_id)
    assert outcome.status == "answered" and len(events) > 6
    return events


def as_run(events: list[Event], run_id: str) -> list[Event]:
    return [event.model_copy(update={"run_id": run_id}) for event in events]


def of_run(spans: tuple[ReadableSpan, ...], run_id: str) -> list[tuple[Any, ...]]:
    """A run's spans as comparable facts: name, times, attributes, and the parent's name."""
    names = {span.context.span_id: span.name for span in spans}  # type: ignore[union-attr]
    return sorted(
        (
            span.name,
            span.start_time,
            span.end_time,
            sorted((span.attributes or {}).items()),
            names.get(span.parent.span_id) if span.parent else None,
        )
        for span in spans
        if (span.attributes or {}).get("citeloop.run_id") == run_id
    )


def roots(spans: tuple[ReadableSpan, ...]) -> dict[str, ReadableSpan]:
    return {str(span.attributes["citeloop.run_id"]): span for span in spans if span.parent is None}  # type: ignore[index]


async def test_abandoned_runs_are_let_go_and_a_finishing_run_exports_its_whole_tree() -> None:
    template = await answered_run()
    done = as_run(template, "done")
    provider, exporter = collector()
    sink = OtelSink(provider, max_open_runs=2)
    for index, event in enumerate(done):
        sink(event)
        # Between any two of its events, another run starts and is abandoned after two events.
        for abandoned in as_run(template, f"gone-{index}")[:2]:
            sink(abandoned)
        assert len(sink._runs) <= 2
    spans = exporter.get_finished_spans()
    wanted_provider, wanted = collector()
    export_run_spans(done, wanted_provider)
    assert of_run(spans, "done") == of_run(wanted.get_finished_spans(), "done")
    # Every abandoned run but the last two (room was made once `done` ended) was let go: its run
    # span ended, marked, status running.
    ended = roots(spans)
    evicted = sorted(run for run, span in ended.items() if (span.attributes or {}).get("citeloop.evicted"))
    assert evicted == sorted(f"gone-{index}" for index in range(len(done) - 2))
    assert {ended[run].attributes["citeloop.status"] for run in evicted} == {"running"}  # type: ignore[index]
    assert set(sink._runs) == {f"gone-{len(done) - 2}", f"gone-{len(done) - 1}"}
    sink.close()
    assert not sink._runs


async def test_a_run_let_go_and_fed_again_is_taken_up_as_resumed() -> None:
    template = await answered_run()
    provider, exporter = collector()
    sink = OtelSink(provider, max_open_runs=1)
    first, other = as_run(template, "first"), as_run(template, "other")
    for event in first[:3]:
        sink(event)
    for event in other:  # a second run: the first is let go to make room
        sink(event)
    for event in first[3:]:
        sink(event)
    assert not sink._runs
    spans = exporter.get_finished_spans()
    first_roots = [
        span for span in spans if span.parent is None and span.attributes["citeloop.run_id"] == "first"
    ]  # type: ignore[index]
    evicted, resumed = sorted(first_roots, key=lambda span: span.start_time or 0)
    assert evicted.attributes["citeloop.evicted"] is True  # type: ignore[index]
    assert resumed.attributes["citeloop.resumed"] is True  # type: ignore[index]
    assert resumed.attributes["citeloop.status"] == "answered"  # type: ignore[index]
    wanted_provider, wanted = collector()
    export_run_spans(other, wanted_provider)
    assert of_run(spans, "other") == of_run(wanted.get_finished_spans(), "other")


def test_the_cap_has_a_default_and_must_be_positive() -> None:
    provider, _ = collector()
    assert OtelSink(provider)._max_open_runs == DEFAULT_MAX_OPEN_RUNS == 1024
    with pytest.raises(UsageError, match="max_open_runs"):
        OtelSink(provider, max_open_runs=0)
