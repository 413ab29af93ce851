"""A deadline around one awaited call (a policy's reply, a tool's result) at a per-step price.

An anyio `CancelScope` with a deadline costs about 50,000 instructions on asyncio (the scope's
task bookkeeping, `anyio.current_time()`, the timer), five times per standard run: about 5%
of a whole run on the memory store (docs/performance.md). On asyncio the same deadline is
`asyncio.timeout`, which anyio's own cancel scopes cooperate with (both count their
`Task.cancel` calls and `uncancel` them, so an outer cancellation is never taken for the
timeout, nor the timeout for an outer cancellation). On trio it stays an anyio scope.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

import anyio
import sniffio

_T = TypeVar("_T")
_S = TypeVar("_S")


async def within(seconds: float, call: Awaitable[_T], timed_out: _S) -> _T | _S:
    """`await call`, or `timed_out` when it did not finish within `seconds`.

    An exception of the call propagates as it is (a `TimeoutError` of its own too).
    """
    if sniffio.current_async_library() == "asyncio":
        timeout = asyncio.timeout(seconds)
        try:
            async with timeout:
                return await call
        except TimeoutError:
            if timeout.expired():
                return timed_out
            raise
    with anyio.CancelScope(deadline=anyio.current_time() + seconds):
        return await call
    return timed_out
