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
