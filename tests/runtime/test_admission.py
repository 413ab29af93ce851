"""Bounded admission: at most `max_busy_runs` runs compute on the loop at once; waits take no slot.

Fairness is asserted on counts, not on wall-clock time: a side task that only yields sees,
between two of its turns, what every other ready task did in one pass of the loop.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import anyio
import anyio.lowlevel
import pytest
from citeloop.events import Event, MemoryStore, Observation, UsageError
from citeloop.policies import ScriptedPolicy
from citeloop.runtime import Runtime
from citeloop.runtime._admission import Admission, Slot
from helpers.fakes import page_tools

pytestmark = pytest.mark.anyio

QUESTION = "Who founded Acme Robotics?"


class CountingStore(MemoryStore):
    """Counts appends done, and the most appends in flight at once."""

    def __init__(self) -> None:
        super().__init__()
        self.appended = 0
        self.in_flight = 0
        self.most_in_flight = 0

    async def append(self, run_id: str, events: Sequence[Event], expected_seq: int) -> None:
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await anyio.lowlevel.checkpoint()  # an append that waits, as a group commit does
            await super().append(run_id, events, expected_seq)
        finally:
            self.in_flight -= 1
        self.appended += 1


async def many_runs(store: CountingStore, runs: int, **kwargs: object) -> list[int]:
    """Drive `runs` runs at once; return the appends done between each two turns of a bystander."""
    tools, _ = page_tools()
    gaps: list[int] = []
    done = anyio.Event()

    async def bystander() -> None:
        while not done.is_set():
            before = store.appended
            await anyio.lowlevel.checkpoint()
            gaps.append(store.appended - before)

    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo(), **kwargs) as rt:  # type: ignore[arg-type]

        async def one(i: int) -> None:
            await rt.run(QUESTION, run_id=f"run-{i}")

        async with anyio.create_task_group() as outer:
            outer.start_soon(bystander)
            async with anyio.create_task_group() as group:
                for i in range(runs):
                    group.start_soon(one, i)
            done.set()
    return gaps


async def test_a_loop_pass_is_bounded_by_the_busy_runs_not_by_the_runs() -> None:
    store = CountingStore()
    gaps = await many_runs(store, 120, max_busy_runs=4)
    assert store.appended >= 120 * 4  # every run ran to its end (4+ appends each)
    assert store.most_in_flight <= 4
    # Unbounded, one pass held an append of nearly every run (≈ 120): a timer waited for all.
    assert max(gaps) <= 8


async def test_unbounded_a_pass_holds_every_run() -> None:
    # The contrast that makes the bound above mean something (the default before admission).
    store = CountingStore()
    gaps = await many_runs(store, 120, max_busy_runs=10_000)
    # Most of the 120 runs append in one pass (not all: on trio a few may land in the next
    # one), against at most 8 with 4 slots above.
    assert max(gaps) >= 60


async def test_waiting_on_a_tool_takes_no_slot() -> None:
    # One slot, and a search that returns only once two searches are in flight at once: if a
    # run kept its slot while it waited on the tool, the second run could never dispatch.
    tools, _ = page_tools()
    search = tools[0]
    arrived = 0
    both = anyio.Event()

    class Rendezvous:
        name = "search"
        read_only = True

        async def __call__(self, argument: str) -> Observation:
            nonlocal arrived
            arrived += 1
            if arrived == 2:
                both.set()
            await both.wait()
            return await search(argument)

    store = CountingStore()
    with anyio.fail_after(20):
        async with (
            Runtime(
                store=store, tools=[Rendezvous(), tools[1]], policy=ScriptedPolicy.demo(), max_busy_runs=1
            ) as rt,
            anyio.create_task_group() as group,
        ):
            for i in range(2):
                group.start_soon(functools.partial(rt.run, QUESTION, run_id=f"run-{i}"))
    assert both.is_set()
    for i in range(2):
        assert (await store.read(f"run-{i}"))[-1].type == "Answered"


async def test_a_cancelled_waiter_passes_its_turn_on() -> None:
    # Runs cancelled while queued for a slot must not take the slot with them.
    tools, _ = page_tools()
    store = CountingStore()
    async with Runtime(store=store, tools=tools, policy=ScriptedPolicy.demo(), max_busy_runs=1) as rt:
        async with anyio.create_task_group() as group:
            for i in range(5):
                group.start_soon(functools.partial(rt.run, QUESTION, run_id=f"gone-{i}"))
            await anyio.lowlevel.checkpoint()
            group.cancel_scope.cancel()
        outcome = await rt.run(QUESTION, run_id="after")
    assert outcome.run_id == "after"
    assert (await store.read("after"))[-1].type == "Answered"


async def test_max_busy_runs_must_be_positive() -> None:
    tools, _ = page_tools()
    with pytest.raises(UsageError, match="max_busy_runs"):
        Runtime(store=MemoryStore(), tools=tools, policy=ScriptedPolicy.demo(), max_busy_runs=0)


async def test_a_run_back_from_a_wait_goes_before_a_run_not_yet_started() -> None:
    admission = Admission(1)
    order: list[str] = []
    release = anyio.Event()
    first, never_started, started_later = Slot(admission), Slot(admission), Slot(admission)
    await first.take()

    async def take(name: str, slot: Slot, hold: bool = False) -> None:
        await slot.take()
        order.append(name)
        if hold:
            await release.wait()
        slot.give()

    async with anyio.create_task_group() as group:
        group.start_soon(take, "never-started", never_started, True)
        await anyio.wait_all_tasks_blocked()  # queued as a starter
        first.give()  # the slot goes to it, as a wait on a policy would give it up
        await anyio.wait_all_tasks_blocked()
        group.start_soon(take, "started-later", started_later)
        group.start_soon(take, "first, back", first)  # held once: queues as a resumer
        await anyio.wait_all_tasks_blocked()
        release.set()
    # The starter queued earlier, but the run coming back took the slot first.
    assert order == ["never-started", "first, back", "started-later"]


class InFlightStore(CountingStore):
    """Also counts the runs started but not ended: what is alive at once."""

    def __init__(self) -> None:
        super().__init__()
        self.alive = 0
        self.most_alive = 0

    async def append(self, run_id: str, events: Sequence[Event], expected_seq: int) -> None:
        await super().append(run_id, events, expected_seq)
        for event in events:
            if event.type == "RunStarted":
                self.alive += 1
            elif event.type in ("Answered", "Abstained"):
                self.alive -= 1
        self.most_alive = max(self.most_alive, self.alive)


async def test_runs_in_flight_stay_near_the_limit_not_near_the_runs() -> None:
    # One FIFO queue started every one of the 120 runs before any could finish (each gives
    # its slot up on every policy call and queued behind all the unstarted ones): 120 folded
    # states alive at once. Resumers first keeps it near the 4 slots.
    store = InFlightStore()
    await many_runs(store, 120, max_busy_runs=4)
    assert store.alive == 0
    assert store.most_alive <= 12
