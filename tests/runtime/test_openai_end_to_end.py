"""Whole runs driven by `OpenAIPolicy` against a scripted Chat Completions server on loopback.

Each scenario runs in both modes (ReAct text and native tool calls) over the demo corpus
and ends in the outcome SPEC §5 names. No client is patched. The openai client is
anyio-based, so these run on asyncio and trio.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from citeloop.events import (
    Abstained,
    ActionParsed,
    Event,
    FinishRejected,
    ParseRejected,
    encode_event,
    open_store,
)
from citeloop.policies import OpenAIPolicy, RetryPolicy
from citeloop.runtime import Runtime
from citeloop.tools import Corpus
from helpers.cli import run_citeloop
from helpers.fake_openai import FakeOpenAI, Hang, Say, Script, Status, serve
from structlog.testing import capture_logs

KEY = "sk-e2e-9f8e7d6c5b4a-SECRET"
WIKI = "https://wiki.example/acme"
NEWS = "https://news.example/ada"
QUESTION = "Who founded Acme Robotics?"
GOOD_FINISH = {
    "answer": "Acme Robotics was founded by Ada Ortiz.",
    "citations": [WIKI],
    "cannot_answer": False,
    "evidence": "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon.",
}
UNOPENED_FINISH = {**GOOD_FINISH, "citations": [NEWS]}  # cite_not_opened
FAST = RetryPolicy(max_attempts=3, max_elapsed=10.0, attempt_timeout=5.0, base_delay=0.01, max_delay=0.05)
MODES = ["react", "tools"]


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with serve() as server:
        yield server


def act(mode: str, tool: str, argument: str | dict[str, Any]) -> Say:
    """One well-formed step in the given mode."""
    if mode == "react":
        text = json.dumps(argument) if isinstance(argument, dict) else argument
        return Say(f"Thought: next I {tool}\nAction: {tool}\nAction Input: {text}")
    if isinstance(argument, dict):
        return Say("finishing", tool_calls=((tool, argument),))
    key = {"search": "query", "open": "url"}[tool]
    return Say(f"next I {tool}", tool_calls=((tool, {key: argument}),))


def research(mode: str) -> list[Script]:
    return [act(mode, "search", "Acme Robotics founder"), act(mode, "open", WIKI)]


def malformed(mode: str) -> Say:
    if mode == "react":
        return Say("I believe it was Ada Ortiz, but let me check.")  # no labels at all
    return Say(None, tool_calls=(("search", {"q": "Acme"}),))  # wrong argument name


async def run(fake: FakeOpenAI, mode: str, *script: Script, question: str = QUESTION, **kw: Any) -> Any:
    fake.push(*script)
    store = open_store("memory://")
    retry = kw.pop("retry", FAST)
    policy = OpenAIPolicy("test-model", mode=mode, base_url=fake.base_url, api_key=KEY, retry=retry)
    async with policy, Runtime(store=store, tools=Corpus.demo().tools(), policy=policy, max_steps=6) as rt:
        outcome = await rt.run(question)
        events = await rt.transcript(outcome.run_id)
        calls_before = fake.calls
        state = await rt.reopen(outcome.run_id)
        report = await rt.check(outcome.run_id)
        # Reopen and check rebuild the run from its log: the model is not asked again.
        assert fake.calls == calls_before
        assert state.status == outcome.status
        assert report.ok, report.to_json()
    return outcome, events


def of_type(events: list[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_good_sequence_answers_with_a_citation(fake: FakeOpenAI, mode: str) -> None:
    outcome, events = await run(fake, mode, *research(mode), act(mode, "finish", GOOD_FINISH))
    assert outcome.status == "answered"
    assert "Ada Ortiz" in outcome.answer and outcome.citations == (WIKI,)
    assert outcome.locators[0].quote == GOOD_FINISH["evidence"]
    parsed = of_type(events, ActionParsed)
    assert len(parsed) == 3 and fake.calls == 3
    for event in parsed:  # recorded raw, with usage and latency, in the mode's own shape
        assert event.reply.model == "test-model"
        assert event.reply.usage == {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
        assert event.reply.latency_ms is not None
        assert (event.reply.structured is not None) == (mode == "tools")
    # The model saw the fenced page before it finished.
    last = fake.requests[-1].body["messages"][-1]
    assert "untrusted" in last["content"] and "founded by Ada Ortiz" in last["content"]
    if mode == "tools":
        assert last["role"] == "tool"
        assert last["tool_call_id"] == parsed[1].reply.structured["id"]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_malformed_reply_then_a_good_sequence(fake: FakeOpenAI, mode: str) -> None:
    script = [malformed(mode), *research(mode), act(mode, "finish", GOOD_FINISH)]
    outcome, events = await run(fake, mode, *script)
    assert outcome.status == "answered" and outcome.steps == 4
    (rejected,) = of_type(events, ParseRejected)
    assert rejected.code == ("react_shape" if mode == "react" else "empty_input")
    second = fake.requests[1].body["messages"]
    assert second[-1]["content"].startswith(f"protocol error: {rejected.code}")


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_final_answer_is_rejected_until_the_budget_is_spent(fake: FakeOpenAI, mode: str) -> None:
    text = "Thought: done\nFinal Answer: Ada Ortiz" if mode == "react" else "Final Answer: Ada Ortiz"
    final = Say(text)
    outcome, events = await run(fake, mode, *[final] * 6)
    assert (outcome.status, outcome.reason) == ("abstained", "budget")
    assert [e.code for e in of_type(events, ParseRejected)] == ["final_answer"] * 6
    assert fake.calls == 6
    assert "protocol error: final_answer" in fake.requests[1].body["messages"][-1]["content"]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_invalid_finish_then_a_repaired_one(fake: FakeOpenAI, mode: str) -> None:
    outcome, events = await run(
        fake, mode, *research(mode), act(mode, "finish", UNOPENED_FINISH), act(mode, "finish", GOOD_FINISH)
    )
    assert outcome.status == "answered" and outcome.citations == (WIKI,)
    assert [e.code for e in of_type(events, FinishRejected)] == ["cite_not_opened"]
    assert "finish rejected: cite_not_opened" in fake.requests[3].body["messages"][-1]["content"]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_invalid_finish_twice_abstains(fake: FakeOpenAI, mode: str) -> None:
    bad = act(mode, "finish", UNOPENED_FINISH)
    outcome, events = await run(fake, mode, *research(mode), bad, bad)
    assert (outcome.status, outcome.reason) == ("abstained", "invalid_finish")
    assert outcome.answer.startswith("cannot:")
    assert len(of_type(events, FinishRejected)) == 2 and fake.calls == 4


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_rate_limited_then_success(fake: FakeOpenAI, mode: str) -> None:
    outcome, events = await run(
        fake, mode, Status(429, retry_after="0"), *research(mode), act(mode, "finish", GOOD_FINISH)
    )
    assert outcome.status == "answered"
    assert fake.calls == 4  # one refused, three answered; only the answered ones are steps
    assert len(of_type(events, ActionParsed)) == 3


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_a_hanging_model_ends_as_policy_error(fake: FakeOpenAI, mode: str) -> None:
    # The attempts bound ends it: the elapsed bound is far off, so a loaded machine cannot end it first.
    retry = RetryPolicy(max_attempts=2, max_elapsed=60, attempt_timeout=0.3, base_delay=0.01, max_delay=0.02)
    script = [act(mode, "search", "Acme Robotics"), Hang(30), Hang(30)]
    outcome, events = await run(fake, mode, *script, retry=retry)
    assert (outcome.status, outcome.reason) == ("failed", "policy_error")  # not a grounded refusal
    assert outcome.answer.startswith("cannot:")
    (abstained,) = of_type(events, Abstained)
    assert "PolicyUnavailableError" in abstained.detail and fake.calls == 3


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_cannot_answer_is_an_abstention(fake: FakeOpenAI, mode: str) -> None:
    abstain = {"answer": "cannot: not in the pages", "citations": [], "cannot_answer": True, "evidence": ""}
    outcome, _ = await run(
        fake, mode, *research(mode), act(mode, "finish", abstain), question="What is Ada's favorite food?"
    )
    assert (outcome.status, outcome.reason) == ("abstained", "missing_fact")


@pytest.mark.anyio
@pytest.mark.parametrize("mode", MODES)
async def test_the_key_is_in_no_event_and_no_log(fake: FakeOpenAI, mode: str) -> None:
    with capture_logs() as logs:
        outcome, events = await run(
            fake,
            mode,
            Status(500, f"upstream rejected key {KEY}"),
            *research(mode),
            act(mode, "finish", GOOD_FINISH),
        )
    assert outcome.status == "answered"
    assert any(entry.get("event") == "policy_retry" for entry in logs)
    assert KEY not in repr(logs)
    assert all(KEY.encode() not in encode_event(event) for event in events)
    assert fake.requests[0].headers["authorization"] == f"Bearer {KEY}"  # it was really sent


@pytest.mark.anyio
async def test_several_native_calls_in_one_reply_are_one_rejected_step(fake: FakeOpenAI) -> None:
    several = Say(None, tool_calls=(("search", {"query": "Acme"}), ("open", {"url": WIKI})))
    script = [several, *research("tools"), act("tools", "finish", GOOD_FINISH)]
    outcome, events = await run(fake, "tools", *script)
    assert outcome.status == "answered" and outcome.steps == 4
    assert [e.code for e in of_type(events, ParseRejected)] == ["multiple_actions"]
    # Neither call ran: the first tool dispatch is the search of the next reply.
    assert of_type(events, ActionParsed)[0].action.input == "Acme Robotics founder"
    answers = [m for m in fake.requests[1].body["messages"] if m["role"] == "tool"]
    assert len(answers) == 2
    assert all(m["content"].startswith("protocol error: multiple_actions") for m in answers)


@pytest.mark.slow
def test_command_line_run_then_replay_check_calls_no_model(fake: FakeOpenAI, tmp_path: Path) -> None:
    # One mode here (each subprocess costs seconds); both modes are checked in process above.
    spec, mode = "openai-tools:test-model", "tools"
    fake.push(*research(mode), act(mode, "finish", GOOD_FINISH))
    store = f"sqlite:///{tmp_path / 'runs.db'}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CITELOOP_", "OPENAI_"))}
    env.update(OPENAI_API_KEY=KEY, CITELOOP_CACHE_DIR=str(tmp_path / "cache"))

    def citeloop(*args: str) -> subprocess.CompletedProcess[str]:
        return run_citeloop(*args, cwd=tmp_path, env=env)

    endpoint = ("--base-url", fake.base_url)
    asked = citeloop("ask", QUESTION, "--policy", spec, *endpoint, "--store", store, "--json")
    assert asked.returncode == 0, asked.stderr
    outcome = json.loads(asked.stdout)
    assert outcome["status"] == "answered" and outcome["citations"] == [WIKI]
    assert fake.calls == 3 and fake.requests[0].headers["authorization"] == f"Bearer {KEY}"

    checked = citeloop("replay", outcome["run_id"], "--check", "--store", store, "--json")
    shown = citeloop("show", outcome["run_id"], "--store", store)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert json.loads(checked.stdout)["ok"] is True
    assert shown.returncode == 0, shown.stderr
    assert fake.calls == 3  # replay and show read the log only
    for done in (asked, checked, shown):
        assert KEY not in done.stdout and KEY not in done.stderr
