"""Bounded admission: at most N runs work on the event loop at once (docs/benchmarks.md, B8).

An event loop runs, in one pass, every task that is ready; a timer (a tool's timeout,
another library's heartbeat) fires only between passes. Ten thousand runs that are all
ready make one pass ten thousand steps long: seconds. So a run holds a slot while it
computes and appends, and gives it back while it waits on its policy or a tool (that
wait is where latency hiding happens, so it is not bounded). A run that finds no slot
free queues; a slot given back goes straight to the first in the queue. Taking a free
slot costs no suspension, so a lone run pays nothing.

Two queues, not one: a run coming back from a wait goes before a run that has not
started. With one FIFO queue, a run that gives its slot up behind 9,800 unstarted runs
comes back only after all of them have started, so every run is in flight at once: ten
thousand folded states alive together, a garbage collector walking a million objects
(pauses of 0.7 s, measured) and no run finishing until nearly all have begun. Resumers
first keeps the runs in flight near the limit; new runs still start each time a run
ends, and a started run has a bounded number of steps, so no one waits forever.
"""

from __future__ import annotations

from collections import deque

import anyio


class Admission:
    """`limit` slots shared by the runs of one `Runtime`."""

    def __init__(self, limit: int) -> None:
        self._free = limit
        self._resuming: deque[anyio.Event] = deque()
        self._starting: deque[anyio.Event] = deque()

    async def take(self, *, resuming: bool = False) -> None:
        if self._free > 0 and not self._resuming and not self._starting:
            self._free -= 1
            return
        turn = anyio.Event()
        queue = self._resuming if resuming else self._starting
        queue.append(turn)
        try:
            await turn.wait()
        except BaseException:
            if turn.is_set():
                self.give()  # handed a slot it will not use: pass it on
            else:
                queue.remove(turn)
            raise

    def give(self) -> None:
        queue = self._resuming or self._starting
        if queue:
            queue.popleft().set()  # the slot moves to the first waiter as it is
        else:
            self._free += 1


class Slot:
    """One run's hold on an `Admission` slot: `take` it to drive, `give` it back when done."""

    __slots__ = ("_admission", "_holding", "_started")

    def __init__(self, admission: Admission) -> None:
        self._admission = admission
        self._holding = False
        self._started = False  # held once already: it queues as a resumer from then on

    async def take(self) -> None:
        if not self._holding:
            await self._admission.take(resuming=self._started)
            self._holding = self._started = True

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
