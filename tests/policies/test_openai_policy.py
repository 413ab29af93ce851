"""`OpenAIPolicy` on its own, against a scripted Chat Completions server on loopback.

No client is patched: the official `openai` client talks HTTP to `tests/helpers/fake_openai.py`.
The client is anyio-based (httpx2), so these tests run on asyncio and trio.
"""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from citeloop.events import CallTool, Finish, PolicyReply, UsageError
from citeloop.policies import (
    OpenAIPolicy,
    PolicyUnavailableError,
    RetryPolicy,
    RunView,
    Turn,
    policy_from_spec,
)
from citeloop.policies._parser import Parsed, Rejected, parse_policy_reply
from citeloop.policies._prompt import strip_thought
from helpers.fake_openai import FakeOpenAI, Hang, Say, Status, serve
from structlog.testing import capture_logs

KEY = "sk-test-0123456789abcdef-SECRET"
FAST = RetryPolicy(max_attempts=3, max_elapsed=10.0, attempt_timeout=5.0, base_delay=0.01, max_delay=0.05)
GOOD = "Thought: look it up\nAction: search\nAction Input: Acme Robotics founder"
FINISH = {
    "answer": "Ada Ortiz founded Acme Robotics.",
    "citations": ["https://wiki.example/acme"],
    "cannot_answer": False,
    "evidence": "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon.",
}


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with serve() as server:
        yield server


@pytest.fixture(autouse=True)
def _no_openai_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)


def policy(fake: FakeOpenAI, mode: str = "react", **kwargs: Any) -> OpenAIPolicy:
    options: dict[str, Any] = {"base_url": fake.base_url, "api_key": KEY, "retry": FAST, **kwargs}
    return OpenAIPolicy("test-model", mode=mode, **options)  # type: ignore[arg-type]


def view(*turns: Turn, step: int = 0) -> RunView:
    return RunView(
        run_id="r1",
        question="Who founded Acme Robotics?",
        allowlist=("search", "open", "finish"),
        step=step,
        max_steps=6,
        turns=turns,
    )


# -- ReAct text mode -------------------------------------------------------------------


@pytest.mark.anyio
async def test_react_request_and_reply(fake: FakeOpenAI) -> None:
    fake.push(Say(GOOD, usage=(40, 12)))
    async with policy(fake) as p:
        reply = await p.next_step(view())
    assert reply.text == GOOD and reply.structured is None
    assert reply.model == "test-model"
    assert reply.usage == {"prompt_tokens": 40, "completion_tokens": 12, "total_tokens": 52}
    assert reply.latency_ms is not None and reply.latency_ms >= 0
    assert isinstance(parse_policy_reply(reply), Parsed)

    (request,) = fake.requests
    assert request.path == "/v1/chat/completions"
    assert "tools" not in request.body
    assert request.body["model"] == "test-model"
    system, question = request.body["messages"]
    assert system["role"] == "system"
    needles = ("Thought:", "Action:", "Action Input:", "search", "open", "finish", "cannot:", "untrusted")
    for needle in needles:
        assert needle in system["content"]
    assert question["role"] == "user"
    assert question["content"].startswith("Question: Who founded Acme Robotics?")
    assert "Steps left: 6 of 6" in question["content"]
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.headers["x-stainless-retry-count"] == "0"  # the client's own retries are off


@pytest.mark.anyio
async def test_react_renders_past_turns_with_observations(fake: FakeOpenAI) -> None:
    fake.push(Say(GOOD), Say(GOOD))
    first = Turn(
        step=0,
        reply=PolicyReply(text=GOOD),
        thought="look it up",
        action=CallTool(tool="search", input="Acme Robotics founder"),
        shown='search results for "Acme Robotics founder":\n1. Acme Robotics <https://wiki.example/acme>',
    )
    rejected = Turn(
        step=1,
        reply=PolicyReply(text="Final Answer: Ada"),
        thought="",
        action=None,
        shown="protocol error: final_answer",
    )
    async with policy(fake) as p:
        await p.next_step(view(first, rejected, step=2))
    async with policy(fake, show_thoughts=False) as p:
        await p.next_step(view(first, rejected, step=2))

    roles = [m["role"] for m in fake.requests[0].body["messages"]]
    assert roles == ["system", "user", "assistant", "user", "assistant", "user"]
    messages = fake.requests[0].body["messages"]
    assert messages[2]["content"] == GOOD  # the raw reply, as recorded
    assert messages[3]["content"] == first.shown
    assert messages[4]["content"] == "Final Answer: Ada"
    assert messages[5]["content"].startswith("protocol error: final_answer")
    assert "Steps left: 4 of 6" in messages[5]["content"]
    assert "Steps left" not in messages[3]["content"]  # only the last message changes per step

    stripped = fake.requests[1].body["messages"][2]["content"]
    assert stripped == "Action: search\nAction Input: Acme Robotics founder"


