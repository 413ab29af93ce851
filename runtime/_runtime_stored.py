"""`Runtime`'s methods on a run already in the store: resume, continue, fork, cancel, and reading.

A mixin, like `ReportMethods` (runtime/_runtime_report.py), so that the runtime's module
stays about starting runs and owning what they share. Every method here begins from a
stored log (`_read`: `UnknownRunError` when there is none); those that drive the run on
use the runtime's own admission, locks and driver as `run` does, and `reopen`,
`transcript` and `check` only read.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from citeloop.events import TamperedLogError, UnknownRunError, UsageError, verify_chain

from ._check import check_events
from ._decide import decide_continuation
from ._driver import Driver
from ._fold import fold
from ._fork import decide_fork, read_parent
from ._outcome import Outcome
from ._start import policy_name

if TYPE_CHECKING:
    import contextlib
    from collections.abc import Callable, Coroutine
    from typing import Any

    from anyio.abc import TaskGroup
    from citeloop.events import Event, EventStore, RunLock
    from citeloop.policies import Policy

    from ._admission import Slot
    from ._divergence import CheckReport
    from ._loop_config import LoopConfig
    from ._state import RunState


class StoredRunMethods:
    """The stored-run half of `Runtime`: what it uses of the runtime is declared here, defined there."""

    if TYPE_CHECKING:
        _config: LoopConfig
        _new_id: Callable[[], str]
        _locks: RunLock

        @property
        def store(self) -> EventStore: ...
        def _require_started(self) -> TaskGroup: ...
        def _admitted(self) -> contextlib.AbstractAsyncContextManager[Slot]: ...
        async def _drive(
            self, driver: Driver, run_id: str, driving: Coroutine[Any, Any, RunState]
        ) -> Outcome: ...

    # -- driving on --------------------------------------------------------------------

    async def resume(self, run_id: str) -> Outcome:
        """Continue an unfinished run from its log (a finished one just returns its outcome).

        A dispatch that a crash left without an observation is run again if its tool is
        read-only, and recorded as `ToolOutcomeUnknown` otherwise.
        """
        self._require_started()
        async with self._admitted() as slot:
            driver = Driver(self._config, await self._read(run_id), slot=slot)
            if driver.state.finished:
                return Outcome.from_state(driver.state)
            return await self._drive(driver, run_id, driver.drive())

    async def continue_run(self, run_id: str, *, new_run_id: str | None = None) -> Outcome:
        """Carry a cancelled or failed run on as a new run, from where its log stops.

        The new run's log begins with the old one's events (not its terminal one) and its
        `RunStarted.meta["continues"]` names the old run (`decide_continuation`); no tool
        call or policy reply on record is made again.
        """
        self._require_started()
        events = await self._read(run_id)
        status = fold(events).status
        if status not in ("cancelled", "failed"):
            raise UsageError(f"run {run_id!r} is {status}: only a cancelled or failed run is continued")
        new_run_id = new_run_id or self._new_id()
        async with self._admitted() as slot:
            driver = Driver(self._config, slot=slot)
            return await self._drive(
                driver, new_run_id, driver.continue_and_drive(decide_continuation(events, new_run_id))
            )

    async def fork(
        self, parent_run_id: str, /, *, at_step: int, policy: Policy | None = None, run_id: str | None = None
    ) -> Outcome:
        """Start a new run from a stored run's first `at_step` steps and drive it on to its outcome.

        The new run's log begins with `Forked` and the parent's events of steps 0 ..
        at_step-1, copied (`decide_fork`): no tool call or policy reply on record is made
        again. From step `at_step` on, `policy` decides (this runtime's policy by default).
        `UsageError` for a step the parent cannot be forked at (runtime/_fork.py);
        `TamperedLogError` for a parent whose log breaks its hash chain.
        """
        self._require_started()
        parent = await self._read(parent_run_id)
        verdict = verify_chain(parent)  # not every store checks it on read (memory does not)
        if verdict.seq is not None:
            raise TamperedLogError(self.store.url, parent_run_id, verdict.seq, verdict.reason, tuple(parent))
        config = self._config if policy is None else dataclasses.replace(self._config, policy=policy)
        run_id = run_id or self._new_id()
        forked = decide_fork(
            parent, run_id, at_step=at_step, policy=policy_name(config.policy), at=config.clock()
        )
        async with self._admitted() as slot:
            driver = Driver(config, slot=slot)
            return await self._drive(driver, run_id, driver.continue_and_drive(forked))

    async def cancel(self, run_id: str) -> Outcome:
        """Record `Abstained(cancelled)` for a stored run no one is driving, through the loop's decision.

        `RunBusyError` if someone drives it (its run lock is held); a finished run is left
        as it is and its outcome returned.
        """
        self._require_started()
        async with self._locks.hold(run_id):
            driver = Driver(self._config, await self._read(run_id))
            if not driver.state.finished:
                await driver.cancel()
            return Outcome.from_state(driver.state)

    # -- reading -----------------------------------------------------------------------

    async def _read(self, run_id: str) -> list[Event]:
        events = await self._config.store.read(run_id)
        if not events:
            raise UnknownRunError(f"no run {run_id!r} in {self._config.store.url}")
        return events

    async def reopen(self, run_id: str) -> RunState:
        """Rebuild a stored run's state from its log: no tool is dispatched, no policy called."""
        return fold(await self._read(run_id))

    async def transcript(self, run_id: str) -> list[Event]:
        """A stored run's events, in order."""
        return await self._read(run_id)

    async def check(self, run_id: str) -> CheckReport:
        """Replay a stored run through today's decisions and report every divergence.

        Dispatches and recovery are judged by the tools this runtime has today.
        """
        try:
            events = await self._read(run_id)
        except TamperedLogError as exc:  # judged all the same: the break is one of the divergences
            events = list(exc.events)
        parent = await read_parent(self._config.store, events)
        config = self._config
        methods = config.support_methods
        return check_events(
            events, tools=config.specs, limits=config.limits, support_methods=methods, parent=parent
        )
