"""The log tier of the store conformance suite: appends, reads, concurrency, round trips, lifetime."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from contextlib import suppress
from datetime import timedelta

import anyio
import anyio.lowlevel

from ._conformance_kit import (
    _GUARD_SECONDS,
    EPOCH,
    TRICKY_TEXT,
    StoreHarness,
    _abstained,
    _answered,
    _expect_failure,
    _run_id,
    _start,
    make_run_started,
    make_step,
)
from ._errors import ConcurrencyError, RunClosedError, StoreUnavailableError, UsageError
from ._events import ActionParsed, Event, Forked, ToolObserved
from ._observations import Page
from ._store import EventStore


async def check_append_then_read_in_order(harness: StoreHarness) -> None:
    """Batches read back in order, equal to what was appended; `after` skips a prefix."""
    async with harness.open() as store:
        run_id = _run_id("order")
        events = await _start(store, run_id, steps=2)
        more = [make_step(run_id, s) for s in range(3, 6)]
        await store.append(run_id, more[:1], 3)
        await store.append(run_id, more[1:], 4)
        assert await store.read(run_id) == events + more
        assert await store.read(run_id, after=2) == more
        assert await store.read(run_id, after=5) == []
        assert await store.read(_run_id("missing")) == []


async def check_stale_append_writes_nothing(harness: StoreHarness) -> None:
    """A stale or too-new `expected_seq` raises ConcurrencyError and writes no part of the batch."""
    async with harness.open() as store:
        run_id = _run_id("stale")
        events = await _start(store, run_id, steps=2)
        for expected in (1, 2, 4):
            batch = [make_step(run_id, expected + i, "loser") for i in range(3)]
            exc = await _expect_failure(
                ConcurrencyError, store.append(run_id, batch, expected), f"append at {expected}"
            )
            assert isinstance(exc, ConcurrencyError) and exc.actual_seq == 3, exc
        await _expect_failure(
            ConcurrencyError, store.append(run_id, [make_run_started(run_id)], 0), "second RunStarted"
        )
        assert await store.read(run_id) == events


async def check_malformed_batches_are_usage_errors(harness: StoreHarness) -> None:
    """An empty batch, a foreign run id, a seq gap, or a run not opened by RunStarted is misuse."""
    async with harness.open() as store:
        run_id = _run_id("usage")
        other = _run_id("other")
        cases: list[tuple[str, list[Event], int]] = [
            ("empty", [], 0),
            ("wrong run", [make_run_started(other)], 0),
            ("no RunStarted", [make_step(run_id, 0)], 0),
            ("gap", [make_run_started(run_id), make_step(run_id, 2)], 0),
            ("offset", [make_run_started(run_id)], 1),
            ("terminal not last", [make_run_started(run_id), _abstained(run_id, 1), make_step(run_id, 2)], 0),
        ]
        for what, batch, expected in cases:
            await _expect_failure(UsageError, store.append(run_id, batch, expected), what)
        assert await store.read(run_id) == []
        await _start(store, run_id)
        assert len(await store.read(run_id)) == 1


async def check_one_writer_wins_each_seq(harness: StoreHarness) -> None:
    """Many writers race for each seq of one run: exactly one wins, the rest get ConcurrencyError."""
    writers, rounds = 16, 12
    async with harness.open() as store:
        run_id = _run_id("race")
        await _start(store, run_id)
        winners: dict[int, list[int]] = {}
        conflicts = 0

        async def attempt(writer: int, seq: int) -> None:
            nonlocal conflicts
            try:
                await store.append(run_id, [make_step(run_id, seq, f"writer {writer}")], seq)
            except ConcurrencyError:
                conflicts += 1
            else:
                winners.setdefault(seq, []).append(writer)

        with anyio.fail_after(_GUARD_SECONDS):
            for seq in range(1, rounds + 1):  # every writer aims at the same seq at once
                async with anyio.create_task_group() as tg:
                    for writer in range(writers):
                        tg.start_soon(attempt, writer, seq)
                assert len(winners.get(seq, ())) == 1, f"seq {seq} won by {winners.get(seq)}"
        assert conflicts == rounds * (writers - 1), conflicts
        log = await store.read(run_id)
        assert [e.seq for e in log] == list(range(rounds + 1))
        for event in log[1:]:
            assert isinstance(event, ActionParsed)
            assert event.thought == f"writer {winners[event.seq][0]}"

        # Free-running: each writer reads the head and appends; the log stays gapless.
        target = rounds + 1 + 60

        async def free(writer: int) -> None:
            while True:
                head = len(await store.read(run_id))
                if head >= target:
                    return
                with suppress(ConcurrencyError):  # losing a race is expected here
                    await store.append(run_id, [make_step(run_id, head, f"free {writer}")], head)

        with anyio.fail_after(_GUARD_SECONDS):
            async with anyio.create_task_group() as tg:
                for writer in range(writers):
                    tg.start_soon(free, writer)
        assert [e.seq for e in await store.read(run_id)] == list(range(target))


async def check_concurrent_runs(harness: StoreHarness) -> None:
    """Appends to many runs at once land complete and in order in each run."""
    n_runs, batches = 40, 8
    async with harness.open() as store:
        run_ids = [_run_id(f"many{i}") for i in range(n_runs)]

        async def write(run_id: str) -> None:
            await _start(store, run_id)
            for b in range(batches):
                seq = 1 + 2 * b
                await store.append(run_id, [make_step(run_id, seq), make_step(run_id, seq + 1)], seq)

        with anyio.fail_after(_GUARD_SECONDS):
            async with anyio.create_task_group() as tg:
                for run_id in run_ids:
                    tg.start_soon(write, run_id)
        for run_id in run_ids:
            log = await store.read(run_id)
            assert [e.seq for e in log] == list(range(1 + 2 * batches)), run_id
            assert all(e.run_id == run_id for e in log)
        listed = {s.run_id: s for s in await store.runs()}
        for run_id in run_ids:
            assert listed[run_id].events == 1 + 2 * batches
            assert listed[run_id].status == "running"


def _page_event(run_id: str, seq: int, body: str) -> ToolObserved:
    digest = hashlib.sha256(body.encode()).hexdigest()
    page = Page(url=f"https://example.test/{TRICKY_TEXT}", title=TRICKY_TEXT, body=body, sha256=digest)
    return ToolObserved(
        run_id=run_id,
        seq=seq,
        at=EPOCH,
        step=1,
        call_id="c1",
        tool="open",
        input=page.url,
        observation=page,
    )


async def _round_trip(harness: StoreHarness, tag: str, body: str) -> None:
    run_id = _run_id(tag) + TRICKY_TEXT.replace("\x00", "")[:8]
    events: list[Event] = [make_run_started(run_id, question=TRICKY_TEXT), _page_event(run_id, 1, body)]
    async with harness.open() as store:
        await store.append(run_id, events, 0)
        back = await store.read(run_id)
        assert back == events
        page = back[1]
        assert isinstance(page, ToolObserved) and isinstance(page.observation, Page)
        assert page.observation.body == body
        summary = [s for s in await store.runs() if s.run_id == run_id]
        assert summary and summary[0].question == TRICKY_TEXT
    if harness.persistent:
        async with harness.open() as store:
            assert await store.read(run_id) == events


async def check_unicode_round_trips(harness: StoreHarness) -> None:
    """Astral characters, NUL, RTL, combining marks and line separators round-trip exactly."""
    await _round_trip(harness, "unicode", TRICKY_TEXT * 50)


async def check_large_page_round_trips(harness: StoreHarness) -> None:
    """A 5 MB page body round-trips exactly (and reopens, for a persistent store)."""
    unit = "Acme Robotics was founded by Ada Ortiz in 2014 in Lisbon. 😀 \x00 שלום\n"
    body = (unit * (5_000_000 // len(unit.encode()) + 1))[:5_000_000]
    await _round_trip(harness, "large", body)


async def check_runs_lists_status(harness: StoreHarness) -> None:
    """`runs()` lists each run once, oldest first, with its question, status and event count."""
    async with harness.open() as store:
        running, answered, abstained = (_run_id(t) for t in ("running", "answered", "abstained"))
        for run_id in (running, answered, abstained):
            await _start(store, run_id, steps=1)
        await store.append(answered, [_answered(answered, 2)], 2)
        await store.append(abstained, [_abstained(abstained, 2)], 2)
        summaries = [s for s in await store.runs() if s.run_id in (running, answered, abstained)]
        assert [s.run_id for s in summaries] == [running, answered, abstained]
        assert [s.status for s in summaries] == ["running", "answered", "abstained"]
        assert [s.events for s in summaries] == [2, 3, 3]
        assert all(s.question == "Who founded Acme Robotics?" for s in summaries)
        assert summaries[0].started_at == EPOCH
        assert summaries[1].updated_at == EPOCH + timedelta(seconds=2)


async def check_forked_run_is_listed_with_its_question(harness: StoreHarness) -> None:
    """A forked run opens with `Forked`, then `RunStarted`: stored, read, and listed with that question.

    A batch that opens a run with `Forked` not followed by `RunStarted` is misuse.
    """
    async with harness.open() as store:
        run_id = _run_id("forked")
        forked = Forked(
            run_id=run_id,
            seq=0,
            at=EPOCH,
            parent_run_id=_run_id("parent"),
            at_step=1,
            parent_seq=3,
            parent_head="0" * 64,
            policy="conformance",
        )
        lone = store.append(run_id, [forked, make_step(run_id, 1)], 0)
        await _expect_failure(UsageError, lone, "Forked without RunStarted")
        started = make_run_started(run_id).model_copy(update={"seq": 1})
        events: list[Event] = [forked, started, make_step(run_id, 2)]
        await store.append(run_id, events, 0)
        assert await store.read(run_id) == events
        (summary,) = [s for s in await store.runs() if s.run_id == run_id]
        assert (summary.question, summary.status, summary.events) == (started.question, "running", 3)
        assert summary.started_at == EPOCH


async def check_cancelled_appends_land_whole_or_not_at_all(harness: StoreHarness) -> None:
    """Appends cancelled mid-flight write all of their batch or none of it, and nothing stalls."""
    async with harness.open() as store:
        run_ids = [_run_id(f"cancel{i}") for i in range(30)]
        for delay in range(4):  # cancel after 0..3 scheduling rounds
            async with anyio.create_task_group() as tg:
                for run_id in run_ids:
                    tg.start_soon(_append_started, store, run_id)
                for _ in range(delay):
                    await anyio.lowlevel.checkpoint()
                tg.cancel_scope.cancel()
            for run_id in run_ids:
                assert len(await store.read(run_id)) in (0, 3), run_id
        with anyio.fail_after(_GUARD_SECONDS):  # the store still takes appends
            for run_id in run_ids:
                head = len(await store.read(run_id))
                if head == 0:
                    await _start(store, run_id, steps=2)
                await store.append(run_id, [make_step(run_id, 3)], 3)
                assert len(await store.read(run_id)) == 4


async def _append_started(store: EventStore, run_id: str) -> None:
    with suppress(ConcurrencyError):  # an earlier, cancelled round may have written it
        await _start(store, run_id, steps=2)


async def check_ended_run_refuses_appends(harness: StoreHarness) -> None:
    """A run whose terminal event is stored refuses every append with RunClosedError, writing nothing."""
    async with harness.open() as store:
        answered, abstained, raced = (_run_id(t) for t in ("ended-a", "ended-b", "ended-race"))
        await _start(store, answered, steps=1)
        await store.append(answered, [_answered(answered, 2)], 2)
        await _start(store, abstained)
        await store.append(abstained, [_abstained(abstained, 1)], 1)
        for run_id, head in ((answered, 3), (abstained, 2)):
            for batch in ([make_step(run_id, head)], [_abstained(run_id, head)]):
                await _expect_failure(
                    RunClosedError, store.append(run_id, batch, head), f"append to {run_id}"
                )
        # A terminal event and an append behind it committed together: the second is refused.
        await _start(store, raced)
        with anyio.fail_after(_GUARD_SECONDS):
            outcomes: list[BaseException | None] = []

            async def attempt(batch: Sequence[Event], expected: int) -> None:
                try:
                    await store.append(raced, batch, expected)
                except RunClosedError as exc:
                    outcomes.append(exc)
                else:
                    outcomes.append(None)

            async with anyio.create_task_group() as tg:
                tg.start_soon(attempt, [_abstained(raced, 1)], 1)
                await anyio.lowlevel.checkpoint()
                tg.start_soon(attempt, [make_step(raced, 2)], 2)
        assert outcomes[0] is None and isinstance(outcomes[1], RunClosedError), outcomes
        assert [e.seq for e in await store.read(answered)] == [0, 1, 2]
        assert [e.seq for e in await store.read(abstained)] == [0, 1]
        assert [e.seq for e in await store.read(raced)] == [0, 1]
    if harness.persistent:  # the refusal survives a reopen
        async with harness.open() as store:
            await _expect_failure(
                RunClosedError, store.append(answered, [make_step(answered, 3)], 3), "append after reopen"
            )
            assert len(await store.read(answered)) == 3


async def check_closed_store_refuses_work(harness: StoreHarness) -> None:
    """After `aclose()` an append fails with StoreUnavailableError; closing twice is harmless."""
    store = harness.open()
    await store.aclose()
    await store.aclose()
    run_id = _run_id("closed")
    await _expect_failure(
        StoreUnavailableError, store.append(run_id, [make_run_started(run_id)], 0), "append after close"
    )


async def check_reopen_after_close(harness: StoreHarness) -> None:
    """A reopened store has every event, status and seq check of the closed one, and appends on."""
    run_id, done_id = _run_id("reopen"), _run_id("reopen-done")
    async with harness.open() as store:
        events = await _start(store, run_id, steps=3)
        await _start(store, done_id)
        await store.append(done_id, [_abstained(done_id, 1)], 1)
    async with harness.open() as store:
        assert await store.read(run_id) == events
        await _expect_failure(
            ConcurrencyError, store.append(run_id, [make_step(run_id, 2)], 2), "stale append after reopen"
        )
        more = make_step(run_id, 4, "after reopen")
        await store.append(run_id, [more], 4)
        statuses = {s.run_id: s.status for s in await store.runs()}
        assert statuses[run_id] == "running" and statuses[done_id] == "abstained"
    async with harness.open() as store:
        assert await store.read(run_id) == [*events, more]
