"""The JetStream sink against a real NATS server: each event once on its run's subject, through a restart.

nats-py is asyncio-only, but the sink never runs on the caller's loop: it is a sync sink
with a private asyncio loop in its own thread, and `rebuild_run` runs its client in a
worker thread. So these tests run on asyncio and on trio, which is how a trio runtime
uses the sink. The broker-restart test runs on asyncio only: it is about the broker and
the sink's thread, not the runtime's backend, and it costs a server start and restart.

The shared server (127.0.0.1:4222) is used with a stream of its own per test, deleted
afterwards; unreachable, the tests skip, or fail under CI=true (tests/helpers/nats.py).
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import pytest
from citeloop.events import Event, MemoryStore, StoreUnavailableError, UsageError, encode_event
from citeloop.policies import ScriptedPolicy
from citeloop.runtime import JetStreamSink, Runtime, compare_with_store, rebuild_run
from citeloop.runtime._nats_sink import MSG_ID, run_subject
from helpers.fakes import page_tools
from helpers.nats import NatsServer, delete_stream, free_port, require_nats, unique_stream, with_jetstream

pytestmark = pytest.mark.anyio

SCENARIO_DEADLINE = 180  # the restart test's whole scenario (~12 s unloaded)
EVENT_WAIT = 60  # the restart test's wait for the first events, in a thread

QUESTIONS = ["Who founded Acme Robotics?", "Who is the current CEO?", "What is Ada's favorite food?"]


@pytest.fixture
def nats_url() -> str:
    return require_nats()


@pytest.fixture
def stream(nats_url: str) -> Iterator[str]:
    name = unique_stream()
    yield name
    delete_stream(nats_url, name)


async def run_questions(store: MemoryStore, sink: Any, run_ids: list[str], **kwargs: Any) -> Runtime:
    tools, _ = page_tools(latency=kwargs.pop("latency", 0.0))
    runtime = Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo(), sinks=[sink], **kwargs)
    async with runtime as rt, anyio.create_task_group() as group:
        for index, run_id in enumerate(run_ids):
            group.start_soon(run_one, rt, QUESTIONS[index % len(QUESTIONS)], run_id)
    return rt


async def run_one(rt: Runtime, question: str, run_id: str) -> None:
    await rt.run(question, run_id=run_id)


def stored_messages(url: str, stream: str) -> list[tuple[str, str, bytes]]:
    """Every message of the stream: subject, message id, payload."""

    async def read(js: Any) -> list[tuple[str, str, bytes]]:
        from nats.js.errors import NotFoundError

        messages, seq = [], 1
        while True:
            try:
                message = await js.get_msg(stream, seq=seq, subject=">", next=True)
            except NotFoundError:
                return messages
            messages.append((message.subject, (message.headers or {}).get(MSG_ID, ""), message.data))
            seq = message.seq + 1

    result: list[tuple[str, str, bytes]] = with_jetstream(url, read)
    return result


async def test_every_event_is_on_its_run_subject_once_and_rebuilds_the_run(
    nats_url: str, stream: str
) -> None:
    store = MemoryStore()
    run_ids = [f"run-{i}" for i in range(6)]
    async with JetStreamSink(nats_url, stream=stream) as sink:
        rt = await run_questions(store, sink, run_ids)
    logged = {run_id: await store.read(run_id) for run_id in run_ids}
    total = sum(len(events) for events in logged.values())
    assert rt.sink_stats[0].delivered == total and rt.sink_stats[0].failed == 0
    assert sink.published == total

    for run_id, events in logged.items():
        assert await rebuild_run(run_id, servers=nats_url, stream=stream) == events
        diff = await compare_with_store(store, run_id, servers=nats_url, stream=stream)
        assert diff.same, diff

    messages = await anyio.to_thread.run_sync(stored_messages, nats_url, stream)
    assert len(messages) == total
    expected = {
        (run_subject(e.run_id), f"{e.run_id}:{e.seq}", encode_event(e))
        for events in logged.values()
        for e in events
    }
    assert set(messages) == expected


async def test_a_redelivered_event_is_stored_once(nats_url: str, stream: str) -> None:
    store = MemoryStore()
    await run_questions(store, lambda event: None, ["r1"])
    events = await store.read("r1")
    with JetStreamSink(nats_url, stream=stream) as sink:
        for event in events:
            await anyio.to_thread.run_sync(sink, event)
        for event in events[:3]:  # a sink retried after a lost PubAck sends them again
            await anyio.to_thread.run_sync(sink, event)
    assert await rebuild_run("r1", servers=nats_url, stream=stream) == events
    assert (await compare_with_store(store, "r1", servers=nats_url, stream=stream)).same


async def test_a_retry_after_the_duplicate_window_is_not_stored_twice(
    nats_url: str, stream: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The PubAck of one event is lost, and the retry comes after JetStream's duplicate
    # window: the sink reads the run's last message before retrying, and sends nothing.
    from nats.errors import TimeoutError as NatsTimeout
    from nats.js.client import JetStreamContext

    store = MemoryStore()
    await run_questions(store, lambda event: None, ["r1"])
    events = await store.read("r1")
    real_publish = JetStreamContext.publish
    lost: list[str] = []

    async def publish_and_lose_the_ack(self: JetStreamContext, *args: Any, **kwargs: Any) -> Any:
        ack = await real_publish(self, *args, **kwargs)
        msg_id = kwargs["headers"][MSG_ID]
        if msg_id == "r1:2" and not lost:
            lost.append(msg_id)
            await asyncio.sleep(0.6)  # past the window
            raise NatsTimeout
        return ack

    monkeypatch.setattr(JetStreamContext, "publish", publish_and_lose_the_ack)
    with JetStreamSink(nats_url, stream=stream, duplicate_window=0.2) as sink:
        for event in events:
            await anyio.to_thread.run_sync(sink, event)
    assert lost == ["r1:2"] and sink.retries == 1
    assert (await compare_with_store(store, "r1", servers=nats_url, stream=stream)).same


async def test_compare_names_missing_extra_changed_and_duplicated_seqs(nats_url: str, stream: str) -> None:
    store = MemoryStore()
    await run_questions(store, lambda event: None, ["r1"])
    events = await store.read("r1")
    assert len(events) >= 5
    with JetStreamSink(nats_url, stream=stream) as sink:
        for event in events[:-1]:  # the last one never made it
            await anyio.to_thread.run_sync(sink, event)
    changed = events[1].model_copy(update={"at": events[1].at.replace(year=2001)})
    foreign = events[2].model_copy(update={"seq": 99})

    async def publish_raw(js: Any) -> None:  # no message id: nothing to deduplicate by
        for event in (events[0], changed, foreign):
            await js.publish(run_subject("r1"), encode_event(event), stream=stream)

    await anyio.to_thread.run_sync(with_jetstream, nats_url, publish_raw)
    diff = await compare_with_store(store, "r1", servers=nats_url, stream=stream)
    assert diff.missing == (events[-1].seq,)
    assert diff.extra == (99,)
    assert diff.changed == (1,)
    assert set(diff.duplicated) == {0, 1}
    assert not diff.same


async def test_an_odd_run_id_gets_a_subject_of_its_own(nats_url: str, stream: str) -> None:
    assert run_subject("abc-1_X") == "citeloop.runs.abc-1_X"
    odd = "a.b *>c"
    assert run_subject(odd) == "citeloop.runs.=" + odd.encode().hex()
    store = MemoryStore()
    async with JetStreamSink(nats_url, stream=stream, subject_prefix="test.runs") as sink:
        await run_questions(store, sink, [odd, "a"])
    for run_id in (odd, "a"):
        rebuilt = await rebuild_run(run_id, servers=nats_url, stream=stream, subject_prefix="test.runs")
        assert rebuilt == await store.read(run_id)


async def test_an_unreachable_broker_never_holds_a_run() -> None:
    port = free_port()  # nothing listens there
    store = MemoryStore()
    started = time.monotonic()
    sink = JetStreamSink(f"nats://127.0.0.1:{port}", stream=unique_stream(), close_grace=0.5)
    rt = await run_questions(store, sink, ["r1", "r2"], sink_grace=0.5)
    await sink.aclose()
    assert time.monotonic() - started < 15
    for run_id in ("r1", "r2"):
        events = await store.read(run_id)
        assert events[-1].type in ("Answered", "Abstained")  # the runs ended, durable in the store
    stats = rt.sink_stats[0]
    total = len(await store.read("r1")) + len(await store.read("r2"))
    assert stats.delivered == 0 and stats.dropped + stats.failed == total  # counted, never silent
    with pytest.raises(StoreUnavailableError, match="unreachable"):
        await rebuild_run("r1", servers=f"nats://127.0.0.1:{port}", stream="CITELOOP")


async def test_a_publish_gives_up_after_its_budget() -> None:
    store = MemoryStore()
    await run_questions(store, lambda event: None, ["r1"])
    event = (await store.read("r1"))[0]
    sink = JetStreamSink(f"nats://127.0.0.1:{free_port()}", stream=unique_stream(), give_up_after=1)
    started = time.monotonic()
    with pytest.raises(StoreUnavailableError, match=f"did not take event r1:{event.seq} in 1s"):
        await anyio.to_thread.run_sync(sink, event)
    assert time.monotonic() - started < 15 and sink.retries > 0
    await sink.aclose()


async def test_close_cancels_a_publish_still_retrying() -> None:
    # `close` once stopped the sink's loop under a publish still retrying: the thread that
    # called the sink waited on it for good. Now the publish is cancelled and its caller told.
    store = MemoryStore()
    await run_questions(store, lambda event: None, ["r1"])
    event = (await store.read("r1"))[0]
    sink = JetStreamSink(f"nats://127.0.0.1:{free_port()}", stream=unique_stream(), close_grace=0.2)
    failures: list[StoreUnavailableError] = []

    def publish() -> None:
        try:
            sink(event)
        except StoreUnavailableError as exc:
            failures.append(exc)

    with anyio.fail_after(30):
        async with anyio.create_task_group() as group:
            group.start_soon(partial(anyio.to_thread.run_sync, publish, abandon_on_cancel=True))
            await anyio.sleep(0.5)
            await sink.aclose()
    assert len(failures) == 1 and "close" in str(failures[0])


async def test_a_missing_stream_is_named(nats_url: str) -> None:
    with pytest.raises(UsageError, match="no JetStream stream"):
        await rebuild_run("r1", servers=nats_url, stream=unique_stream())


def test_names_are_checked_and_the_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(UsageError, match="stream name"):
        JetStreamSink(stream="a.b")
    with pytest.raises(UsageError, match="subject prefix"):
        JetStreamSink(subject_prefix="runs.>")
    monkeypatch.setitem(sys.modules, "nats", None)
    with pytest.raises(UsageError, match=r"citeloop\[nats\]"):
        JetStreamSink()


@pytest.mark.slow
@pytest.mark.parametrize("anyio_backend", ["asyncio"])  # see the module docstring
async def test_a_broker_restart_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    # Every wait is bounded (the scenario by SCENARIO_DEADLINE, a thread's wait by
    # EVENT_WAIT), so a sink that stops making progress fails with what it was doing.
    server = NatsServer(tmp_path / "jetstream")
    await anyio.to_thread.run_sync(server.start)  # it polls with a loop of its own
    try:
        store = MemoryStore()
        run_ids = [f"run-{i}" for i in range(12)]
        sink = JetStreamSink(
            server.url, stream="RESTART", ack_timeout=0.5, max_backoff=0.5, give_up_after=60, close_grace=2
        )
        some_in, killed, restarted = threading.Event(), threading.Event(), threading.Event()
        published = 0
        outage: list[datetime] = []

        def progress() -> str:
            return (
                f"published={published} retries={sink.retries} killed={killed.is_set()}"
                f" restarted={restarted.is_set()} server_alive={server.alive}"
            )

        def counted(event: Event) -> None:  # called in the sink's thread
            nonlocal published
            sink(event)
            published += 1
            if published == 15:
                some_in.set()

        async def kill_midway() -> None:
            # Once some events are in, kill the broker; let the runs go on; start it again.
            in_time = await anyio.to_thread.run_sync(some_in.wait, EVENT_WAIT, abandon_on_cancel=True)
            assert in_time, f"15 events were not published in {EVENT_WAIT}s: {progress()}"
            await anyio.to_thread.run_sync(server.kill)
            outage.append(datetime.now(UTC))
            killed.set()
            await anyio.sleep(1.5)
            outage.append(datetime.now(UTC))
            await anyio.to_thread.run_sync(server.start)
            restarted.set()

        tools, _ = page_tools(latency=0.2)
        try:
            with anyio.fail_after(SCENARIO_DEADLINE):
                async with (
                    Runtime(
                        store=store, tools=tools, policy=ScriptedPolicy.demo(), sinks=[counted], sink_grace=60
                    ) as rt,
                    anyio.create_task_group() as group,
                ):
                    group.start_soon(kill_midway)
                    for index, run_id in enumerate(run_ids):
                        group.start_soon(run_one, rt, QUESTIONS[index % len(QUESTIONS)], run_id)
                        await anyio.sleep(0.1)  # the runs spread over the outage
        except TimeoutError:
            pytest.fail(f"the restart scenario did not end in {SCENARIO_DEADLINE}s: {progress()}")
        finally:
            with anyio.fail_after(30):
                await sink.aclose()  # bounded: close_grace, then in-flight publishes are cancelled
        assert killed.is_set() and restarted.is_set(), progress()
        stats = rt.sink_stats[0]
        logged = {run_id: await store.read(run_id) for run_id in run_ids}
        total = sum(len(events) for events in logged.values())
        assert stats.delivered == total and stats.dropped == stats.failed == 0, stats
        assert sink.retries > 0  # the outage was felt ...
        down, up = outage
        assert any(down < e.at < up for events in logged.values() for e in events)  # ... while runs went on
        for run_id, events in logged.items():
            assert await rebuild_run(run_id, servers=server.url, stream="RESTART") == events
            assert (await compare_with_store(store, run_id, servers=server.url, stream="RESTART")).same
        messages = await anyio.to_thread.run_sync(stored_messages, server.url, "RESTART")
        assert len(messages) == total == len({msg_id for _, msg_id, _ in messages})
    finally:
        server.kill()
