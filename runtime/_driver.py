"""The loop of one run: ask the policy, parse strictly, dispatch, observe, gate — each fact an event.

Everything the loop decides on (the opened set, the repair turn, the step count, what
is pending) is read off `self.state`, the fold of the run's log; the loop keeps no
flag beside it. Appends name the seq they expect, so a second writer on the same run
fails with `ConcurrencyError` instead of interleaving.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

import anyio
import structlog
from anyio.streams.memory import MemoryObjectSendStream
from citeloop.events import (
    Abstained,
    AbstainReason,
    Action,
    ActionParsed,
    AlreadySearched,
    Answered,
    CallTool,
    Event,
    EventStore,
    Finish,
    FinishRejected,
    Observation,
    ParseRejected,
    PolicyReply,
    RunFailure,
    RunStarted,
    ToolDispatched,
    ToolError,
    ToolObserved,
    ToolOutcomeUnknown,
    ToolSpec,
    redact_text,
)
from citeloop.policies import Policy, Rejected, RunView, parse_policy_reply
from citeloop.tools import Tool
from pydantic_core import PydanticSerializationError

from ._fold import fold
from ._gate import validate_finish
from ._locate import answer_digest, locate_evidence
from ._project import Projector, ViewOptions
from ._sinks import SinkHub
from ._state import RunState, normalize_query


class _TimedOut:
    """The policy's deadline passed before it replied."""


_TIMED_OUT: Final = _TimedOut()


@dataclass(frozen=True, slots=True)
class LoopConfig:
    """What every run of one `Runtime` shares."""

    store: EventStore
    tools: Mapping[str, Tool]
    policy: Policy
    clock: Callable[[], datetime]
    tool_timeout: float
    policy_timeout: float | None
    view_options: ViewOptions
    hub: SinkHub


