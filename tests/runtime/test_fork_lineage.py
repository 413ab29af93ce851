"""`check` of a fork verifies its lineage when the parent is in the store, and says so when it is not.

The parent's event at the fork's `parent_seq` must hash to its `parent_head` (a `lineage`
divergence otherwise, named in plain words); a fork whose parent is missing is replayed like
any log and reported `lineage="parent_missing"`: never silence, never a crash.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from citeloop.events import Event, Forked, MemoryStore, stamp_chain
from citeloop.policies import ScriptedAnswer, ScriptedPolicy
from citeloop.runtime import Runtime, check_events
from helpers.cli import run_citeloop
from helpers.fakes import page_tools

QUESTION = "Who founded Acme Robotics?"
FOUNDING = "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon."
OTHER = ScriptedPolicy(
    {QUESTION: ScriptedAnswer(answer="Ada Ortiz, in 2014.", evidence=FOUNDING)}, name="other"
)


async def parent_and_fork() -> tuple[list[Event], list[Event]]:
    store = MemoryStore()
    tools, _ = page_tools()
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo()) as rt:
        parent_id = (await rt.run(QUESTION)).run_id
        forked = await rt.fork(parent_id, at_step=2, policy=OTHER)
        return await store.read(parent_id), await store.read(forked.run_id)


def with_forked(events: list[Event], **changes: object) -> list[Event]:
    head = events[0]
    assert isinstance(head, Forked)
    return list(stamp_chain([head.model_copy(update=changes), *events[1:]], None)[0])


@pytest.mark.anyio
async def test_a_fork_with_its_parent_is_checked() -> None:
    parent, events = await parent_and_fork()
    report = check_events(events, parent=parent)
    assert report.ok and report.lineage == "checked", report.divergences
    assert report.to_json()["lineage"] == "checked"
    assert check_events(parent, parent=None).lineage == "unforked"


@pytest.mark.anyio
async def test_a_parent_head_that_is_not_the_parents_is_a_lineage_divergence() -> None:
    parent, events = await parent_and_fork()
    lying = with_forked(events, parent_head="0" * 64)
    assert check_events(lying).ok  # on its own, the log is consistent
    report = check_events(lying, parent=parent)
    (divergence,) = report.divergences
    head = events[0]
    assert isinstance(head, Forked)
    assert (divergence.kind, divergence.seq) == ("lineage", 0)
    assert divergence.recorded == f"the parent's event at seq {head.parent_seq} hashes to {'0' * 64}"
    assert divergence.today == f"the parent's event at seq {head.parent_seq} hashes to {head.parent_head}"


@pytest.mark.anyio
async def test_a_parent_seq_past_the_parents_end_is_a_lineage_divergence() -> None:
    parent, events = await parent_and_fork()
    report = check_events(with_forked(events, parent_seq=999), parent=parent)
    (divergence,) = report.divergences
    assert divergence.kind == "lineage"
    assert divergence.today == f"the parent has no event at seq 999 (its last is {parent[-1].seq})"


@pytest.mark.anyio
async def test_a_fork_whose_parent_is_missing_is_reported_not_silently_passed() -> None:
    _, events = await parent_and_fork()
    for parent in (None, []):
        report = check_events(events, parent=parent)
        assert report.lineage == "parent_missing"
        assert report.ok  # nothing in the log itself diverges: what is unchecked is said apart
    # Through the runtime: a store holding the fork but not its parent.
    store = MemoryStore()
    await store.append(events[0].run_id, events, 0)
    tools, _ = page_tools()
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo()) as rt:
        report = await rt.check(events[0].run_id)
    assert report.lineage == "parent_missing" and report.to_json()["lineage"] == "parent_missing"


def test_replay_check_names_the_lineage_and_a_missing_parent(tmp_path: Path) -> None:
    env = {**os.environ, "CITELOOP_STORE": f"sqlite:///{tmp_path}/runs.db"}
    asked = run_citeloop("ask", QUESTION, "--policy", "scripted", "--json", cwd=tmp_path, env=env)
    assert asked.returncode == 0, asked.stderr
    parent = json.loads(asked.stdout)["run_id"]
    done = run_citeloop(
        "fork", parent, "--at", "1", "--policy", "extractive", "--json", cwd=tmp_path, env=env
    )
    assert done.returncode == 0, done.stderr
    fork = json.loads(done.stdout)["run_id"]

    checked = run_citeloop("replay", fork, "--check", cwd=tmp_path, env=env)
    assert checked.returncode == 0, (checked.stdout, checked.stderr)
    assert "lineage: checked" in checked.stdout

    with sqlite3.connect(tmp_path / "runs.db") as connection:
        connection.execute("DELETE FROM events WHERE run_id = ?", (parent,))
        connection.execute("DELETE FROM runs WHERE run_id = ?", (parent,))
    checked = run_citeloop("replay", fork, "--check", cwd=tmp_path, env=env)
    assert checked.returncode == 0, (checked.stdout, checked.stderr)
    assert "lineage: parent_missing" in checked.stdout and "Traceback" not in checked.stderr
    as_json = run_citeloop("replay", fork, "--check", "--json", cwd=tmp_path, env=env)
    assert json.loads(as_json.stdout)["lineage"] == "parent_missing"
