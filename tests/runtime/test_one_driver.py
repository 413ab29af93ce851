"""A run has one driver at a time: a second process resuming it while the first is inside
a tool call is refused, instead of taking the call for a crash (and running it again)."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import anyio
import pytest
from citeloop.events import Page, RunBusyError, ToolOutcomeUnknown, open_store
from citeloop.policies import ScriptedPolicy
from citeloop.runtime import Runtime, fold
from helpers.fakes import page_tools

pytestmark = pytest.mark.anyio

TESTS = str(Path(__file__).resolve().parents[1])  # the child imports the shared `helpers`

DRIVER = textwrap.dedent(
    """
    import sys, time, anyio, hashlib
    from citeloop.events import Page, open_store
    from citeloop.policies import ScriptedPolicy
    from citeloop.runtime import Runtime
    from helpers.fakes import page_tools

    class StuckOpen:
        name = "open"
        read_only = True
        async def __call__(self, url):
            print("in tool", flush=True)
            time.sleep(600)  # until killed

    async def main() -> None:
        tools, _ = page_tools()
        policy = ScriptedPolicy.demo()
        async with open_store(sys.argv[1]) as store:
            async with Runtime(store=store, tools=[tools[0], StuckOpen()], policy=policy) as rt:
                await rt.run("Who founded Acme Robotics?", run_id="r1")

    anyio.run(main)
    """
)


async def test_a_second_process_cannot_resume_a_run_being_driven(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'runs.db'}"
    env = {**os.environ, "PYTHONPATH": TESTS}
    driver = await anyio.open_process([sys.executable, "-c", DRIVER, url], env=env)
    try:
        assert driver.stdout is not None
        with anyio.fail_after(30):
            said = await driver.stdout.receive()
        assert said.strip() == b"in tool", said
        tools, counter = page_tools()
        async with open_store(url) as store, Runtime(
            store=store, tools=tools, policy=ScriptedPolicy.demo()
        ) as rt:
            with pytest.raises(RunBusyError, match="another process"):
                await rt.resume("r1")
            assert counter.calls == []  # the open in flight was not run a second time
            assert not any(isinstance(e, ToolOutcomeUnknown) for e in await store.read("r1"))

            driver.kill()  # now it is a crash
            await driver.wait()
            outcome = await rt.resume("r1")
            assert outcome.status == "answered"
            assert counter.calls == ["open:https://wiki.example/acme"]  # read-only: run again, once
            events = await store.read("r1")
            assert fold(events).outcome is not None
            assert sum(isinstance(getattr(e, "observation", None), Page) for e in events) == 1
    finally:
        if driver.returncode is None:
            driver.kill()
        await driver.aclose()
