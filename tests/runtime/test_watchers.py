"""Watchers are told what a run is about to wait on, before it waits (the spinner's feed)."""

from __future__ import annotations

import pytest
from citeloop.events import MemoryStore, Observation
from citeloop.policies import ScriptedPolicy
from citeloop.runtime import Runtime, Waiting
from helpers.fakes import page_tools

pytestmark = pytest.mark.anyio

QUESTION = "Who founded Acme Robotics?"


async def test_watchers_hear_of_each_wait_before_it_begins() -> None:
    tools, _ = page_tools()
    heard: list[Waiting] = []
    order: list[str] = []

    class Telling:
        """Wraps a tool: notes whether the watcher already named this very call."""

        def __init__(self, inner: object) -> None:
            self._inner = inner
            self.name = inner.name  # type: ignore[attr-defined]
            self.read_only = inner.read_only  # type: ignore[attr-defined]

        async def __call__(self, argument: str) -> Observation:
            last = heard[-1]
            order.append("told first" if (last.tool, last.input) == (self.name, argument) else "not told")
            return await self._inner(argument)  # type: ignore[operator,no-any-return]

    wrapped = [Telling(tool) for tool in tools]
    async with Runtime(
        store=MemoryStore(), tools=wrapped, policy=ScriptedPolicy.demo(), watchers=[heard.append]
    ) as rt:
        outcome = await rt.run(QUESTION, run_id="watched")
    assert outcome.status == "answered"
    assert order and set(order) == {"told first"}
    assert [(w.on, w.step) for w in heard] == [
        ("policy", 0),
        ("tool", 0),
        ("policy", 1),
        ("tool", 1),
        ("policy", 2),
    ]
    assert {w.run_id for w in heard} == {"watched"}
    assert {w.policy for w in heard} == {"scripted"}


async def test_a_failing_watcher_does_not_stop_the_run() -> None:
    tools, _ = page_tools()

    def broken(waiting: Waiting) -> None:
        raise RuntimeError("a watcher's bug")

    policy = ScriptedPolicy.demo()
    async with Runtime(store=MemoryStore(), tools=tools, policy=policy, watchers=[broken]) as rt:
        outcome = await rt.run(QUESTION)
    assert outcome.status == "answered"
