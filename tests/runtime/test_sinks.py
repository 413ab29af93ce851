"""Sinks see every event; a slow or raising sink changes nothing in the log; secrets are redacted."""

from __future__ import annotations

import contextlib
import io
import json
import os
import threading

import anyio
import pytest
from citeloop.events import Event, MemoryStore, PolicyReply
from citeloop.policies import RunView, ScriptedPolicy
from citeloop.runtime import JsonLinesSink, Runtime, StructlogSink, redact_text
from helpers.fakes import page_tools
from structlog.testing import capture_logs

pytestmark = pytest.mark.anyio

QUESTIONS = ["Who founded Acme Robotics?", "Who is the current CEO?", "What is Ada's favorite food?"] * 5


async def run_all(store: MemoryStore, sinks: list[object], **kwargs: object) -> tuple[list[str], Runtime]:
    tools, _ = page_tools()
    ids: list[str] = []
    rt = Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo(), sinks=sinks, **kwargs)  # type: ignore[arg-type]
    async with rt:
        for i, question in enumerate(QUESTIONS):
            ids.append((await rt.run(question, run_id=f"run-{i}")).run_id)
    return ids, rt


def comparable(events: list[Event]) -> list[dict[str, object]]:
    return [e.model_dump(exclude={"at", "prev"}) for e in events]  # `prev` chains the `at`s


async def test_every_event_reaches_a_healthy_sink_in_order() -> None:
    received: list[Event] = []
    store = MemoryStore()
    ids, rt = await run_all(store, [received.append])
    logged = [e for run_id in ids for e in await store.read(run_id)]
    assert received == logged
    assert rt.sink_stats[0].delivered == len(logged) and rt.sink_stats[0].dropped == 0


async def test_slow_and_raising_sinks_change_nothing_in_the_log() -> None:
    baseline_store = MemoryStore()
    ids, _ = await run_all(baseline_store, [])
    baseline = [comparable(await baseline_store.read(i)) for i in ids]

    async def slow(event: Event) -> None:
        await anyio.sleep(0.5)

    def raising(event: Event) -> None:
        raise RuntimeError("sink is down")

    healthy: list[Event] = []
    store = MemoryStore()
    with capture_logs() as logs:
        ids, rt = await run_all(store, [slow, raising, healthy.append], sink_buffer=4, sink_grace=0.2)
    assert [comparable(await store.read(i)) for i in ids] == baseline
    slow_stats, raising_stats, healthy_stats = rt.sink_stats
    total = sum(len(b) for b in baseline)
    # Nothing is lost silently: every event a sink did not handle is counted as dropped or failed.
    for stats in (slow_stats, raising_stats, healthy_stats):
        assert stats.delivered + stats.dropped + stats.failed == total
    assert slow_stats.dropped > 0 and slow_stats.delivered < total
    assert raising_stats.failed > 0 and raising_stats.delivered == 0
    assert healthy_stats.delivered == len(healthy) > 0
    lost = [entry for entry in logs if entry["event"] == "sink_lost_events"]
    assert {entry["dropped"] for entry in lost} >= {slow_stats.dropped}
    assert any(entry["event"] == "sink_failed" for entry in logs)


def ended(events: list[Event]) -> bool:
    return events[-1].type in ("Answered", "Abstained")


async def test_a_blocked_sync_sink_does_not_hold_the_run() -> None:
    # The sink waits for the test to let it go; the test lets it go only once the run is over.
    # On the event loop this sink would stop the run with it (at most 2 s per event here).
    release = threading.Event()
    handled: list[Event] = []

    def held(event: Event) -> None:
        release.wait(timeout=2)
        handled.append(event)

    store = MemoryStore()
    tools, _ = page_tools()
    async with Runtime(
        store=store, tools=tools, policy=ScriptedPolicy.demo(), sinks=[held], sink_grace=30
    ) as rt:
        outcome = await rt.run(QUESTIONS[0])
        events = await store.read(outcome.run_id)
        assert ended(events)  # the terminal event is durable ...
        assert len(handled) <= 1  # ... while the sink has handled at most one event
        release.set()
    assert handled == events  # then it drains, in order, within its grace period
    assert rt.sink_stats[0].delivered == len(events) and not rt.sink_stats[0].abandoned


async def test_sync_sinks_run_in_a_thread_and_async_sinks_on_the_loop() -> None:
    loop_thread = threading.get_ident()
    sync_threads: set[int] = set()
    async_threads: set[int] = set()

    class AsyncObject:
        async def __call__(self, event: Event) -> None:
            async_threads.add(threading.get_ident())

    async def async_function(event: Event) -> None:
        async_threads.add(threading.get_ident())

    def sync_function(event: Event) -> None:
        sync_threads.add(threading.get_ident())

    await run_all(MemoryStore(), [sync_function, AsyncObject(), async_function, StructlogSink()])
    assert async_threads == {loop_thread}
    assert len(sync_threads) == 1 and loop_thread not in sync_threads


