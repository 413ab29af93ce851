"""Sinks see every event; a slow or raising sink changes nothing in the log; secrets are redacted."""

from __future__ import annotations

import io
import json

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
    return [e.model_dump(exclude={"at"}) for e in events]


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
