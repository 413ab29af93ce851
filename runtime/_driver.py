"""The loop of one run: ask the policy, run tools, append — the I/O around the decisions.

What to append is decided by the pure functions of runtime/_decide.py from `self.state`,
the fold of the run's log; the loop keeps no flag beside it. Appends name the seq they
expect, so a second writer on the same run fails with `ConcurrencyError` instead of
interleaving.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import anyio
import structlog
from anyio.streams.memory import MemoryObjectSendStream
from citeloop.events import (
    AdmittedSource,
    Event,
    Observation,
    PolicyReply,
    ReportRules,
    RunFailure,
    ToolDispatched,
    ToolError,
    chain_hash,
    encode_event,
    redact_text,
    stamp_chain,
)
from citeloop.policies import RunView
from citeloop.tools import Tool

from ._admission import Slot
from ._deadline import within
from ._decide import (
    CANCELLED_ANSWER,
    decide_abstain,
    decide_action,
    decide_budget,
    decide_observation,
    decide_reply,
    decide_sources,
    decide_start,
    decide_unknown_outcome,
    needs_rerun,
    next_move,
)
from ._fold import fold
from ._loop_config import LoopConfig
from ._project import Projector
from ._recordable import recordable
from ._report_driver import report_round
from ._state import RunState
from ._waiting import Waiting


class _TimedOut:
    """The policy's deadline passed before it replied."""


_TIMED_OUT: Final = _TimedOut()


