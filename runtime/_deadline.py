"""A deadline around one awaited call (a policy's reply, a tool's result) at a per-step price.

An anyio `CancelScope` with a deadline costs about 50,000 instructions on asyncio (the scope's
task bookkeeping, `anyio.current_time()`, the timer), five times per standard run: about 5%
of a whole run on the memory store (docs/performance.md). On asyncio the same deadline is
`asyncio.timeout`, which anyio's own cancel scopes cooperate with (both count their
`Task.cancel` calls and `uncancel` them, so an outer cancellation is never taken for the
timeout, nor the timeout for an outer cancellation). On trio it stays an anyio scope.

A call that returns without ever suspending cannot be interrupted by any deadline (neither
asyncio nor trio preempts running code), so the call's first step is taken before a timer
is set: a coroutine that finishes in it (a scripted policy, an in-process tool) pays for no
timer at all (docs/performance.md). One that suspends is resumed under a deadline counted
from before its first step, as before. asyncio only: on trio a call's first step may enter
a cancel scope of its own, and trio's scopes must nest, so there the scope comes first.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Coroutine, Generator
from types import CoroutineType
from typing import Any, TypeVar

import anyio
import sniffio

_T = TypeVar("_T")
_S = TypeVar("_S")


async def within(seconds: float, call: Awaitable[_T], timed_out: _S) -> _T | _S:
    """`await call`, or `timed_out` when it did not finish within `seconds`.

    An exception of the call propagates as it is (a `TimeoutError` of its own too).
    """
    if sniffio.current_async_library() != "asyncio":
        # On trio: a call's first step may enter a cancel scope of its own (trio.sleep
        # does), and trio's scopes must nest; there the scope comes first, as it always did.
        with anyio.CancelScope(deadline=anyio.current_time() + seconds):
            return await call
        return timed_out
    # The deadline counts from here, before the call's first step (as a timer set first would).
    deadline = asyncio.get_running_loop().time() + seconds
    rest: Awaitable[_T] = call
    if type(call) is CoroutineType:
        coroutine: Coroutine[Any, Any, _T] = call
        try:
            first = coroutine.send(None)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]  # finished without suspending: no timer
        rest = _Resumed(coroutine, first)
    timeout = asyncio.timeout_at(deadline)
    try:
        async with timeout:
            return await rest
    except TimeoutError:
        if timeout.expired():
            return timed_out
        raise


class _Resumed:
    """A coroutine already past its first step, awaited from where it suspended.

    What it yields goes to the event loop and what the loop sends or throws goes back to
    it, as `await` itself delegates (PEP 380), starting from the value it first yielded.
    """

    __slots__ = ("_coroutine", "_first")

    def __init__(self, coroutine: Coroutine[Any, Any, Any], first: Any) -> None:
        self._coroutine = coroutine
        self._first = first

    def __await__(self) -> Generator[Any, Any, Any]:
        coroutine, value = self._coroutine, self._first
        self._first = None
        while True:
            try:
                sent = yield value
            except GeneratorExit:
                coroutine.close()
                raise
            except BaseException as exc:  # a cancellation thrown in by the loop: the call's to handle
                try:
                    value = coroutine.throw(exc)
                except StopIteration as done:
                    return done.value
            else:
                try:
                    value = coroutine.send(sent)
                except StopIteration as done:
                    return done.value
