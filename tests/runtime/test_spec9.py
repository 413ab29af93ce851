"""The seed questions of docs/gate.md, end to end, on the demo corpus and every embedded store."""

from __future__ import annotations

from pathlib import Path

import pytest
from citeloop.events import FinishRejected, open_store
from citeloop.policies import ExtractivePolicy, Policy, ScriptedPolicy, finish_reply, react
from citeloop.runtime import Runtime, check_events, validate_finish
from citeloop.tools import Corpus
from helpers.fakes import ReplyQueue

pytestmark = pytest.mark.anyio

WIKI = "https://wiki.example/acme"
NEWS = "https://news.example/ada"


def store_url(kind: str, folder: Path) -> str:
    return {
        "memory": "memory://",
        "jsonl": f"jsonl:///{folder}/log.jsonl",
        "sqlite": f"sqlite:///{folder}/runs.db",
    }[kind]


@pytest.fixture(params=["memory", "jsonl", "sqlite"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return store_url(str(request.param), tmp_path)


@pytest.mark.parametrize(
    "make_policy", [ScriptedPolicy.demo, ExtractivePolicy], ids=["scripted", "extractive"]
)
async def test_seed_table(url: str, make_policy: type[Policy]) -> None:
    corpus = Corpus.demo()
    store = open_store(url)
    async with store, Runtime(store=store, tools=corpus.tools(), policy=make_policy()) as rt:
        founder = await rt.run("Who founded Acme Robotics?")
        ceo = await rt.run("Who is the current CEO?")
        food = await rt.run("What is Ada's favorite food?")
        founder_state = await rt.reopen(founder.run_id)
        ceo_state = await rt.reopen(ceo.run_id)
        logs = [await store.read(o.run_id) for o in (founder, ceo, food)]

    assert founder.status == "answered"
    assert "Ada Ortiz" in founder.answer
    assert WIKI in founder.citations
    assert founder.locators
    for locator in founder.locators:
        page = founder_state.opened[locator.url]
        assert locator.url in founder.citations
        assert page.body[locator.start : locator.end] == locator.quote
        assert locator.sha256 == page.sha256

    assert ceo.status == "answered"
    assert "Kenji Ito" in ceo.answer
    assert NEWS in ceo.citations and NEWS in ceo_state.opened

    assert food.status == "abstained"
    assert food.answer.startswith("cannot:")
    assert food.reason in ("missing_fact", "no_hits")

    for log in logs:
        assert check_events(log).ok


async def test_a_finish_that_cites_a_url_never_opened_is_rejected(url: str) -> None:
    finish = finish_reply(
        "cite the wiki without opening it",
        "Acme Robotics was founded by Ada Ortiz.",
        [WIKI],
        "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon.",
    )
    store = open_store(url)
    policy = ReplyQueue(react("read the interview", "open", NEWS), finish)
    async with store, Runtime(store=store, tools=Corpus.demo().tools(), policy=policy) as rt:
        outcome = await rt.run("Who founded Acme Robotics?")
        events = await store.read(outcome.run_id)
    rejected = [e for e in events if isinstance(e, FinishRejected)]
    assert rejected and rejected[0].code == "cite_not_opened"
    assert outcome.status == "abstained" and outcome.reason == "invalid_finish"
    assert validate_finish(
        dict(rejected[0].payload), {NEWS: "Ortiz left in 2021. Current CEO is Kenji Ito."}
    ) == ("cite_not_opened")
