"""A calculation records the calculate tool's rules version, not citeloop's: upgrades do not diverge.

`Calculation.rules` is `CALCULATE_RULES` (runtime/_calculate.py), bumped only when the
tool's semantics change. A calculation recorded before that (citeloop's version in
`version`, no `rules`) still loads, encodes as it was written, and is judged as rules 1.
"""

from __future__ import annotations

import importlib.metadata
import json

import citeloop
import pytest
from citeloop.events import (
    Calculation,
    Event,
    MemoryStore,
    ToolObserved,
    decode_event,
    encode_event,
    stamp_chain,
)
from citeloop.policies import abstain_reply, react
from citeloop.runtime import Runtime, check_events
from citeloop.runtime._calculate import CALCULATE_RULES
from helpers.claims import book, cell, spec
from helpers.fakes import ReplyQueue, page_tools

pytestmark = pytest.mark.anyio


async def stored_run() -> list[Event]:
    """A run that calculates the mean of two cited cells, then refuses."""
    store = MemoryStore()
    tools, _ = page_tools()
    request = json.dumps({"operation": "mean", "inputs": [cell("B2"), cell("B3")]})
    policy = ReplyQueue(react("Calculate.", "calculate", request), abstain_reply("Stop.", "not enough"))
    async with Runtime(store=store, tools=tools, policy=policy) as runtime:
        outcome = await runtime.run("What is the mean runtime?", attachments=[spec(), book()])
    return await store.read(outcome.run_id)


def the_calculation(events: list[Event]) -> tuple[int, Calculation]:
    (found,) = [
        (index, event.observation)
        for index, event in enumerate(events)
        if isinstance(event, ToolObserved) and isinstance(event.observation, Calculation)
    ]
    return found


def other_version(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pretend citeloop was upgraded: every way of asking its version says 99.0.0."""
    real = importlib.metadata.version

    def version(name: str) -> str:
        return "99.0.0" if name == "citeloop" else real(name)

    monkeypatch.setattr(citeloop, "__version__", "99.0.0", raising=False)
    monkeypatch.setattr(importlib.metadata, "version", version)
    monkeypatch.setattr("citeloop.runtime._calculate.version", version)


async def test_a_calculation_records_the_rules_version_not_the_package_version() -> None:
    _, calculation = the_calculation(await stored_run())
    assert calculation.rules == CALCULATE_RULES
    assert calculation.version is None
    assert b'"version"' not in calculation.__pydantic_serializer__.to_json(calculation)


async def test_a_stored_calculation_checks_clean_after_an_upgrade(monkeypatch: pytest.MonkeyPatch) -> None:
    events = await stored_run()
    assert check_events(events).ok
    other_version(monkeypatch)
    report = check_events(events)
    assert report.ok, report.divergences
    assert report.chain == "chained"


async def test_a_calculation_under_other_rules_diverges() -> None:
    events = await stored_run()
    index, calculation = the_calculation(events)
    observed = events[index]
    assert isinstance(observed, ToolObserved)
    bumped = observed.model_copy(update={"observation": calculation.model_copy(update={"rules": 2})})
    restamped, _ = stamp_chain([*events[:index], bumped, *events[index + 1 :]], None)
    report = check_events(list(restamped))
    assert [divergence.kind for divergence in report.divergences] == ["dispatch"]


def legacy(events: list[Event]) -> list[Event]:
    """`events` as written before rules were numbered: the calculation holds citeloop's version."""
    index, _ = the_calculation(events)
    data = json.loads(encode_event(events[index]))
    del data["observation"]["rules"]
    data["observation"]["version"] = "0.1.0"
    old = decode_event(json.dumps(data))
    restamped, _ = stamp_chain([*events[:index], old, *events[index + 1 :]], None)
    return list(restamped)


async def test_a_log_with_the_package_version_still_loads_and_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    events = legacy(await stored_run())
    index, calculation = the_calculation(events)
    assert (calculation.rules, calculation.version) == (None, "0.1.0")
    # It encodes as it was written: no `rules` key appears, so the old chain still holds.
    written = encode_event(events[index])
    assert b'"rules"' not in written and b'"version":"0.1.0"' in written
    assert encode_event(decode_event(written)) == written
    other_version(monkeypatch)
    report = check_events(events)
    assert report.ok, report.divergences
    assert report.chain == "chained"
