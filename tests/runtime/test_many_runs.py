"""Many concurrent runs in one Runtime: each reaches an outcome its own log folds to."""

from __future__ import annotations

import anyio
import pytest
from citeloop.events import open_store
from citeloop.policies import ScriptedPolicy
from citeloop.runtime import Outcome, Runtime, fold
from helpers.fakes import page_tools

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

QUESTIONS = ("Who founded Acme Robotics?", "Who is the current CEO?", "What is Ada's favorite food?")


@pytest.mark.parametrize("url_kind", ["memory", "sqlite"])
async def test_a_thousand_concurrent_runs(url_kind: str, tmp_path: object) -> None:
    url = "memory://" if url_kind == "memory" else f"sqlite:///{tmp_path}/runs.db"
    store = open_store(url)
    tools, _ = page_tools(latency=0.001)
    outcomes: dict[int, Outcome] = {}
    async with store, Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo()) as rt:

        async def one(i: int) -> None:
            outcomes[i] = await rt.run(QUESTIONS[i % 3])

        async with anyio.create_task_group() as tg:
            for i in range(1000):
                tg.start_soon(one, i)
        assert len(outcomes) == 1000
        for i, outcome in outcomes.items():
            events = await store.read(outcome.run_id)
            assert Outcome.from_state(fold(events)) == outcome
            assert outcome.status == ("abstained" if i % 3 == 2 else "answered")
        summaries = await store.runs()
    assert len(summaries) == 1000
    assert {s.status for s in summaries} == {"answered", "abstained"}