async def test_json_lines_sink_on_a_pipe_nobody_reads_does_not_freeze_runs() -> None:
    read_end, write_end = os.pipe()  # nobody reads: the pipe's buffer (64 KB) fills, then write blocks
    stream = os.fdopen(write_end, "w")
    store = MemoryStore()
    tools, _ = page_tools()
    question = "Who founded Acme Robotics? " + "Tell me. " * 500  # 4.5 KB in every RunStarted line
    rt = Runtime(
        store=store,
        tools=tools,
        policy=ScriptedPolicy.demo(),
        sinks=[JsonLinesSink(stream)],
        sink_buffer=16,
        sink_grace=0.2,
    )
    try:
        async with rt:
            ids = [(await rt.run(question, run_id=f"pipe-{i}")).run_id for i in range(40)]
        logs = [await store.read(run_id) for run_id in ids]
        assert all(ended(events) for events in logs)  # 180 KB of lines for a 64 KB pipe: all ran
        stats = rt.sink_stats[0]
        assert stats.abandoned and stats.dropped > 0  # counted, and the exit did not wait for it
        assert stats.delivered + stats.dropped + stats.failed == sum(len(events) for events in logs)
    finally:
        os.close(read_end)  # the abandoned write fails with EPIPE and its thread ends
        for thread in threading.enumerate():
            if thread.name.startswith("citeloop-sink-"):
                thread.join(timeout=5)
        with contextlib.suppress(OSError):
            stream.close()


async def test_json_lines_sink_redacts_secrets_but_the_log_keeps_what_was_recorded() -> None:
    secret_reply = (
        "Thought: use Bearer abcdefghijklmnop and sk-proj-ABCDEFGHIJKLMNOPQRST\n"
        "Action: open\n"
        "Action Input: https://api.example/page?token=hunter2secret&x=1"
    )

    class Leaky:
        name = "leaky"

        async def next_step(self, view: RunView) -> PolicyReply:
            return PolicyReply(text=secret_reply)

    out = io.StringIO()
    store = MemoryStore()
    tools, _ = page_tools()
    async with Runtime(
        store=store, tools=tools, policy=Leaky(), max_steps=1, sinks=[JsonLinesSink(out)]
    ) as rt:
        outcome = await rt.run("q")
    printed = out.getvalue()
    for secret in ("abcdefghijklmnop", "sk-proj-ABCDEFGHIJKLMNOPQRST", "hunter2secret"):
        assert secret not in printed
    assert printed.count("[REDACTED]") >= 3
    lines = [json.loads(line) for line in printed.splitlines()]
    assert [line["seq"] for line in lines] == list(range(len(lines)))
    events = await store.read(outcome.run_id)
    assert any("hunter2secret" in e.model_dump_json() for e in events)


async def test_structlog_sink_binds_run_id() -> None:
    store = MemoryStore()
    with capture_logs() as logs:
        ids, _ = await run_all(store, [StructlogSink()])
    entries = [entry for entry in logs if entry.get("run_id") in ids]
    total = 0
    for run_id in ids:
        total += len(await store.read(run_id))
    assert len(entries) == total
    assert entries[0]["event"] == "RunStarted"


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload", "eyJhbGciOiJIUzI1NiJ9"),
        ("https://x.example/?api_key=abc123&q=1", "abc123"),
        ("password=swordfish", "swordfish"),
        ("postgresql://user:s3cret@db.example/test", "s3cret"),
        ("key sk-0123456789abcdefghij", "sk-0123456789abcdefghij"),
        ("https://x/?client_secret=abcd1234&refresh_token=zzzzzz", "abcd1234"),
        ("https://x/?client_secret=abcd1234&refresh_token=zzzzzz", "zzzzzz"),
        ("id_token=eyJraWQiOiJ0ZXN0", "eyJraWQiOiJ0ZXN0"),
        ('{"api_key": "abcdefgh"}', "abcdefgh"),
        ("X-Amz-Signature=deadbeefcafe", "deadbeefcafe"),
        ("private_key: hunter2hunter2", "hunter2hunter2"),
    ],
)
async def test_redact_text(text: str, secret: str) -> None:
    assert secret not in redact_text(text)
    assert "[REDACTED]" in redact_text(text)


async def test_redact_leaves_ordinary_text_alone() -> None:
    for text in (
        "Acme Robotics was founded by Ada Ortiz in 2014; see https://wiki.example/acme?page=2",
        "The monkey=banana rule and the keynote: tomorrow",
        "Action Input: https://wiki.example/keys?topic=tokens",
    ):
        assert redact_text(text) == text