class Driver:
    """Drives one run from whatever its log already holds to a terminal event.

    Every choice is made by a pure function of runtime/_decide.py; the driver only does
    the I/O around them (ask the policy, run a tool, append) and folds what it appended.
    """

    def __init__(
        self,
        config: LoopConfig,
        stored: Sequence[Event] = (),
        listener: MemoryObjectSendStream[Event] | None = None,
        slot: Slot | None = None,
    ) -> None:
        self._config = config
        self._listener = listener
        self.state: RunState = fold(stored)
        # The chain hash of the run's last stored event: the `prev` of the next one
        # (docs/events.md). One encode here, none of the stored log per step.
        self._head = _head_of(stored)
        self._projector = Projector(config.view_options)
        self.slot = slot or Slot(config.admission)

    # -- appending ---------------------------------------------------------------------

    @property
    def config(self) -> LoopConfig:
        return self._config

    async def append(self, events: list[Event]) -> None:
        """Append a decided batch and fold it in (runtime/_report_driver.py appends through it)."""
        await self._append(events)

    async def act(self, decided: list[Event]) -> None:
        """Append a decided batch and carry out the dispatch it ends in, if any (`_act`)."""
        await self._act(decided)

    async def policy_failed(self, answer: str, detail: str) -> None:
        await self._policy_failed(answer, detail)

    async def _append(self, events: list[Event]) -> None:
        run_id = self.state.run_id or events[0].run_id
        # The decisions never see the chain: each batch is stamped here, just before it is written.
        stamped, head = stamp_chain(events, self._head)
        await self._config.store.append(run_id, stamped, self.state.next_seq)
        self._head = head
        self._took(stamped)

    def _took(self, events: Sequence[Event], folded: RunState | None = None) -> None:
        """Fold durable events into the state (the one fold of the step) and pass them on.

        `folded` is the state with `events` already folded in, when the caller has it.
        """
        self.state = folded if folded is not None else fold(events, self.state)
        self._config.hub.offer(events)
        if self._listener is not None:
            for event in events:
                try:
                    self._listener.send_nowait(event)
                except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                    self._listener = None  # the streaming caller went away; the run goes on
                    break

    def _started(
        self,
        run_id: str,
        question: str,
        max_steps: int,
        allowlist: tuple[str, ...],
        policy: str,
        sources: Sequence[AdmittedSource],
        plan: tuple[str, ...] = (),
        report: ReportRules | None = None,
    ) -> list[Event]:
        """The start batch: `RunStarted` (with the research `plan`), then one `SourceAdmitted` per source."""
        config = self._config
        started = decide_start(
            run_id,
            question,
            max_steps=max_steps,
            allowlist=allowlist,
            policy=policy,
            tools=config.specs,
            at=config.clock(),
            support=config.support,
            plan=plan,
            sources=sources,
            report=report,
        )
        return [started, *decide_sources(started, sources)]

    async def start(
        self,
        run_id: str,
        question: str,
        *,
        max_steps: int,
        allowlist: tuple[str, ...],
        policy: str,
        sources: Sequence[AdmittedSource] = (),
        plan: tuple[str, ...] = (),
        report: ReportRules | None = None,
    ) -> None:
        """Record the run's start only (a worker or `resume` drives it later)."""
        await self._append(
            self._started(run_id, question, max_steps, allowlist, policy, sources, plan, report)
        )

    # -- the loop ----------------------------------------------------------------------

    async def start_and_drive(
        self,
        run_id: str,
        question: str,
        *,
        max_steps: int,
        allowlist: tuple[str, ...],
        policy: str,
        sources: Sequence[AdmittedSource] = (),
        plan: tuple[str, ...] = (),
        report: ReportRules | None = None,
    ) -> RunState:
        """Record the start and drive the run, under the same cancellation rule as `drive`.

        `sources` are the run's attachments, admitted (read) by the caller; `plan` its research plan.
        """
        started = self._started(run_id, question, max_steps, allowlist, policy, sources, plan, report)
        return await self._guarded(started)

    async def continue_and_drive(self, carried: list[Event]) -> RunState:
        """Record a continued run's carried-over log (`decide_continuation`) and drive it on."""
        return await self._guarded(carried)

    async def drive(self) -> RunState:
        """Run to a terminal event. Cancellation is recorded as `Abstained(cancelled)`, then re-raised."""
        return await self._guarded([])

    async def cancel(self) -> None:
        """Record `Abstained(cancelled)` for this unfinished run, which no one drives (its lock is held)."""
        await self._append(decide_abstain(self.state, "cancelled", CANCELLED_ANSWER, self._config.clock()))

    async def _guarded(self, first: list[Event]) -> RunState:
        run_id = first[0].run_id if first else self.state.run_id
        try:
            # Admitted already: every way into a run takes its slot first (Runtime._admitted).
            if first:
                await self._append(first)
            await self._loop()
        except anyio.get_cancelled_exc_class():
            with anyio.move_on_after(5, shield=True):
                await self._record_cancellation(run_id)
            raise
        finally:
            if self._listener is not None:
                self._listener.close()
        return self.state

    async def _record_cancellation(self, run_id: str) -> None:
        """Best effort: the cancellation itself always propagates, whatever happens here."""
        try:
            # The cancellation may have struck after an append was durable but before we
            # folded it in: the log, not our state, says where the run is.
            stored = await self._config.store.read(run_id)
            if not stored:
                return  # cancelled before the run's start was written: there is no run
            if len(stored) != self.state.next_seq:
                self.state = fold(stored)
                self._head = _head_of(stored)
            if self.state.outcome is None:
                await self._append(
                    decide_abstain(self.state, "cancelled", CANCELLED_ANSWER, self._config.clock())
                )
        except RunFailure as exc:
            # Another writer took the run over (it is theirs to end), a worker's lease is
            # gone (another worker resumes it), or the store is down: the run stays resumable.
            _log().info("cancellation_not_recorded", run_id=run_id, reason=redact_text(repr(exc)))

    async def _loop(self) -> None:
        while True:
            move = next_move(self.state)
            if move == "done":
                return
            if move == "recover":
                await self._recover()
            elif move == "carry_out":
                parsed = self.state.unhandled
                assert parsed is not None
                at = self._config.clock()
                config, step = self._config, parsed.step
                methods = config.support_methods
                await self._act(
                    decide_action(self.state, step, parsed.action, config.specs, at, support_methods=methods)
                )
            elif move == "budget":
                await self._append(decide_budget(self.state, self._config.clock()))
            elif move == "report":
                if not await report_round(self):
                    return  # a human review is awaited: the run stays `waiting` until a verdict

            else:
                await self._ask_policy()

    async def _recover(self) -> None:
        """Settle the dispatches that a stopped process left without an observation (docs/events.md)."""
        for dispatched in sorted(self.state.pending.values(), key=lambda pending: pending.seq):
            if needs_rerun(dispatched, self._config.specs):
                await self._dispatch(dispatched)
            else:
                await self._append(decide_unknown_outcome(self.state, dispatched, self._config.clock()))

    async def _ask_policy(self) -> None:
        view = self._projector.view(self.state)
        try:
            raw = await self._policy_reply(view)
        except Exception as exc:  # a failing policy is an outcome of the run, not a crash of the caller
            _log().warning("policy_failed", run_id=self.state.run_id, error=redact_text(repr(exc)))
            detail = redact_text(f"{type(exc).__name__}: {exc}")
            await self._policy_failed("cannot: the policy failed", detail)
            return
        if raw is _TIMED_OUT:
            await self._policy_failed("cannot: the policy did not reply in time", "timeout")
            return
        if not isinstance(raw, str | PolicyReply):
            detail = f"next_step returned {type(raw).__name__}, not str or PolicyReply"
            await self._policy_failed("cannot: the policy failed", detail)
            return
        reply = recordable(raw if isinstance(raw, PolicyReply) else PolicyReply(text=raw))
        config = self._config
        decided = decide_reply(
            self.state,
            reply,
            config.specs,
            config.clock(),
            limits=config.limits,
            support_methods=config.support_methods,
        )
        await self._act(decided)

    async def _policy_failed(self, answer: str, detail: str) -> None:
        clock = self._config.clock()
        await self._append(decide_abstain(self.state, "policy_error", answer, clock, detail=detail))

    async def _act(self, decided: list[Event]) -> None:
        """Append a decision; when it ends in a dispatch, carry the call out.

        A tool of unknown effect is written ahead: its dispatch is durable before it runs,
        so after a crash resume knows the call may have happened (`ToolOutcomeUnknown`).
        A read-only tool's step is one append, after the tool returns (docs/performance.md).
        """
        last = decided[-1]
        if not isinstance(last, ToolDispatched):
            await self._append(decided)
        elif self._config.specs[last.tool].read_only:
            await self._observe_read_only(decided, last)
        else:
            await self._append(decided)
            await self._dispatch(last)

    async def _observe_read_only(self, decided: list[Event], dispatched: ToolDispatched) -> None:
        """The step's decision, the dispatch and the observation in one batch, one commit.

        A crash before the batch is durable loses only a call that is safe to make again.
        Resume goes on from what the log holds: if the step began with a policy reply, the
        reply is not in the log and the policy is asked again; if it carried out an action
        already durable (after a recovery), that action is carried out again. Until the
        batch is durable nothing of it is shown (the listener and the sinks see it after).
        """
        config = self._config
        stamped, head = stamp_chain(decided, self._head)
        pending = fold(stamped, self.state)  # what the observation is decided on; not yet durable
        self._tell_waiting_on_tool(dispatched)
        observation = await self._run_tool(config.tools[dispatched.tool], dispatched.input)
        observed = decide_observation(pending, dispatched, observation, config.clock(), limits=config.limits)
        stamped_observed, head = stamp_chain(observed, head)
        batch = stamped + stamped_observed  # still a ChainedBatch: the store writes its bytes as they are
        await config.store.append(dispatched.run_id, batch, self.state.next_seq)
        self._head = head
        self._took(batch, fold(stamped_observed, pending))

    async def _dispatch(self, dispatched: ToolDispatched) -> None:
        tool = self._config.tools[dispatched.tool]
        self._tell_waiting_on_tool(dispatched)
        observation = await self._run_tool(tool, dispatched.input)
        decided = decide_observation(
            self.state, dispatched, observation, self._config.clock(), limits=self._config.limits
        )
        await self._append(decided)

    async def _policy_reply(self, view: RunView) -> str | PolicyReply | _TimedOut:
        """The policy's reply, or `_TIMED_OUT` when it did not come within the timeout."""
        timeout = self._config.policy_timeout
        if self._config.watchers:
            state = self.state
            self._tell(Waiting(state.run_id, state.steps, "policy", state.policy))
        async with self.slot.away():  # waiting on the policy takes no admission slot
            if timeout is None:
                return await self._config.policy.next_step(view)
            # Not `fail_after` nor an anyio scope: the same deadline, cheaper on asyncio, on this
            # per-step path (runtime/_deadline.py, docs/performance.md).
            return await within(timeout, self._config.policy.next_step(view), _TIMED_OUT)

    def _tell_waiting_on_tool(self, dispatched: ToolDispatched) -> None:
        if self._config.watchers:
            step, policy = dispatched.step, self.state.policy
            self._tell(Waiting(dispatched.run_id, step, "tool", policy, dispatched.tool, dispatched.input))

    def _tell(self, waiting: Waiting) -> None:
        for watcher in self._config.watchers:
            try:
                watcher(waiting)
            except Exception as exc:  # a watcher's bug never stops a run
                _log().warning("watcher_failed", run_id=waiting.run_id, error=redact_text(repr(exc)))

    async def _run_tool(self, tool: Tool, argument: str) -> Observation:
        timeout = self._config.tool_timeout
        try:
            async with self.slot.away():  # nor does waiting on a tool
                observation = await within(timeout, tool(argument), _TIMED_OUT)
        except Exception as exc:  # a tool's bug is recorded and shown, and the run goes on
            _log().warning(
                "tool_failed", run_id=self.state.run_id, tool=tool.name, error=redact_text(repr(exc))
            )
            return ToolError(code="tool_raised", message=f"{type(exc).__name__}: {exc}")
        if observation is _TIMED_OUT:
            return ToolError(code="timeout", message=f"no result within {timeout:g} s")
        return observation  # type: ignore[return-value]  # not the sentinel: the tool's result


def _head_of(stored: Sequence[Event]) -> str | None:
    return chain_hash(encode_event(stored[-1])) if stored else None


def _log() -> Any:
    return structlog.get_logger("citeloop.runtime")
