"""`within`: the deadline around a policy's or a tool's call, on asyncio and trio alike."""

from __future__ import annotations

import anyio
import pytest
from citeloop.runtime._deadline import within

pytestmark = pytest.mark.anyio

LATE = object()


async def _value(delay: float, value: str = "done") -> str:
    await anyio.sleep(delay)
    return value


async def test_a_call_within_its_deadline_returns_its_value() -> None:
    assert await within(5, _value(0), LATE) == "done"


async def test_a_call_past_its_deadline_is_timed_out() -> None:
    assert await within(0.01, _value(5), LATE) is LATE


async def test_an_outer_cancellation_is_not_taken_for_the_timeout() -> None:
    reached = []
    with anyio.move_on_after(0.01) as outer:
        await within(5, _value(5), LATE)
        reached.append("after")  # never: the cancellation goes on out of `within`
    assert outer.cancelled_caught and reached == []


async def test_an_outer_cancellation_and_the_timeout_at_once_cancel() -> None:
    reached = []
    with anyio.CancelScope() as outer:
        outer.cancel()
        result = await within(0, _value(5), LATE)
        reached.append(result)
    assert reached == []


async def test_the_calls_own_timeout_error_propagates() -> None:
    async def raises() -> str:
        raise TimeoutError("the tool's own")

    with pytest.raises(TimeoutError, match="the tool's own"):
        await within(5, raises(), LATE)


async def test_a_call_that_never_suspends_returns_its_value_even_past_its_deadline() -> None:
    async def at_once() -> str:
        return "done"

    assert await within(0, at_once(), LATE) == "done"


async def test_a_first_step_that_raises_propagates_as_it_is() -> None:
    async def fails() -> str:
        raise ValueError("the tool's bug")

    with pytest.raises(ValueError, match="the tool's bug"):
        await within(5, fails(), LATE)


async def test_the_deadline_counts_from_before_the_first_step() -> None:
    async def busy_then_waits() -> str:
        anyio_time = anyio.current_time()
        while anyio.current_time() - anyio_time < 0.05:  # the first step outlasts the deadline
            pass
        await anyio.sleep(5)
        return "done"

    assert await within(0.02, busy_then_waits(), LATE) is LATE


async def test_a_call_with_a_cancel_scope_of_its_own_is_timed_out() -> None:
    async def scoped() -> str:
        with anyio.CancelScope():
            await anyio.sleep(5)
        return "done"

    assert await within(0.01, scoped(), LATE) is LATE


async def test_a_call_resumed_after_several_suspensions_returns_its_value() -> None:
    async def steps() -> str:
        for _ in range(3):
            await anyio.lowlevel.checkpoint()
        async with anyio.create_task_group() as group:
            group.start_soon(anyio.sleep, 0.001)
        return "done"

    assert await within(5, steps(), LATE) == "done"


@pytest.mark.parametrize("anyio_backend", ["asyncio"])
async def test_on_asyncio_a_call_that_never_suspends_sets_no_timer() -> None:
    # asyncio only: the shortcut is asyncio's (runtime/_deadline.py).
    import asyncio

    loop = asyncio.get_running_loop()

    async def at_once() -> str:
        return "done"

    before = len(loop._scheduled)  # type: ignore[attr-defined]
    assert await within(5, at_once(), LATE) == "done"
    assert len(loop._scheduled) == before  # type: ignore[attr-defined]
