"""The PostgreSQL store and queue: the shared conformance suite (log and queue tiers), plus what only
PostgreSQL has.

psycopg's async API is asyncio-only, so these tests run on asyncio only (the module
overrides the `anyio_backend` fixture); one test checks that trio gets a clear UsageError.
Each test gets its own schema (tests/helpers/postgres.py), dropped afterwards.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import orjson
import psycopg
import pytest
from citeloop.events import (
    ConcurrencyError,
    RunStarted,
    StoredEvent,
    StoreUnavailableError,
    StoreURLError,
    UsageError,
    encode_event,
    open_queue,
    open_store,
)
from citeloop.events._postgres import PostgresStore
from citeloop.events.testing import (
    Check,
    QueueCheck,
    QueueHarness,
    StoreHarness,
    conformance_checks,
    make_run_started,
    make_step,
    queue_checks,
)
from helpers.postgres import postgres_url as postgres_url
from helpers.postgres import server_url
from psycopg import sql

pytestmark = pytest.mark.postgres


@pytest.fixture
def anyio_backend() -> str:
    # psycopg's async API is asyncio-only (see the module docstring).
    return "asyncio"


@pytest.fixture
def harness(postgres_url: str) -> StoreHarness:
    return StoreHarness(lambda: open_store(postgres_url))


@pytest.mark.anyio
@pytest.mark.parametrize("check", conformance_checks(), ids=lambda c: c.__name__.removeprefix("check_"))
async def test_store_conforms(harness: StoreHarness, check: Check) -> None:
    await check(harness)


@pytest.mark.anyio
@pytest.mark.parametrize("check", queue_checks(), ids=lambda c: c.__name__.removeprefix("check_"))
async def test_queue_conforms(postgres_url: str, check: QueueCheck) -> None:
    await check(QueueHarness(lambda: open_store(postgres_url)))  # a fresh schema per test


# -- what only PostgreSQL has ---------------------------------------------------------


def _store(url: str) -> PostgresStore:
    store = open_store(url)
    assert isinstance(store, PostgresStore)
    return store


def _count_polls(store: PostgresStore) -> Callable[[int], Awaitable[None]]:
    """Hook the store's wait between two reads of a tailer; `await polls(n)` returns after n more."""
    done = 0
    waiters: list[tuple[int, anyio.Event]] = []
    real_wait = store._wait

    async def counted(conn: Any) -> None:
        nonlocal done
        done += 1
        for target, event in waiters:
            if done >= target:
                event.set()
        await real_wait(conn)

    async def polls(n: int) -> None:
        event = anyio.Event()
        waiters.append((done + n, event))
        await event.wait()

    store._wait = counted  # type: ignore[method-assign]
    return polls


def _append_call(schema: str, event: RunStarted) -> tuple[sql.Composed, tuple[object, ...]]:
    """The raw call of the append function for one new run, as the store would make it."""
    query = sql.SQL(
        "SELECT {}.append_batch(%s::text[], %s::bigint[], %s::text[], %s::text[], %s::timestamptz[], "
        "%s::timestamptz[], %s::boolean[], %s::integer[], %s::bigint[], %s::text[], %s::text[], true)"
    ).format(sql.Identifier(schema))
    params = (
        [event.run_id], [0], [orjson.dumps(event.question).decode()], ["running"], [event.at], [event.at],
        [False], [1], [0], [event.type], [encode_event(event).decode()],
    )
    return query, params


@pytest.mark.anyio
async def test_tailer_sees_out_of_order_commits_once_in_position_order(postgres_url: str) -> None:
    """A transaction that took a lower position but commits later is not skipped by subscribe_all."""
    async with _store(postgres_url) as store:
        await store.pool()  # creates the schema
        slow_id, fast_id = f"slow-{uuid.uuid4().hex[:8]}", f"fast-{uuid.uuid4().hex[:8]}"
        got: list[StoredEvent] = []
        seen_two = anyio.Event()
        polls = _count_polls(store)

        async def tail() -> None:
            async for stored in store.subscribe_all():
                got.append(stored)
                if len(got) == 2:
                    seen_two.set()

        async with await psycopg.AsyncConnection.connect(server_url()) as slow:
            # The slow transaction appends (taking the lower position) and stays open.
            await slow.execute(*_append_call(store.schema, make_run_started(slow_id)))
            await store.append(fast_id, [make_run_started(fast_id)], 0)  # commits first
            async with await psycopg.AsyncConnection.connect(server_url(), autocommit=True) as look:
                cursor = await look.execute(
                    sql.SQL("SELECT run_id FROM {}.events").format(sql.Identifier(store.schema))
                )
                # The hazard is real: the higher position is visible before the lower one.
                assert [row[0] for row in await cursor.fetchall()] == [fast_id]
            async with anyio.create_task_group() as tg:
                tg.start_soon(tail)
                with anyio.fail_after(10):
                    await polls(3)  # three full reads found nothing while the slow one is open
                assert got == [], "the tailer passed over a position still in flight"
                await slow.commit()
                with anyio.fail_after(10):
                    await seen_two.wait()
                    await polls(2)  # and two more reads after both were delivered found nothing more
                tg.cancel_scope.cancel()
        assert [s.event.run_id for s in got] == [slow_id, fast_id]
        assert got[0].position < got[1].position


