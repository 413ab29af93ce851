"""Bounded admission: at most N runs work on the event loop at once (docs/benchmarks.md, B8).

An event loop runs, in one pass, every task that is ready; a timer (a tool's timeout,
another library's heartbeat) fires only between passes. Ten thousand runs that are all
ready make one pass ten thousand steps long: seconds. So a run holds a slot while it
computes and appends, and gives it back while it waits on its policy or a tool (that
wait is where latency hiding happens, so it is not bounded). A run that finds no slot
free queues in FIFO order; a slot given back goes straight to the first in the queue.
Taking a free slot costs no suspension, so a lone run pays nothing.
"""

from __future__ import annotations

from collections import deque

import anyio


class Admission:
    """`limit` slots shared by the runs of one `Runtime`."""

    def __init__(self, limit: int) -> None:
        self._free = limit
        self._waiting: deque[anyio.Event] = deque()

    async def take(self) -> None:
        if self._free > 0 and not self._waiting:
            self._free -= 1
            return
        turn = anyio.Event()
        self._waiting.append(turn)
        try:
            await turn.wait()
        except BaseException:
            if turn.is_set():
                self.give()  # handed a slot it will not use: pass it on
            else:
                self._waiting.remove(turn)
            raise

    def give(self) -> None:
        if self._waiting:
            self._waiting.popleft().set()  # the slot moves to the first waiter as it is
        else:
            self._free += 1


class Slot:
    """One run's hold on an `Admission` slot: `take` it to drive, `give` it back when done."""

    __slots__ = ("_admission", "_holding")

    def __init__(self, admission: Admission) -> None:
        self._admission = admission
        self._holding = False

    async def take(self) -> None:
        if not self._holding:
            await self._admission.take()
            self._holding = True

    def give(self) -> None:
        if self._holding:
            self._holding = False
            self._admission.give()

    def away(self) -> _Away:
        """`async with slot.away():` gives the slot up while the block waits (on a policy
        or a tool), then queues for one.

        A cancellation leaves without a slot (the run is ending); an ordinary exception
        takes one back first, since the run goes on to record it.
        """
        return _Away(self)


class _Away:
    # A plain class, not @asynccontextmanager: it is on every step's path (B1).
    __slots__ = ("_gave", "_slot")

    def __init__(self, slot: Slot) -> None:
        self._slot = slot
        self._gave = False

    async def __aenter__(self) -> None:
        self._gave = self._slot._holding  # a driver outside `take` (a bare `start`) has none
        self._slot.give()

    async def __aexit__(self, exc_type: type[BaseException] | None, *_: object) -> None:
        if self._gave and (exc_type is None or issubclass(exc_type, Exception)):
            await self._slot.take()