class Driver:
    """Drives one run from whatever its log already holds to a terminal event."""

    def __init__(
        self,
        config: LoopConfig,
        stored: Sequence[Event] = (),
        listener: MemoryObjectSendStream[Event] | None = None,
    ) -> None:
        self._config = config
        self._listener = listener
        self.state: RunState = fold(stored)
        self._projector = Projector(config.view_options)
        for event in stored:
            self._projector.add(event)

    # -- appending ---------------------------------------------------------------------

    def _fields(self, offset: int) -> dict[str, Any]:
        return {"run_id": self.state.run_id, "seq": self.state.next_seq + offset, "at": self._config.clock()}

    async def _append(self, events: list[Event]) -> None:
        run_id = self.state.run_id or events[0].run_id
        await self._config.store.append(run_id, events, self.state.next_seq)
        self._took(events)

    def _took(self, events: list[Event]) -> None:
        """Fold durable events into the state and pass them on: projection, sinks, a streaming caller."""
        self.state = fold(events, self.state)
        for event in events:
            self._projector.add(event)
        self._config.hub.offer(events)
        if self._listener is not None:
            for event in events:
                try:
                    self._listener.send_nowait(event)
                except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                    self._listener = None  # the streaming caller went away; the run goes on
                    break

    def _started(
        self, run_id: str, question: str, max_steps: int, allowlist: tuple[str, ...], policy: str
    ) -> Event:
        specs = tuple(
            ToolSpec(name=name, read_only=tool.read_only) for name, tool in self._config.tools.items()
        )
        return RunStarted(
            run_id=run_id,
            seq=0,
            at=self._config.clock(),
            question=question,
            max_steps=max_steps,
            tools=specs,
            allowlist=allowlist,
            policy=policy,
        )

    async def start(
        self, run_id: str, question: str, *, max_steps: int, allowlist: tuple[str, ...], policy: str
    ) -> None:
        """Record the run's start only (a worker or `resume` drives it later)."""
        await self._append([self._started(run_id, question, max_steps, allowlist, policy)])

    # -- the loop ----------------------------------------------------------------------

    async def start_and_drive(
        self, run_id: str, question: str, *, max_steps: int, allowlist: tuple[str, ...], policy: str
    ) -> RunState:
        """Record the start and drive the run, under the same cancellation rule as `drive`."""
        return await self._guarded(self._started(run_id, question, max_steps, allowlist, policy))

    async def drive(self) -> RunState:
        """Run to a terminal event. Cancellation is recorded as `Abstained(cancelled)`, then re-raised."""
        return await self._guarded(None)

    async def _guarded(self, started: Event | None) -> RunState:
        run_id = started.run_id if started is not None else self.state.run_id
        try:
            if started is not None:
                await self._append([started])
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
            if self.state.outcome is None:
                await self._abstain("cancelled", "cannot: the run was cancelled")
        except RunFailure as exc:
            # Another writer took the run over (it is theirs to end), a worker's lease is
            # gone (another worker resumes it), or the store is down: the run stays resumable.
            _log().info("cancellation_not_recorded", run_id=run_id, reason=redact_text(repr(exc)))

    async def _loop(self) -> None:
        await self._recover()
        while self.state.outcome is None:
            if self.state.unhandled is not None:
                await self._carry_out(self.state.unhandled.step, self.state.unhandled.action, [])
            elif self.state.budget_spent:
                await self._abstain(
                    "budget",
                    f"cannot: the step budget ({self.state.max_steps}) ran out before a grounded answer",
                )
            else:
                await self._ask_policy()

    async def _recover(self) -> None:
        """Settle dispatches that a crash left without an observation (SPEC §6)."""
        if self.state.outcome is not None:
            return
        for call_id, dispatched in sorted(self.state.pending.items(), key=lambda item: item[1].seq):
            tool = self._config.tools.get(dispatched.tool)
            if dispatched.read_only and tool is not None:
                observation = await self._run_tool(tool, dispatched.input)
                await self._append(
                    [
                        self._observed(
                            dispatched.step, call_id, dispatched.tool, dispatched.input, observation, 0
                        )
                    ]
                )
            else:
                unknown = ToolOutcomeUnknown(
                    **self._fields(0),
                    step=dispatched.step,
                    call_id=call_id,
                    tool=dispatched.tool,
                    input=dispatched.input,
                )
                await self._append([unknown])

    async def _ask_policy(self) -> None:
        step = self.state.steps
        view = self._projector.view(self.state)
        try:
            raw = await self._policy_reply(view)
        except Exception as exc:  # a failing policy is an outcome of the run, not a crash of the caller
            _log().warning("policy_failed", run_id=self.state.run_id, error=redact_text(repr(exc)))
            detail = redact_text(f"{type(exc).__name__}: {exc}")
            await self._abstain("policy_error", "cannot: the policy failed", detail=detail)
            return
        if raw is _TIMED_OUT:
            await self._abstain("policy_error", "cannot: the policy did not reply in time", detail="timeout")
            return
        if not isinstance(raw, str | PolicyReply):
            detail = f"next_step returned {type(raw).__name__}, not str or PolicyReply"
            await self._abstain("policy_error", "cannot: the policy failed", detail=detail)
            return
        reply = _recordable(raw if isinstance(raw, PolicyReply) else PolicyReply(text=raw))
        parsed = parse_policy_reply(reply, self.state.allowlist)
        if isinstance(parsed, Rejected):
            await self._append(
                [
                    ParseRejected(
                        **self._fields(0), step=step, reply=reply, code=parsed.code, detail=parsed.detail
                    )
                ]
            )
            return
        action_parsed = ActionParsed(
            **self._fields(0), step=step, reply=reply, thought=parsed.thought, action=parsed.action
        )
        await self._carry_out(step, parsed.action, [action_parsed])

    async def _carry_out(self, step: int, action: Action, prefix: list[Event]) -> None:
        """Act on a parsed action; `prefix` (the ActionParsed, when new) is appended in the same batch."""
        if isinstance(action, Finish):
            await self._append(prefix + self._verdict(step, action.payload, len(prefix)))
            return
        await self._call(step, action, prefix)

    async def _call(self, step: int, action: CallTool, prefix: list[Event]) -> None:
        offset = len(prefix)
        if action.tool == "search":
            earlier = self.state.searched.get(normalize_query(action.input))
            if earlier is not None:
                repeat = AlreadySearched(query=action.input, hits=earlier)
                await self._append(
                    [*prefix, self._observed(step, None, action.tool, action.input, repeat, offset)]
                )
                return
        tool = self._config.tools.get(action.tool)
        if tool is None:
            missing = ToolError(code="unknown_tool", message=f"no tool named {action.tool!r} in this runtime")
            await self._append(
                [*prefix, self._observed(step, None, action.tool, action.input, missing, offset)]
            )
            return
        call_id = f"c{self.state.next_seq + offset}"
        dispatched = ToolDispatched(
            **self._fields(offset),
            step=step,
            call_id=call_id,
            tool=action.tool,
            input=action.input,
            read_only=tool.read_only,
        )
        # Durable before the tool runs: after a crash, resume knows the call may have happened.
        await self._append([*prefix, dispatched])
        observation = await self._run_tool(tool, action.input)
        await self._append([self._observed(step, call_id, action.tool, action.input, observation, 0)])

    async def _policy_reply(self, view: RunView) -> str | PolicyReply | _TimedOut:
        """The policy's reply, or `_TIMED_OUT` when it did not come within the timeout."""
        timeout = self._config.policy_timeout
        if timeout is None:
            return await self._config.policy.next_step(view)
        # A bare cancel scope, not `fail_after`: the same deadline at a fraction of the cost
        # on this per-step path (BENCH.md B1).
        with anyio.CancelScope(deadline=anyio.current_time() + timeout):
            return await self._config.policy.next_step(view)
        return _TIMED_OUT

    async def _run_tool(self, tool: Tool, argument: str) -> Observation:
        timeout = self._config.tool_timeout
        try:
            with anyio.CancelScope(deadline=anyio.current_time() + timeout):
                return await tool(argument)
        except Exception as exc:  # a tool's bug is recorded and shown, and the run goes on
            _log().warning(
                "tool_failed", run_id=self.state.run_id, tool=tool.name, error=redact_text(repr(exc))
            )
            return ToolError(code="tool_raised", message=f"{type(exc).__name__}: {exc}")
        return ToolError(code="timeout", message=f"no result within {timeout:g} s")

    def _observed(
        self, step: int, call_id: str | None, tool: str, argument: str, observation: Observation, offset: int
    ) -> ToolObserved:
        return ToolObserved(
            **self._fields(offset),
            step=step,
            call_id=call_id,
            tool=tool,
            input=argument,
            observation=observation,
        )

    def _verdict(self, step: int, payload: dict[str, Any], offset: int) -> list[Event]:
        """The gate's decision on a finish, as the events that record it."""
        state = self.state
        code = validate_finish(payload, state.opened_bodies())
        if code is None:
            if payload["cannot_answer"]:
                return [
                    Abstained(
                        **self._fields(offset),
                        step=step,
                        reason=state.own_abstain_reason(),
                        answer=payload["answer"],
                    )
                ]
            citations = tuple(payload["citations"])
            pages = {url: (page.body, page.sha256) for url, page in state.opened.items() if url in citations}
            return [
                Answered(
                    **self._fields(offset),
                    step=step,
                    answer=payload["answer"],
                    citations=citations,
                    evidence=payload["evidence"],
                    locators=locate_evidence(payload["evidence"], citations, pages),
                    answer_sha256=answer_digest(payload["answer"]),
                )
            ]
        rejected = FinishRejected(**self._fields(offset), step=step, code=code, payload=payload)
        if not state.repair_used:
            return [rejected]
        return [
            rejected,
            Abstained(
                **self._fields(offset + 1),
                step=step,
                reason="invalid_finish",
                answer="cannot: no finish passed the grounding gate after the one repair turn",
                detail=code,
            ),
        ]

    async def _abstain(self, reason: AbstainReason, answer: str, *, detail: str = "") -> None:
        step = self.state.steps
        await self._append(
            [Abstained(**self._fields(0), step=step, reason=reason, answer=answer, detail=detail)]
        )


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _scrub(value: Any) -> Any:
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, dict):
        return {_scrub(key): _scrub(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_scrub(item) for item in value]
    return value


def _recordable(reply: PolicyReply) -> PolicyReply:
    """The reply as the log can hold it: lone surrogates (not encodable as UTF-8) become U+FFFD.

    Such text cannot be stored in any store; replacing the broken code points keeps the
    step on the record (and lets the parser judge the rest) instead of failing the run.
    """
    try:
        reply.__pydantic_serializer__.to_json(reply)
    except PydanticSerializationError:
        return reply.model_copy(update={"text": _scrub(reply.text), "structured": _scrub(reply.structured)})
    return reply


def _log() -> Any:
    return structlog.get_logger("citeloop.runtime")
