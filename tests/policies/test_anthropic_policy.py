"""`AnthropicPolicy` against a scripted Messages API server on loopback, alone and in whole runs.

No client is patched: the official `anthropic` client talks HTTP to `tests/helpers/fake_anthropic.py`.
The client is anyio-based (httpx2), so these tests run on asyncio and trio.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from citeloop.events import (
    Abstained,
    ActionParsed,
    CallTool,
    Event,
    Finish,
    FinishRejected,
    ParseRejected,
    PolicyReply,
    UsageError,
    encode_event,
    open_store,
)
from citeloop.policies import (
    AnthropicPolicy,
    PolicyUnavailableError,
    RetryPolicy,
    RunView,
    Turn,
    anthropic_policy_from_spec,
)
from citeloop.policies._parser import Parsed, Rejected, parse_policy_reply
from citeloop.runtime import Runtime
from citeloop.tools import Corpus
from helpers.cli import run_citeloop
from helpers.fake_anthropic import (
    FakeAnthropic,
    Hang,
    Say,
    Script,
    Status,
    conversation_problem,
    sent_key,
    serve,
)
from structlog.testing import capture_logs

KEY = "sk-ant-test-0123456789abcdef-SECRET"
FAST = RetryPolicy(max_attempts=3, max_elapsed=10.0, attempt_timeout=5.0, base_delay=0.01, max_delay=0.05)
WIKI = "https://wiki.example/acme"
NEWS = "https://news.example/ada"
QUESTION = "Who founded Acme Robotics?"
GOOD = "Thought: look it up\nAction: search\nAction Input: Acme Robotics founder"
GOOD_FINISH = {
    "answer": "Acme Robotics was founded by Ada Ortiz.",
    "citations": [WIKI],
    "cannot_answer": False,
    "evidence": "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon.",
}
UNOPENED_FINISH = {**GOOD_FINISH, "citations": [NEWS]}  # cite_not_opened
MODES = ["react", "tools"]


@pytest.fixture
def fake() -> Iterator[FakeAnthropic]:
    with serve() as server:
        yield server


@pytest.fixture(autouse=True)
def _no_anthropic_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in os.environ:
        if name.startswith("ANTHROPIC_"):
            monkeypatch.delenv(name)


def policy(fake: FakeAnthropic, mode: str = "react", **kwargs: Any) -> AnthropicPolicy:
    options: dict[str, Any] = {"base_url": fake.base_url, "api_key": KEY, "retry": FAST, **kwargs}
    return AnthropicPolicy("claude-test", mode=mode, **options)  # type: ignore[arg-type]


def view(*turns: Turn, step: int = 0) -> RunView:
    return RunView(
        run_id="r1",
        question=QUESTION,
        allowlist=("search", "open", "finish"),
        step=step,
        max_steps=6,
        turns=turns,
    )


def texts(message: dict[str, Any]) -> str:
    return "\n".join(block.get("text") or block.get("content") or "" for block in message["content"])


# -- the policy alone ------------------------------------------------------------------


@pytest.mark.anyio
async def test_react_request_and_reply(fake: FakeAnthropic) -> None:
    fake.push(Say(GOOD, usage=(40, 12)))
    async with policy(fake) as p:
        reply = await p.next_step(view())
    assert reply.text == GOOD and reply.structured is None
    assert (reply.model, reply.usage) == ("claude-test", {"input_tokens": 40, "output_tokens": 12})
    assert reply.latency_ms is not None and reply.latency_ms >= 0
    assert isinstance(parse_policy_reply(reply), Parsed)

    (request,) = fake.requests
    assert request.path == "/v1/messages" and "tools" not in request.body
    assert request.body["model"] == "claude-test" and request.body["max_tokens"] == 1024
    for needle in (
        "Thought:",
        "Action:",
        "Action Input:",
        "search",
        "open",
        "finish",
        "cannot:",
        "untrusted",
    ):
        assert needle in request.body["system"]
    (question,) = request.body["messages"]
    assert question["role"] == "user"
    assert texts(question).startswith(f"Question: {QUESTION}") and "Steps left: 6 of 6" in texts(question)
    assert sent_key(request.headers) == KEY  # x-api-key or a bearer token, by client version
    assert request.headers["x-stainless-retry-count"] == "0"  # the client's own retries are off


@pytest.mark.anyio
async def test_tool_use_becomes_the_openai_structured_shape(fake: FakeAnthropic) -> None:
    fake.push(
        Say("I will search.", tool_uses=(("search", {"query": "Acme founder"}),)),
        Say(None, tool_uses=(("search", {"query": "Acme"}), ("open", {"url": WIKI}))),
    )
    async with policy(fake, mode="tools") as p:
        one = await p.next_step(view())
        several = await p.next_step(view())
    tools = fake.requests[0].body["tools"]
    assert [t["name"] for t in tools] == ["search", "open", "finish"]
    finish = tools[2]["input_schema"]
    assert set(finish["required"]) == {"answer", "citations", "cannot_answer", "evidence"}
    assert finish["additionalProperties"] is False
    assert "exactly one function" in fake.requests[0].body["system"]

    assert one.text is None and one.structured is not None
    assert set(one.structured) == {"id", "name", "arguments", "thought"}
    assert one.structured["name"] == "search" and one.structured["thought"] == "I will search."
    assert one.structured["arguments"] == {"query": "Acme founder"}
    parsed = parse_policy_reply(one)
    assert isinstance(parsed, Parsed) and parsed.action == CallTool(tool="search", input="Acme founder")

    assert several.structured is not None and len(several.structured["calls"]) == 2  # type: ignore[arg-type]
    rejected = parse_policy_reply(several)
    assert isinstance(rejected, Rejected) and rejected.code == "multiple_actions"


@pytest.mark.anyio
async def test_past_turns_render_as_tool_use_then_tool_result(fake: FakeAnthropic) -> None:
    fake.push(Say(GOOD), Say(GOOD))
    call = Turn(
        step=0,
        reply=PolicyReply(
            structured={
                "id": "toolu_x1",
                "name": "search",
                "arguments": {"query": "Acme"},
                "thought": "searching",
            }
        ),
        thought="searching",
        action=CallTool(tool="search", input="Acme"),
        shown="1. Acme <" + WIKI + ">",
    )
    several = Turn(
        step=1,
        reply=PolicyReply(
            structured={
                "calls": [
                    {"id": "toolu_a", "name": "search", "arguments": {"query": "a"}},
                    {"name": "open", "arguments": "{not json"},
                ]
            }
        ),
        thought="",
        action=None,
        shown="protocol error: multiple_actions",
    )
    text = Turn(
        step=2, reply=PolicyReply(text=""), thought="", action=None, shown="protocol error: react_shape"
    )
    async with policy(fake, mode="tools") as p:
        await p.next_step(view(call, several, text, step=3))
    async with policy(fake, mode="tools", show_thoughts=False) as p:
        await p.next_step(view(call, step=1))

    messages = fake.requests[0].body["messages"]
    assert conversation_problem(fake.requests[0].body) == ""  # the fake accepted it, too
    assert [m["role"] for m in messages] == [
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
    ]
    thought, use = messages[1]["content"]
    assert thought == {"type": "text", "text": "searching"}
    assert use == {"type": "tool_use", "id": "toolu_x1", "name": "search", "input": {"query": "Acme"}}
    assert messages[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "toolu_x1", "content": call.shown}
    ]
    ids = [block["id"] for block in messages[3]["content"]]
    assert ids == ["toolu_a", "call_s1_1"]  # a missing id is synthesized, consistently
    assert messages[3]["content"][1]["input"] == {"input": "{not json"}
    assert [block["tool_use_id"] for block in messages[4]["content"]] == ids
    assert messages[5]["content"] == [{"type": "text", "text": "(empty reply)"}]
    assert messages[6]["content"][0]["text"] == "protocol error: react_shape"
    assert "Steps left: 3 of 6" in messages[6]["content"][-1]["text"]
    assert "Steps left" not in json.dumps(messages[:6])  # only the last message changes per step

    hidden = fake.requests[1].body["messages"][1]["content"]
    assert [block["type"] for block in hidden] == ["tool_use"]  # the thought is stripped
    # The pairing rule the fake enforces, so the checks above can fail:
    broken = {**fake.requests[0].body, "messages": messages[:2] + messages[3:]}
    assert "not answered" in conversation_problem(broken)


@pytest.mark.anyio
async def test_overloaded_then_success_and_refusal_is_immediate(fake: FakeAnthropic) -> None:
    fake.push(Status(529, "Overloaded"), Say(GOOD), Status(400, f"bad request for key {KEY}"))
    with capture_logs() as logs:
        async with policy(fake) as p:
            reply = await p.next_step(view())
            assert reply.text == GOOD and fake.calls == 2
            with pytest.raises(PolicyUnavailableError) as caught:
                await p.next_step(view())
    assert fake.calls == 3 and caught.value.attempts == 1  # a 400 is not retried
    assert [entry["event"] for entry in logs] == ["policy_retry"]
    assert "529" in logs[0]["error"]
    assert KEY not in repr(logs) and KEY not in str(caught.value) and KEY not in repr(p)
    assert "***" in caught.value.last_error
    assert caught.value.__cause__ is None and caught.value.__context__ is None


@pytest.mark.anyio
async def test_server_errors_past_the_bound_are_policy_unavailable(fake: FakeAnthropic) -> None:
    fake.push(Status(500), Status(503), Status(429, retry_after="0"))
    async with policy(fake) as p:
        with pytest.raises(PolicyUnavailableError, match="3 attempt"):
            await p.next_step(view())
    assert fake.calls == 3


@pytest.mark.anyio
async def test_api_key_in_no_stdlib_log_record_even_at_debug(
    fake: FakeAnthropic, caplog: pytest.LogCaptureFixture
) -> None:
    """The anthropic and http client libraries log requests at DEBUG; the key must not be in them."""
    fake.push(Status(529), Say(GOOD))
    with caplog.at_level(logging.DEBUG):
        async with policy(fake) as p:
            await p.next_step(view())
    assert any(record.name.startswith("anthropic") for record in caplog.records), "debug logging was captured"
    assert KEY not in caplog.text and all(KEY not in record.getMessage() for record in caplog.records)


def test_configuration_and_specs(monkeypatch: pytest.MonkeyPatch) -> None:
    from citeloop.runtime.cli._options import build_policy

    monkeypatch.setenv("ANTHROPIC_MODEL", "env-model")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://user:pw@127.0.0.1:9/?token=t")
    p = AnthropicPolicy()
    assert (p.model, p.name) == ("env-model", "anthropic:env-model")
    assert "127.0.0.1:9" in repr(p) and "pw" not in repr(p) and "token" not in repr(p)
    tools = anthropic_policy_from_spec("anthropic-tools:claude-x", None)
    assert (tools.mode, tools.model, tools.name) == ("tools", "claude-x", "anthropic-tools:claude-x")
    built = build_policy("anthropic:claude-y", base_url="http://127.0.0.1:9", min_confidence=None)
    assert isinstance(built, AnthropicPolicy) and built.mode == "react"
    with pytest.raises(UsageError, match="anthropic:MODEL"):
        anthropic_policy_from_spec("openai:gpt", None)
    monkeypatch.delenv("ANTHROPIC_BASE_URL")
    with pytest.raises(UsageError, match="ANTHROPIC_API_KEY"):
        AnthropicPolicy("claude-x")  # the default endpoint needs a key
    monkeypatch.delenv("ANTHROPIC_MODEL")
    with pytest.raises(UsageError, match="ANTHROPIC_MODEL"):
        AnthropicPolicy(base_url="http://127.0.0.1:9")
    with pytest.raises(UsageError, match="mode"):
        AnthropicPolicy("m", mode="chat", base_url="http://127.0.0.1:9")  # type: ignore[arg-type]


# -- whole runs over the demo corpus ---------------------------------------------------


def act(mode: str, tool: str, argument: str | dict[str, Any]) -> Say:
    """One well-formed step in the given mode."""
    if mode == "react":
        text = json.dumps(argument) if isinstance(argument, dict) else argument
        return Say(f"Thought: next I {tool}\nAction: {tool}\nAction Input: {text}")
    if isinstance(argument, dict):
        return Say("finishing", tool_uses=((tool, argument),))
    key = {"search": "query", "open": "url"}[tool]
    return Say(f"next I {tool}", tool_uses=((tool, {key: argument}),))


def research(mode: str) -> list[Script]:
    return [act(mode, "search", "Acme Robotics founder"), act(mode, "open", WIKI)]


async def run(fake: FakeAnthropic, mode: str, *script: Script, retry: RetryPolicy = FAST) -> Any:
    fake.push(*script)
    p = AnthropicPolicy("claude-test", mode=mode, base_url=fake.base_url, api_key=KEY, retry=retry)  # type: ignore[arg-type]
    rt = Runtime(store=open_store("memory://"), tools=Corpus.demo().tools(), policy=p, max_steps=6)
    async with p, rt:
        outcome = await rt.run(QUESTION)
        events = await rt.transcript(outcome.run_id)
        calls_before = fake.calls
        state = await rt.reopen(outcome.run_id)
        report = await rt.check(outcome.run_id)
        # Reopen and check rebuild the run from its log: the model is not asked again.
        assert fake.calls == calls_before
        assert state.status == outcome.status
        assert report.ok, report.to_json()
    assert all(KEY.encode() not in encode_event(event) for event in events)
    return outcome, events


def of_type(events: list[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_good_sequence_answers_with_a_citation(fake: FakeAnthropic, mode: str) -> None:
    outcome, events = await run(fake, mode, *research(mode), act(mode, "finish", GOOD_FINISH))
    assert outcome.status == "answered" and outcome.citations == (WIKI,)
    assert outcome.locators[0].quote == GOOD_FINISH["evidence"]
    parsed = of_type(events, ActionParsed)
    assert len(parsed) == 3 and fake.calls == 3
    assert isinstance(parsed[-1].action, Finish)
    for event in parsed:  # recorded raw, with usage and latency, in the mode's own shape
        assert event.reply.usage == {"input_tokens": 13, "output_tokens": 5}
        assert event.reply.latency_ms is not None and event.reply.model == "claude-test"
        assert (event.reply.structured is not None) == (mode == "tools")
    last = fake.requests[-1].body["messages"][-1]
    assert "untrusted" in texts(last) and "founded by Ada Ortiz" in texts(last)
    if mode == "tools":  # the page came back as the tool_result of the open call
        assert last["content"][0]["type"] == "tool_result"
        assert last["content"][0]["tool_use_id"] == parsed[1].reply.structured["id"]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_malformed_reply_then_a_good_sequence(fake: FakeAnthropic, mode: str) -> None:
    bad = (
        Say("I believe it was Ada Ortiz.")
        if mode == "react"
        else Say(None, tool_uses=(("search", {"q": "x"}),))
    )
    outcome, events = await run(fake, mode, bad, *research(mode), act(mode, "finish", GOOD_FINISH))
    assert outcome.status == "answered" and outcome.steps == 4
    (rejected,) = of_type(events, ParseRejected)
    assert rejected.code == ("react_shape" if mode == "react" else "empty_input")
    assert f"protocol error: {rejected.code}" in texts(fake.requests[1].body["messages"][-1])


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_invalid_finish_then_a_repaired_one(fake: FakeAnthropic, mode: str) -> None:
    script = [*research(mode), act(mode, "finish", UNOPENED_FINISH), act(mode, "finish", GOOD_FINISH)]
    outcome, events = await run(fake, mode, *script)
    assert outcome.status == "answered" and outcome.citations == (WIKI,)
    assert [e.code for e in of_type(events, FinishRejected)] == ["cite_not_opened"]
    assert "finish rejected: cite_not_opened" in texts(fake.requests[3].body["messages"][-1])


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_rate_limited_then_success(fake: FakeAnthropic, mode: str) -> None:
    script = [Status(429, retry_after="0"), *research(mode), act(mode, "finish", GOOD_FINISH)]
    outcome, events = await run(fake, mode, *script)
    assert outcome.status == "answered"
    assert fake.calls == 4 and len(of_type(events, ActionParsed)) == 3  # the refused call is no step


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_a_hanging_model_ends_as_policy_error(fake: FakeAnthropic, mode: str) -> None:
    # The attempts bound ends it: the elapsed bound is far off, so a loaded machine cannot end it first.
    retry = RetryPolicy(max_attempts=2, max_elapsed=60, attempt_timeout=0.3, base_delay=0.01, max_delay=0.02)
    outcome, events = await run(
        fake, mode, act(mode, "search", "Acme Robotics"), Hang(30), Hang(30), retry=retry
    )
    assert (outcome.status, outcome.reason) == ("failed", "policy_error")  # not a grounded refusal
    assert outcome.answer.startswith("cannot:")
    (abstained,) = of_type(events, Abstained)
    assert "PolicyUnavailableError" in abstained.detail and fake.calls == 3


@pytest.mark.slow
def test_command_line_run_then_replay_check_calls_no_model(fake: FakeAnthropic, tmp_path: Path) -> None:
    # One mode here (each subprocess costs seconds); both modes are checked in process above.
    fake.push(*research("tools"), act("tools", "finish", GOOD_FINISH))
    store = f"sqlite:///{tmp_path / 'runs.db'}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CITELOOP_", "ANTHROPIC_"))}
    env.update(
        ANTHROPIC_API_KEY=KEY, ANTHROPIC_BASE_URL=fake.base_url, CITELOOP_CACHE_DIR=str(tmp_path / "c")
    )

    def citeloop(*args: str) -> subprocess.CompletedProcess[str]:
        return run_citeloop(*args, cwd=tmp_path, env=env)

    asked = citeloop("ask", QUESTION, "--policy", "anthropic-tools:claude-test", "--store", store, "--json")
    assert asked.returncode == 0, asked.stderr
    outcome = json.loads(asked.stdout)
    assert outcome["status"] == "answered" and outcome["citations"] == [WIKI]
    assert fake.calls == 3 and sent_key(fake.requests[0].headers) == KEY
    checked = citeloop("replay", outcome["run_id"], "--check", "--store", store, "--json")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads(checked.stdout)["ok"] is True
    assert fake.calls == 3  # replay reads the log only
    for done in (asked, checked):
        assert KEY not in done.stdout and KEY not in done.stderr