@pytest.mark.anyio
async def test_runtime_projection_that_blanks_thoughts_is_honoured(fake: FakeOpenAI) -> None:
    fake.push(Say(GOOD))
    blanked = Turn(
        step=0,
        reply=PolicyReply(text=GOOD),
        thought="",
        action=CallTool(tool="search", input="Acme Robotics founder"),
        shown="no results",
    )
    async with policy(fake) as p:
        await p.next_step(view(blanked, step=1))
    rendered = fake.requests[0].body["messages"][2]["content"]
    assert rendered == "Action: search\nAction Input: Acme Robotics founder"


def test_strip_thought_keeps_everything_but_the_thought() -> None:
    assert strip_thought("Thought: a\nAction: open\nAction Input: u") == "Action: open\nAction Input: u"
    assert strip_thought("no labels at all") == "no labels at all"
    assert strip_thought("Thought: only a thought") == ""


# -- native tool calling ---------------------------------------------------------------


@pytest.mark.anyio
async def test_tools_request_offers_the_allowlist_as_functions(fake: FakeOpenAI) -> None:
    fake.push(Say("I will search.", tool_calls=(("search", {"query": "Acme founder"}),)))
    async with policy(fake, mode="tools") as p:
        reply = await p.next_step(view())
    tools = fake.requests[0].body["tools"]
    assert [t["function"]["name"] for t in tools] == ["search", "open", "finish"]
    finish = tools[2]["function"]["parameters"]
    assert set(finish["required"]) == {"answer", "citations", "cannot_answer", "evidence"}
    citations = finish["properties"]["citations"]
    assert (citations["type"], citations["items"]) == ("array", {"type": "string"})
    assert finish["additionalProperties"] is False
    system = fake.requests[0].body["messages"][0]["content"]
    assert "Action Input:" not in system  # the text format is not asked for in tool mode

    assert reply.text is None
    assert reply.structured is not None
    assert reply.structured["name"] == "search"
    assert reply.structured["arguments"] == {"query": "Acme founder"}
    assert reply.structured["thought"] == "I will search."
    assert isinstance(reply.structured["id"], str) and reply.structured["id"]
    parsed = parse_policy_reply(reply)
    assert isinstance(parsed, Parsed)
    assert parsed.action == CallTool(tool="search", input="Acme founder")
    assert parsed.thought == "I will search."


@pytest.mark.anyio
async def test_every_offered_function_round_trips_through_the_parser(fake: FakeOpenAI) -> None:
    fake.push(
        Say(None, tool_calls=(("open", {"url": "https://wiki.example/acme"}),)),
        Say(None, tool_calls=(("finish", FINISH),)),
    )
    async with policy(fake, mode="tools") as p:
        opened = parse_policy_reply(await p.next_step(view()))
        finished = parse_policy_reply(await p.next_step(view()))
    assert isinstance(opened, Parsed) and opened.action == CallTool(
        tool="open", input="https://wiki.example/acme"
    )
    assert isinstance(finished, Parsed) and finished.action == Finish(payload=FINISH)


@pytest.mark.anyio
async def test_tools_mode_replays_recorded_call_ids(fake: FakeOpenAI) -> None:
    fake.push(Say(None, tool_calls=(("open", {"url": "https://wiki.example/acme"}),)))
    searched = Turn(
        step=0,
        reply=PolicyReply(
            structured={"id": "call_abc", "name": "search", "arguments": {"query": "acme"}, "thought": "go"}
        ),
        thought="go",
        action=CallTool(tool="search", input="acme"),
        shown="search results ...",
    )
    async with policy(fake, mode="tools") as p:
        await p.next_step(view(searched, step=1))
    messages = fake.requests[0].body["messages"]
    assistant, tool = messages[2], messages[3]
    assert assistant["role"] == "assistant" and assistant["content"] == "go"
    (call,) = assistant["tool_calls"]
    assert call["id"] == "call_abc"
    assert call["function"] == {"name": "search", "arguments": json.dumps({"query": "acme"})}
    assert tool == {"role": "tool", "tool_call_id": "call_abc", "content": tool["content"]}
    assert tool["content"].startswith("search results ...")


