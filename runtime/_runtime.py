"""`Runtime`: the composition root. It owns one task group, the sinks, and the loop's configuration.

Here: building it, its lifecycle, starting runs (`run`, `stream`, `submit`) and driving them
under its admission and run locks. Its methods on a stored run (`resume`, `continue_run`,
`fork`, `cancel`, `reopen`, `transcript`, `check`) are in runtime/_runtime_stored.py, its
report runs in runtime/_runtime_report.py.
"""

from __future__ import annotations

import contextlib
import math
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Mapping
from datetime import UTC, datetime
from os import PathLike
from types import MappingProxyType, TracebackType
from typing import Any, Self

import anyio
from anyio.abc import TaskGroup
from anyio.streams.memory import MemoryObjectSendStream
from citeloop.events import AdmittedSource, Event, EventStore, UsageError, run_lock
from citeloop.policies import Policy, Reviewer, Writer
from citeloop.tools import Attachable, Tool, admit_all

from ._admission import Admission, Slot
from ._driver import Driver
from ._limits import DEFAULT_LIMITS, Limits
from ._loop_config import LoopConfig
from ._outcome import Outcome
from ._project import ViewOptions
from ._runtime_report import ReportMethods
from ._runtime_stored import StoredRunMethods
from ._sinks import Sink, SinkHub, SinkStats
from ._start import default_allowlist, policy_name, research_plan
from ._state import RunState
from ._support import DEFAULT_SUPPORT, SUPPORT_METHODS, SupportMethod
from ._waiting import Watcher

DEFAULT_MAX_STEPS = 6
# Runs computing on the event loop at once; more queue (runtime/_admission.py). Waiting on
# a policy or a tool does not count, so this bounds a loop pass, not latency hiding.
DEFAULT_MAX_BUSY_RUNS = 100


def utc_now() -> datetime:
    return datetime.now(UTC)


def new_run_id() -> str:
    return uuid.uuid4().hex


def _support_config(
    support: Iterable[str] | Mapping[str, SupportMethod],
) -> tuple[tuple[str, ...], Mapping[str, SupportMethod]]:
    """The names new runs record, and every method by name (the built-in ones and `support`'s own)."""
    if isinstance(support, Mapping):
        return tuple(support), MappingProxyType({**SUPPORT_METHODS, **support})
    if isinstance(support, str):
        raise UsageError(f"support is a list of method names, not the string {support!r}")
    names = tuple(dict.fromkeys(support))
    unknown = [name for name in names if name not in SUPPORT_METHODS]
    if unknown:
        known = ", ".join(SUPPORT_METHODS)
        raise UsageError(f"unknown support method {unknown[0]!r}: the methods are {known}")
    return names, SUPPORT_METHODS


def _attachments(given: Iterable[Attachable]) -> tuple[Attachable, ...]:
    if isinstance(given, str | PathLike):
        raise UsageError(f"attachments is a list of files, not the one path {str(given)!r}")
    return tuple(given)