@pytest.mark.anyio
async def test_two_store_objects_race_like_two_processes(postgres_url: str) -> None:
    """Two stores (two pools, as two processes would have) never both win a seq."""
    async with _store(postgres_url) as one, _store(postgres_url) as two:
        run_id = f"race-{uuid.uuid4().hex[:8]}"
        await one.append(run_id, [make_run_started(run_id)], 0)
        wins = {"one": 0, "two": 0}

        async def writer(name: str, store: PostgresStore) -> None:
            while True:
                head = len(await store.read(run_id))
                if head >= 80:
                    return
                try:
                    await store.append(run_id, [make_step(run_id, head, name)], head)
                except ConcurrencyError:
                    continue
                wins[name] += 1

        async with anyio.create_task_group() as tg:
            for _ in range(4):
                tg.start_soon(writer, "one", one)
                tg.start_soon(writer, "two", two)
        log = await two.read(run_id)
        assert [e.seq for e in log] == list(range(80))
        assert wins["one"] + wins["two"] == 79


@pytest.mark.anyio
async def test_tailing_without_notifications_still_delivers(postgres_url: str) -> None:
    """With NOTIFY off, polling alone delivers every event (a lost wake-up only delays)."""
    async with _store(postgres_url + "&notify=off&poll=0.05") as store:
        run_id = f"quiet-{uuid.uuid4().hex[:8]}"
        got: list[int] = []
        all_seen = anyio.Event()
        async with anyio.create_task_group() as tg:

            async def follow() -> None:
                async for event in store.subscribe(run_id):
                    got.append(event.seq)
                    if len(got) == 5:
                        all_seen.set()

            tg.start_soon(follow)
            await store.append(run_id, [make_run_started(run_id)], 0)
            for seq in range(1, 5):
                await store.append(run_id, [make_step(run_id, seq)], seq)
            with anyio.fail_after(10):
                await all_seen.wait()
            tg.cancel_scope.cancel()
        assert got == [0, 1, 2, 3, 4]


@pytest.mark.anyio
async def test_queue_shares_the_stores_pool_and_dies_with_it(postgres_url: str) -> None:
    """The queue works through its store's connections: after the store closes it refuses work."""
    store = _store(postgres_url)
    async with store, open_queue(store) as queue:
        run_id = f"queued-{uuid.uuid4().hex[:8]}"
        await queue.enqueue(make_run_started(run_id))
        assert await queue.queued() == [run_id]
    with pytest.raises(StoreUnavailableError):
        await queue.queued()


def test_url_errors_and_redaction() -> None:
    """A bad URL is a StoreURLError; the password never shows in `url` or in errors."""
    store = PostgresStore.from_url("postgresql://ada:s3cret@127.0.0.1:1/test?schema=x1")
    assert store.url == "postgresql://ada:***@127.0.0.1:1/test?schema=x1"
    with pytest.raises(StoreURLError, match="schema"):
        PostgresStore.from_url("postgresql://127.0.0.1/test?schema=bad-name")
    with pytest.raises(StoreURLError) as info:
        PostgresStore.from_url("postgresql://ada:s3cret@127.0.0.1/test?pool_size=many")
    assert "s3cret" not in str(info.value)


@pytest.mark.anyio
async def test_unreachable_server_is_one_clear_error() -> None:
    """Nothing listens on port 1: StoreUnavailableError with the redacted URL, no driver traceback."""
    store = PostgresStore.from_url("postgresql://ada:s3cret@127.0.0.1:1/test?connect_timeout=2")
    with pytest.raises(StoreUnavailableError) as info:
        await store.read("any")
    message = str(info.value)
    assert "127.0.0.1:1" in message and "s3cret" not in message and "\n" not in message
    await store.aclose()


@pytest.mark.parametrize("anyio_backend", ["trio"])
@pytest.mark.anyio
async def test_trio_gets_a_clear_usage_error() -> None:
    """Under trio the store says it needs asyncio instead of failing inside psycopg."""
    store = PostgresStore.from_url("postgresql://127.0.0.1:1/test")
    with pytest.raises(UsageError, match="asyncio"):
        await store.read("any")
