"""Caps (issue 14, item 13): an over-long page or policy reply is recorded cut, and the event says so.

Each cut is made by a pure decision, so `check` replays a cut run with no divergence, and
the gate only ever sees the stored body.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import anyio
import pytest
from citeloop.events import (
    ActionParsed,
    Answered,
    Event,
    FinishRejected,
    MemoryStore,
    Page,
    ParseRejected,
    PolicyReply,
    ToolObserved,
    UsageError,
    decode_event,
    encode_event,
)
from citeloop.policies import RunView, finish_reply, react
from citeloop.runtime import CheckReport, Limits, Outcome, Runtime, check_events
from citeloop.runtime._limits import cap_observation, cap_reply
from citeloop.runtime.cli._transfer import RunFileError, parse_run_file
from helpers.cli import run_citeloop
from helpers.fakes import page_tools

WIKI = "https://wiki.example/acme"
HEAD = "Acme Robotics was founded by Ada Ortiz in 2014."
TAIL = " Its second office opened in Porto in 2019."
BODY = HEAD + TAIL + " filler" * 100
AT = datetime(2024, 1, 1, tzinfo=UTC)


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class Ran:
    events: list[Event]
    outcome: Outcome
    report: CheckReport
    views: list[RunView]


class Replies:
    """Replies in order, text or `PolicyReply`, and keeps every view it was shown."""

    name = "replies"

    def __init__(self, *replies: str | PolicyReply) -> None:
        self._replies = list(replies)
        self.views: list[RunView] = []

    async def next_step(self, view: RunView) -> str | PolicyReply:
        self.views.append(view)
        return self._replies.pop(0) if len(self._replies) > 1 else self._replies[0]


async def run(*replies: str | PolicyReply, limits: Limits, max_steps: int = 4) -> Ran:
    tools, _ = page_tools({WIKI: ("Acme", BODY)})
    store = MemoryStore()
    policy = Replies(*replies)
    async with Runtime(store=store, tools=tools, policy=policy, max_steps=max_steps, limits=limits) as rt:
        outcome = await rt.run("Who founded Acme Robotics?")
        report = await rt.check(outcome.run_id)
    return Ran(await store.read(outcome.run_id), outcome, report, policy.views)


# -- (a) the page body in the log ------------------------------------------------------------


@pytest.mark.anyio
async def test_an_over_long_page_is_recorded_cut_and_says_so() -> None:
    cap = len(HEAD)
    finish = finish_reply("quote", "Ada Ortiz founded it in 2014.", [WIKI], HEAD)
    ran = await run(react("open", "open", WIKI), finish, limits=Limits(cap, 10_000))
    events = ran.events
    (observed,) = [e for e in events if isinstance(e, ToolObserved)]
    page = observed.observation
    assert isinstance(page, Page)
    assert (page.body, page.truncated_from, page.sha256) == (HEAD, len(BODY), sha(HEAD))
    assert ran.outcome.status == "answered"
    (answered,) = [e for e in events if isinstance(e, Answered)]
    assert answered.locators[0].sha256 == sha(HEAD)
    assert ran.report.ok, ran.report.divergences
    assert check_events(events, limits=Limits(cap, 10_000)).ok
    shown = ran.views[1].turns[0].shown
    assert f"the page had {len(BODY)} characters; the log keeps the first {cap}" in shown


@pytest.mark.anyio
async def test_the_gate_sees_only_the_stored_body() -> None:
    cap = len(HEAD)
    beyond = finish_reply("quote", "A second office opened in Porto.", [WIKI], TAIL.strip())
    ran = await run(react("open", "open", WIKI), beyond, beyond, limits=Limits(cap, 10_000))
    assert [e.code for e in ran.events if isinstance(e, FinishRejected)] == ["evidence", "evidence"]
    assert ran.outcome.reason == "invalid_finish"
    assert ran.report.ok, ran.report.divergences


def test_a_page_within_the_cap_is_recorded_as_it_came_and_encodes_as_before() -> None:
    page = Page(url=WIKI, title="Acme", body=HEAD, sha256=sha(HEAD))
    assert cap_observation(page, len(HEAD)) is page
    observed = ToolObserved(
        run_id="r", seq=2, at=AT, step=0, call_id="c1", tool="open", input=WIKI, observation=page
    )
    assert b"truncated_from" not in encode_event(observed)  # old logs keep their bytes
    cut = cap_observation(page, 5)
    assert cap_observation(cut, 5) == cut  # cutting what is cut changes nothing
    assert decode_event(encode_event(observed.model_copy(update={"observation": cut}))).observation == cut


# -- (b) a policy reply ------------------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize("structured", [False, True])
async def test_an_over_long_reply_is_recorded_cut_and_rejected_as_too_long(structured: bool) -> None:
    long = react("x" * 500, "open", WIKI)
    reply = (
        PolicyReply(structured={"name": "open", "arguments": {"url": WIKI + "?" + "y" * 500}})
        if structured
        else PolicyReply(text=long)
    )
    size = len(long) if not structured else len(json.dumps(reply.structured, ensure_ascii=False))
    ran = await run(reply, react("open", "open", WIKI), limits=Limits(10_000, 200))
    events = ran.events
    rejected = events[1]
    assert isinstance(rejected, ParseRejected)
    assert rejected.code == "too_long"
    assert rejected.reply.truncated_from == size
    assert rejected.reply.text is not None and len(rejected.reply.text) == 200
    assert rejected.reply.structured is None
    assert rejected.detail == f"{size} characters, recorded cut to 200"
    assert isinstance(events[2], ActionParsed)  # the next, short reply goes on as usual
    assert ran.report.ok, ran.report.divergences
    assert check_events(events).ok  # under the default (larger) caps too
    assert ran.views[1].turns[0].shown.startswith("protocol error: too_long")


def test_a_reply_within_the_cap_is_unchanged_and_encodes_as_before() -> None:
    reply = PolicyReply(text="Thought: t\nAction: open\nAction Input: x")
    assert cap_reply(reply, len(reply.text or "")) is reply
    assert b"truncated_from" not in reply.__pydantic_serializer__.to_json(reply)
    cut = cap_reply(reply, 5)
    assert (cut.text, cut.truncated_from) == ("Thoug", len(reply.text or ""))
    assert cap_reply(cut, 5) == cut


def test_check_under_smaller_caps_than_the_run_had_is_a_divergence() -> None:
    events = _cut_run_events()
    assert check_events(events, limits=Limits(10_000, 200)).ok
    tighter = check_events(events, limits=Limits(10_000, 100))
    assert [d.kind for d in tighter.divergences] == ["parse"]


def _cut_run_events() -> list[Event]:
    async def go() -> list[Event]:
        ran = await run(PolicyReply(text="z" * 300), limits=Limits(10_000, 200), max_steps=1)
        return ran.events

    return anyio.run(go)


def test_limits_must_be_positive() -> None:
    with pytest.raises(UsageError):
        Limits(max_page_chars=0)
    with pytest.raises(UsageError):
        Limits(max_reply_chars=-1)


# -- (c) the import line cap ------------------------------------------------------------------


def test_an_import_line_over_the_cap_is_refused_naming_the_line(tmp_path: Path) -> None:
    events = _cut_run_events()
    lines = [encode_event(event) for event in events]
    file = tmp_path / "run.jsonl"
    file.write_bytes(b"\n".join(lines) + b"\n")
    assert parse_run_file(file) == events
    longest = max(range(len(lines)), key=lambda index: len(lines[index]))
    cap = len(lines[longest]) - 1
    with pytest.raises(RunFileError, match=rf"run\.jsonl:{longest + 1}: line longer than {cap} bytes"):
        parse_run_file(file, max_line_bytes=cap)
    assert parse_run_file(file, max_line_bytes=cap + 1) == events
    # CRLF line ends count the line, not its end.
    file.write_bytes(b"\r\n".join(lines) + b"\r\n")
    assert parse_run_file(file, max_line_bytes=cap + 1) == events


def test_citeloop_import_refuses_a_long_line_in_one_line_on_stderr(tmp_path: Path) -> None:
    events = _cut_run_events()
    (tmp_path / "run.jsonl").write_bytes(b"".join(encode_event(event) + b"\n" for event in events))
    args = ("import", "run.jsonl", "--store", "memory://", "--max-line-bytes", "100")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITELOOP_")}
    done = run_citeloop(*args, cwd=tmp_path, env={**env, "CITELOOP_CACHE_DIR": str(tmp_path / "cache")})
    assert done.returncode == 1, done.stdout
    (line,) = done.stderr.strip().splitlines()
    assert "run.jsonl:1: line longer than 100 bytes; refused" in line
