"""Driving a run from the command line until it ends or Ctrl-C (SIGINT, SIGTERM) stops it.

The signal cancels the run's task; the runtime records the cancellation as
`Abstained(cancelled)` before the cancellation propagates (docs/architecture.md), and the
command then says which run stopped and how to go on with it (`Interrupted`).
"""

from __future__ import annotations

import signal
from collections.abc import Awaitable, Callable
from typing import TypeVar

import anyio
from citeloop.events import EventStore
from citeloop.runtime import fold

from ._errors import Interrupted

T = TypeVar("T")


async def until_interrupted(work: Callable[[], Awaitable[T]], store: EventStore, run_id: str) -> T:
    """`await work()`, or `Interrupted(run_id)` once a signal has cancelled it."""
    done: list[T] = []
    async with anyio.create_task_group() as group:

        async def cancel_on_signal() -> None:
            with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                async for _ in signals:
                    group.cancel_scope.cancel()
                    return

        group.start_soon(cancel_on_signal)
        done.append(await work())
        group.cancel_scope.cancel()
    if done:
        return done[0]
    with anyio.CancelScope(shield=True):
        events = await store.read(run_id)
    raise Interrupted(run_id, recorded=bool(events) and fold(events).status == "cancelled")