@pytest.mark.anyio
async def test_several_calls_are_all_kept(fake: FakeOpenAI) -> None:
    fake.push(Say(None, tool_calls=(("search", {"query": "a"}), ("open", {"url": "https://x.example/"}))))
    async with policy(fake, mode="tools") as p:
        reply = await p.next_step(view())
    assert reply.structured is not None
    calls = reply.structured["calls"]
    assert isinstance(calls, list) and [c["name"] for c in calls] == ["search", "open"]  # type: ignore[index]
    rejected = parse_policy_reply(reply)
    assert isinstance(rejected, Rejected) and rejected.code == "multiple_actions"

    # Shown back on the next turn, every call gets its own tool answer (the API requires it).
    fake.push(Say(GOOD))
    turn = Turn(step=0, reply=reply, thought="", action=None, shown="protocol error: multiple_actions")
    async with policy(fake, mode="tools") as p:
        await p.next_step(view(turn, step=1))
    messages = fake.requests[1].body["messages"]
    ids = [c["id"] for c in messages[2]["tool_calls"]]
    assert [m["tool_call_id"] for m in messages[3:]] == ids and len(ids) == 2


@pytest.mark.anyio
async def test_malformed_arguments_are_recorded_raw_and_rejected(fake: FakeOpenAI) -> None:
    fake.push(Say(None, tool_calls=(("finish", '{"answer": "Ada", '),)))
    async with policy(fake, mode="tools") as p:
        reply = await p.next_step(view())
    assert reply.structured is not None and reply.structured["arguments"] == '{"answer": "Ada", '
    rejected = parse_policy_reply(reply)
    assert isinstance(rejected, Rejected) and rejected.code == "finish_json"


@pytest.mark.anyio
async def test_tools_mode_prose_without_a_call_goes_to_the_text_parser(fake: FakeOpenAI) -> None:
    fake.push(Say("Final Answer: Ada Ortiz"))
    async with policy(fake, mode="tools") as p:
        reply = await p.next_step(view())
    assert reply.structured is None and reply.text == "Final Answer: Ada Ortiz"
    rejected = parse_policy_reply(reply)
    assert isinstance(rejected, Rejected) and rejected.code == "final_answer"


# -- failures and retries --------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize("failure", [Status(429, retry_after="0"), Status(500), Status(503), Hang(30)])
async def test_transient_failure_then_success(fake: FakeOpenAI, failure: Status | Hang) -> None:
    fake.push(failure, Say(GOOD))
    retry = RetryPolicy(max_attempts=3, max_elapsed=10, attempt_timeout=0.5, base_delay=0.01, max_delay=0.05)
    async with policy(fake, retry=retry) as p:
        reply = await p.next_step(view())
    assert reply.text == GOOD
    assert fake.calls == 2


@pytest.mark.anyio
async def test_gives_up_after_max_attempts(fake: FakeOpenAI) -> None:
    fake.push(*[Status(500)] * 5)
    async with policy(fake) as p:
        with pytest.raises(PolicyUnavailableError) as caught:
            await p.next_step(view())
    assert fake.calls == FAST.max_attempts
    assert caught.value.attempts == FAST.max_attempts
    assert "HTTP 500" in caught.value.last_error


@pytest.mark.anyio
async def test_gives_up_when_the_total_time_is_spent(fake: FakeOpenAI) -> None:
    fake.push(*[Hang(30)] * 10)
    retry = RetryPolicy(
        max_attempts=10, max_elapsed=0.6, attempt_timeout=0.25, base_delay=0.01, max_delay=0.02
    )
    async with policy(fake, retry=retry) as p:
        with pytest.raises(PolicyUnavailableError) as caught:
            await p.next_step(view())
    assert "timeout" in caught.value.last_error.lower() or "timed out" in caught.value.last_error.lower()
    assert 1 <= fake.calls < retry.max_attempts  # the time bound, not the count, stopped it


@pytest.mark.anyio
async def test_a_refused_request_is_not_retried(fake: FakeOpenAI) -> None:
    fake.push(Status(400, "bad request"), Say(GOOD))
    async with policy(fake) as p:
        with pytest.raises(PolicyUnavailableError) as caught:
            await p.next_step(view())
    assert fake.calls == 1 and caught.value.attempts == 1


