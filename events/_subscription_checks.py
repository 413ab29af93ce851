"""The subscription tier of the store conformance suite: `subscribe` and `subscribe_all`."""

from __future__ import annotations

import anyio
import anyio.lowlevel

from ._conformance_kit import (
    _GUARD_SECONDS,
    StoreHarness,
    _answered,
    _closing,
    _run_id,
    _start,
    make_step,
)
from ._events import Event
from ._store import StoredEvent


async def check_subscribe_stored_then_live(harness: StoreHarness) -> None:
    """Subscribers started at any moment see the whole run once, and stop after the terminal event."""
    total = 120
    async with harness.open() as store:
        run_id = _run_id("sub")
        written = await _start(store, run_id, steps=4)
        seen: list[list[Event]] = []

        async def subscriber(after: int) -> None:
            got = [e async for e in store.subscribe(run_id, after)]
            seen.append(got)
            assert [e.seq for e in got] == list(range(after + 1, total)), [e.seq for e in got][:10]

        with anyio.fail_after(_GUARD_SECONDS):
            async with anyio.create_task_group() as tg:
                tg.start_soon(subscriber, -1)
                for seq in range(len(written), total - 1):
                    if seq % 20 == 0:  # subscribers joining mid-stream, from the start and from a seq
                        tg.start_soon(subscriber, -1)
                        tg.start_soon(subscriber, seq - 3)
                    event = make_step(run_id, seq)
                    await store.append(run_id, [event], seq)
                    written.append(event)
                    if seq % 3 == 0:
                        await anyio.lowlevel.checkpoint()
                terminal = _answered(run_id, total - 1)
                await store.append(run_id, [terminal], total - 1)
                written.append(terminal)
        for got in seen:
            assert got == written[len(written) - len(got) :]
        # A subscription to a finished run replays it and ends.
        with anyio.fail_after(_GUARD_SECONDS):
            assert [e async for e in store.subscribe(run_id)] == written


async def check_subscribe_all_loses_and_duplicates_nothing(harness: StoreHarness) -> None:
    """`subscribe_all` yields every appended event once, in increasing position, across stored and live."""
    n_runs, per_run = 8, 15
    async with harness.open() as store:
        run_ids = [_run_id(f"all{i}") for i in range(n_runs)]
        for run_id in run_ids[:2]:  # some history before the subscription starts
            await _start(store, run_id, steps=2)
        mine = set(run_ids)
        expected_total = n_runs * per_run
        got: list[StoredEvent] = []
        done = anyio.Event()

        async def tail() -> None:
            async with _closing(store.subscribe_all()) as stream:
                async for stored in stream:
                    if stored.event.run_id in mine:
                        got.append(stored)
                        if len(got) == expected_total:
                            done.set()
                            return

        async def write(run_id: str) -> None:
            head = len(await store.read(run_id))
            if head == 0:
                await _start(store, run_id)
                head = 1
            for seq in range(head, per_run):
                await store.append(run_id, [make_step(run_id, seq)], seq)
                await anyio.lowlevel.checkpoint()

        with anyio.fail_after(_GUARD_SECONDS):
            async with anyio.create_task_group() as tg:
                tg.start_soon(tail)
                async with anyio.create_task_group() as writers:
                    for run_id in run_ids:
                        writers.start_soon(write, run_id)
                await done.wait()
        positions = [s.position for s in got]
        assert positions == sorted(set(positions)), "positions repeat or go backwards"
        for run_id in run_ids:
            assert [s.event for s in got if s.event.run_id == run_id] == await store.read(run_id)
        # Resuming after a position yields exactly what followed it.
        middle = got[len(got) // 2].position
        resumed: list[StoredEvent] = []
        with anyio.fail_after(_GUARD_SECONDS):
            async with _closing(store.subscribe_all(middle)) as stream:
                async for stored in stream:
                    if stored.event.run_id in mine:
                        resumed.append(stored)
                        if len(resumed) == len(got) - len(got) // 2 - 1:
                            break
        assert resumed == got[len(got) // 2 + 1 :]


async def check_head_position_follows_only_newer_events(harness: StoreHarness) -> None:
    """`subscribe_all(head_position())` yields what is appended after the call, and nothing before."""
    async with harness.open() as store:
        before = _run_id("headold")
        await _start(store, before, steps=2)
        head = await store.head_position()
        with anyio.fail_after(_GUARD_SECONDS):
            async with _closing(store.subscribe_all()) as stream:
                async for stored in stream:  # the newest stored event is at the head
                    if stored.position == head:
                        assert stored.event == (await store.read(before))[-1]
                        break
        after = _run_id("headnew")
        await _start(store, after, steps=1)
        with anyio.fail_after(_GUARD_SECONDS):
            async with _closing(store.subscribe_all(head)) as stream:
                first = await anext(aiter(stream))
        assert first.event.run_id == after and first.event.seq == 0 and first.position > head
        assert await store.head_position() >= first.position