class Runtime(StoredRunMethods, ReportMethods):
    """Runs questions through a policy and tools, recording every step in `store`.

    Use it as an async context manager: it owns the task groups that run streamed
    questions and feed the sinks. On exit, streamed runs still going get `run_grace`
    seconds and are then cancelled (recorded as `Abstained(cancelled)`); sinks then get
    `sink_grace` seconds to drain. At most `max_busy_runs` runs compute on the event loop
    at once (runs waiting on their policy or a tool do not count), so that timers fire on
    time under load. `limits` caps what a run records (page bodies, policy replies: a cut
    is recorded, docs/protocol.md). `support` names the support methods a positive answer
    must pass (docs/gate.md, "Support"): names from `SUPPORT_METHODS` (the default is all of
    them, `()` checks none), or a mapping of names to your own methods. A run records the
    names in its `RunStarted` and is held to them when resumed or checked. `watchers` are
    told, on the loop, what each run is about to wait on (its policy or a tool call); they
    must return at once (runtime/_waiting.py). `clock` and
    `new_id` are injectable so that tests and replays are deterministic. `attachments` are
    files admitted as sources of every run (docs/evidence.md, "Admitted sources"): paths,
    `Attachment`s, or sources `admit` returned. They are read when a run starts and recorded
    in its log, so that resume, reopen and check never read them again; a file that cannot
    be admitted raises `AttachmentError` before anything is recorded. `writer` and `reviewer`
    write and review the drafts of report runs (`report`, docs/reports.md): deterministic ones
    by default.
    """

    def __init__(
        self,
        *,
        store: EventStore,
        tools: Iterable[Tool],
        policy: Policy,
        max_steps: int = DEFAULT_MAX_STEPS,
        allowlist: Iterable[str] | None = None,
        tool_timeout: float = 30.0,
        policy_timeout: float | None = 300.0,
        view_options: ViewOptions | None = None,
        limits: Limits | None = None,
        support: Iterable[str] | Mapping[str, SupportMethod] = DEFAULT_SUPPORT,
        sinks: Iterable[Sink] = (),
        watchers: Iterable[Watcher] = (),
        sink_buffer: int = 10_000,
        sink_grace: float = 5.0,
        run_grace: float = 5.0,
        max_busy_runs: int = DEFAULT_MAX_BUSY_RUNS,
        clock: Callable[[], datetime] = utc_now,
        new_id: Callable[[], str] = new_run_id,
        attachments: Iterable[Attachable] = (),
        writer: Writer | None = None,
        reviewer: Reviewer | None = None,
    ) -> None:
        if max_steps < 1:
            raise UsageError(f"max_steps must be at least 1, got {max_steps}")
        if max_busy_runs < 1:
            raise UsageError(f"max_busy_runs must be at least 1, got {max_busy_runs}")
        tool_map = {tool.name: tool for tool in tools}
        support_names, support_methods = _support_config(support)
        self._allowlist = tuple(allowlist) if allowlist is not None else default_allowlist(tool_map)
        self._max_steps = max_steps
        self._new_id = new_id
        self._attachments = _attachments(attachments)
        self._sink_grace = sink_grace
        self._hub = SinkHub(tuple(sinks), buffer=sink_buffer)
        self._config = LoopConfig(
            store=store,
            tools=tool_map,
            policy=policy,
            clock=clock,
            tool_timeout=tool_timeout,
            policy_timeout=policy_timeout,
            view_options=view_options or ViewOptions(),
            limits=limits or DEFAULT_LIMITS,
            support=support_names,
            support_methods=support_methods,
            hub=self._hub,
            watchers=tuple(watchers),
            admission=Admission(max_busy_runs),
            writer=writer,
            reviewer=reviewer,
        )
        self._task_group: TaskGroup | None = None
        self._sink_group: TaskGroup | None = None
        self._run_grace = run_grace
        self._active: set[str] = set()
        # One driver per run across processes too (docs/guarantees.md): held while driving.
        self._locks = run_lock(store)

    @property
    def store(self) -> EventStore:
        return self._config.store

    @property
    def sink_stats(self) -> list[SinkStats]:
        """Per sink: delivered, dropped (buffer full) and failed (the sink raised) counts."""
        return self._hub.stats

    async def __aenter__(self) -> Self:
        # Two task groups: sinks outlive the runs, so every event a run appends while the
        # runtime shuts down still reaches them (or is counted as dropped).
        self._sink_group = anyio.create_task_group()
        await self._sink_group.__aenter__()
        self._hub.start(self._sink_group)
        self._task_group = anyio.create_task_group()
        await self._task_group.__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        runs, self._task_group = self._task_group, None
        sinks, self._sink_group = self._sink_group, None
        assert runs is not None and sinks is not None
        try:
            # Streamed runs still going get a grace period, then are cancelled (and record it).
            runs.cancel_scope.deadline = anyio.current_time() + self._run_grace
            await runs.__aexit__(exc_type, exc, tb)
        finally:
            self._hub.close()
            # Sinks get a bounded grace period to drain; a stuck sink must not hang the exit.
            sinks.cancel_scope.deadline = anyio.current_time() + self._sink_grace
            try:
                await sinks.__aexit__(None, None, None)
            finally:
                with anyio.CancelScope(shield=True):
                    await self._locks.aclose()

    def _require_started(self) -> TaskGroup:
        if self._task_group is None:
            raise UsageError("use the Runtime as `async with Runtime(...) as rt:` before running questions")
        return self._task_group

    # -- running -----------------------------------------------------------------------

    async def run(
        self,
        question: str,
        *,
        run_id: str | None = None,
        attachments: Iterable[Attachable] = (),
        plan: Iterable[str] = (),
    ) -> Outcome:
        """Run one question to its outcome: an answer that passed the gate, or an abstention.

        `attachments` are admitted for this run, after the runtime's own. `plan` is the research
        plan, recorded on `RunStarted.plan`: the items a complete answer settles or discloses as
        gaps (docs/evidence.md, "Completion").
        """
        self._require_started()
        items = research_plan(plan)
        sources = await self._admit(attachments)
        async with self._admitted() as slot:
            driver = Driver(self._config, slot=slot)
            return await self._start_and_drive(driver, question, run_id, sources, items)

    async def stream(
        self,
        question: str,
        *,
        run_id: str | None = None,
        attachments: Iterable[Attachable] = (),
        plan: Iterable[str] = (),
    ) -> AsyncIterator[Event]:
        """Run one question, yielding each event once it is durable in the log (options as in `run`)."""
        task_group = self._require_started()
        items = research_plan(plan)
        sources = await self._admit(attachments)
        send, receive = anyio.create_memory_object_stream[Event](math.inf)
        failure: list[BaseException] = []

        async def drive(sender: MemoryObjectSendStream[Event]) -> None:
            try:
                async with self._admitted() as slot:
                    driver = Driver(self._config, listener=sender, slot=slot)
                    await self._start_and_drive(driver, question, run_id, sources, items)
            except Exception as exc:  # handed to the consumer, who raised nothing yet
                failure.append(exc)
            finally:
                sender.close()

        task_group.start_soon(drive, send)
        async with receive:
            async for event in receive:
                yield event
        if failure:
            raise failure[0]

    async def submit(
        self,
        question: str,
        *,
        run_id: str | None = None,
        attachments: Iterable[Attachable] = (),
        plan: Iterable[str] = (),
    ) -> str:
        """Record a run's start without driving it; a worker (or `resume`) drives it later."""
        items = research_plan(plan)
        sources = await self._admit(attachments)
        driver = Driver(self._config)
        run_id = run_id or self._new_id()
        await driver.start(
            run_id,
            question,
            max_steps=self._max_steps,
            allowlist=self._allowlist,
            policy=self._policy_name(),
            sources=sources,
            plan=items,
        )
        return run_id

    async def _admit(self, attachments: Iterable[Attachable]) -> tuple[AdmittedSource, ...]:
        """The run's attachments (the runtime's, then the run's own) read and admitted, off the event loop."""
        every = (*self._attachments, *_attachments(attachments))
        if not every:
            return ()
        return await anyio.to_thread.run_sync(admit_all, every)

    async def _start_and_drive(
        self,
        driver: Driver,
        question: str,
        run_id: str | None,
        sources: tuple[AdmittedSource, ...] = (),
        plan: tuple[str, ...] = (),
    ) -> Outcome:
        run_id = run_id or self._new_id()
        return await self._drive(
            driver,
            run_id,
            driver.start_and_drive(
                run_id,
                question,
                max_steps=self._max_steps,
                allowlist=self._allowlist,
                policy=self._policy_name(),
                sources=sources,
                plan=plan,
            ),
        )

    async def _drive(self, driver: Driver, run_id: str, driving: Coroutine[Any, Any, RunState]) -> Outcome:
        return Outcome.from_state(await self._drive_state(driver, run_id, driving))

    async def _drive_state(
        self, driver: Driver, run_id: str, driving: Coroutine[Any, Any, object]
    ) -> RunState:
        """Drive a run under this runtime's one-driver rule and its run lock; the state it reached."""
        if run_id in self._active:
            driving.close()
            raise UsageError(f"run {run_id!r} is already being driven by this runtime")
        self._active.add(run_id)
        try:
            # The caller is admitted already (`_admitted`): thousands of runs queued for a
            # slot cost the loop a wait each, not a lock each (runtime/_admission.py).
            async with self._locks.hold(run_id):
                await driving
                return driver.state
        finally:
            driving.close()  # never started when the lock was refused
            self._active.discard(run_id)

    @contextlib.asynccontextmanager
    async def _admitted(self) -> AsyncIterator[Slot]:
        """A slot held for the block, taken before anything else of the run is built.

        Ten thousand runs queued here hold a coroutine each, not a driver and a folded log
        each: fewer objects alive, shorter collector pauses (runtime/_admission.py).
        """
        slot = Slot(self._config.admission)
        await slot.take()
        try:
            yield slot
        finally:
            slot.give()

    def _policy_name(self) -> str:
        return policy_name(self._config.policy)