@pytest.mark.anyio
async def test_connection_refused_is_retried_then_reported() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    p = OpenAIPolicy("m", base_url=f"http://127.0.0.1:{port}/v1", api_key=KEY, retry=FAST)
    async with p:
        with pytest.raises(PolicyUnavailableError) as caught:
            await p.next_step(view())
    assert caught.value.attempts == FAST.max_attempts
    assert "Connection" in caught.value.last_error


# -- the key never leaks ---------------------------------------------------------------


@pytest.mark.anyio
async def test_api_key_appears_in_no_error_log_or_repr(fake: FakeOpenAI) -> None:
    # A server that echoes the key back in its error messages (some do, partly masked).
    fake.push(Status(429, f"rate limited for key {KEY}"), Status(401, f"Incorrect API key provided: {KEY}"))
    p = OpenAIPolicy("m", base_url=f"http://user:{KEY}@127.0.0.1:1/v1?key={KEY}", api_key=KEY, retry=FAST)
    assert KEY not in repr(p) and KEY not in p.name
    with capture_logs() as logs:
        async with policy(fake) as q:
            with pytest.raises(PolicyUnavailableError) as caught:
                await q.next_step(view())
    assert fake.calls == 2
    assert logs, "a retry is logged"
    assert KEY not in repr(logs)
    assert KEY not in str(caught.value) and KEY not in repr(caught.value)
    assert KEY not in caught.value.last_error
    assert caught.value.__cause__ is None and caught.value.__context__ is None
    assert "***" in caught.value.last_error


# -- configuration ---------------------------------------------------------------------


def test_configuration_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_MODEL", "env-model")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    p = OpenAIPolicy()
    assert p.model == "env-model" and p.name == "openai:env-model"
    assert "127.0.0.1:9" in repr(p)


def test_misconfiguration_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(UsageError, match="OPENAI_MODEL"):
        OpenAIPolicy(base_url="http://127.0.0.1:9/v1")
    with pytest.raises(UsageError, match="OPENAI_API_KEY"):
        OpenAIPolicy("gpt-x")  # the default endpoint needs a key
    with pytest.raises(UsageError, match="mode"):
        OpenAIPolicy("m", mode="chat", base_url="http://127.0.0.1:9/v1")  # type: ignore[arg-type]


def test_policy_from_spec() -> None:
    react = policy_from_spec("openai:gpt-4o-mini", "http://127.0.0.1:9/v1")
    assert (react.mode, react.model, react.name) == ("react", "gpt-4o-mini", "openai:gpt-4o-mini")
    tools = policy_from_spec("openai-tools:llama3.1:8b", "http://127.0.0.1:9/v1")
    assert (tools.mode, tools.model, tools.name) == ("tools", "llama3.1:8b", "openai-tools:llama3.1:8b")
    with pytest.raises(UsageError, match="openai:MODEL"):
        policy_from_spec("anthropic:claude", None)


@pytest.mark.anyio
async def test_the_fake_refuses_unanswered_tool_calls(fake: FakeOpenAI) -> None:
    """The fake enforces the API's pairing rule, so the rendering tests above can fail."""
    fake.push(Say(GOOD))
    bad = Turn(
        step=0,
        reply=PolicyReply(structured={"id": "c1", "name": "search", "arguments": {"query": "a"}}),
        thought="",
        action=None,
        shown="x",
    )
    async with policy(fake, mode="tools") as p:
        await p.next_step(view(bad, step=1))  # rendered correctly: accepted
    from helpers.fake_openai import _conversation_problem

    messages = fake.requests[0].body["messages"]
    assert _conversation_problem(messages) == ""
    assert "not answered" in _conversation_problem([m for m in messages if m["role"] != "tool"])


@pytest.mark.anyio
async def test_api_key_in_no_stdlib_log_record_even_at_debug(
    fake: FakeOpenAI, caplog: pytest.LogCaptureFixture
) -> None:
    """The openai and http client libraries log requests at DEBUG; the key must not be in them."""
    fake.push(Status(503), Say(GOOD))
    with caplog.at_level(logging.DEBUG):
        async with policy(fake) as p:
            await p.next_step(view())
    assert any(record.name.startswith("openai") for record in caplog.records), "debug logging was captured"
    assert all(KEY not in record.getMessage() for record in caplog.records)
    assert KEY not in caplog.text
