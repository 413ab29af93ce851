"""The spans of one run, built from its events after the GenAI semantic conventions.

The spans are built from the events alone (their `at` are the span times), so a live run
and a stored run exported after the fact give the same tree (docs/observability.md):

    invoke_agent citeloop            one per run (INTERNAL): status, abstain reason
      citeloop.step                  one per step: from the policy call to its last event
        chat {model}                 one per policy reply (CLIENT): model, usage, latency
        execute_tool {tool}          one per tool call (INTERNAL): read-only, outcome

`OtelSink` and `export_run_spans` (runtime/_otel.py) feed a `RunSpans` per run.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

from citeloop.events import (
    Abstained,
    ActionParsed,
    Answered,
    ClaimAssessed,
    Event,
    FinishRejected,
    Forked,
    ParseRejected,
    PolicyReply,
    RunStarted,
    SourceAdmitted,
    ToolDispatched,
    ToolError,
    ToolObserved,
    ToolOutcomeUnknown,
    redact_text,
)

from ._fold import FoldError, apply, fold
from ._state import RunState

if TYPE_CHECKING:
    from opentelemetry.trace import Span, Tracer

AGENT_NAME: Final = "citeloop"
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND: Final = timedelta(microseconds=1)

# Token counts as the chat dialects record them (Anthropic's names, then OpenAI's).
_INPUT_TOKENS: Final = ("input_tokens", "prompt_tokens")
_OUTPUT_TOKENS: Final = ("output_tokens", "completion_tokens")


def _ns(at: datetime) -> int:
    """Nanoseconds since the epoch, exact to the microsecond an event's `at` carries."""
    return (at - _EPOCH) // _MICROSECOND * 1000


def _provider_name(policy: str) -> str:
    """`openai:gpt-4o` and `anthropic-tools:claude-x` name their provider; other policies are their own."""
    provider = policy.split(":", 1)[0]
    return provider.removesuffix("-tools") or "_OTHER"


def _tokens(usage: dict[str, int] | None, names: tuple[str, ...]) -> int | None:
    if usage:
        for name in names:
            if name in usage:
                return usage[name]
    return None


class RunSpans:
    """The spans of one run, built event by event; each span ends (and is exported) once it is complete."""

    def __init__(self, tracer: Tracer, first: Event, *, capture_content: bool) -> None:
        from opentelemetry.context import Context
        from opentelemetry.trace import SpanKind

        self._tracer = tracer
        self._capture_content = capture_content
        self.run_id = first.run_id
        # The fold gives the final status; a live sink that joins a resumed run midway has
        # no start to fold from and reads the status off the terminal event instead.
        self._state: RunState | None = fold(()) if first.seq == 0 else None
        self._policy = ""
        self._copied_below = 0  # a fork's steps below this are copies of its parent's (Forked.at_step)
        self._step: Span | None = None
        self._step_number = -1
        self._step_end = 0
        self._tools: dict[str, Span] = {}
        self._last_ns = _ns(first.at)
        self._last_seq = first.seq
        self.ended = False
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "invoke_agent",
            "gen_ai.agent.name": AGENT_NAME,
            "gen_ai.agent.id": first.run_id,
            "gen_ai.conversation.id": first.run_id,
            "citeloop.run_id": first.run_id,
            "citeloop.seq": first.seq,
        }
        if first.seq > 0:
            attributes["citeloop.resumed"] = True  # this sink saw the run from this event on
        self._run = tracer.start_span(
            f"invoke_agent {AGENT_NAME}",
            context=Context(),  # a root: the tree depends on the log, not on the caller's context
            kind=SpanKind.INTERNAL,
            attributes=attributes,
            start_time=self._last_ns,
        )

    def feed(self, event: Event) -> None:
        """Take the run's next event: open, annotate or end spans."""
        at = _ns(event.at)
        self._last_ns = max(self._last_ns, at)
        self._last_seq = event.seq
        if self._state is not None:
            try:
                self._state = apply(self._state, event)
            except FoldError:  # a gap in what this sink saw: the terminal event will do
                self._state = None
        if getattr(event, "step", self._copied_below) < self._copied_below:
            return  # a fork's copy of its parent's steps: their spans are in the parent's trace
        match event:
            case RunStarted():
                if not self._policy:  # a fork's copied RunStarted names the parent's policy
                    self._policy = event.policy
                    self._run.set_attribute("citeloop.policy", event.policy)
                self._run.set_attribute("citeloop.max_steps", event.max_steps)
                if self._capture_content:
                    self._run.set_attribute("citeloop.question", redact_text(event.question))
            case Forked():
                self._policy = event.policy
                self._copied_below = event.at_step
                self._run.set_attributes(
                    {
                        "citeloop.parent_run_id": event.parent_run_id,
                        "citeloop.forked_at_step": event.at_step,
                        "citeloop.policy": event.policy,
                    }
                )
            case SourceAdmitted():
                self._run.add_event("citeloop.source_admitted", {"citeloop.seq": event.seq}, timestamp=at)
            case ActionParsed() | ParseRejected():
                self._chat(event, at)
            case ToolDispatched():
                self._tool_dispatched(event, at)
            case ToolObserved() | ToolOutcomeUnknown():
                self._tool_ended(event, at)
            case FinishRejected():
                self._in_step(event.step, at, event.seq).add_event(
                    "citeloop.finish_rejected", {"citeloop.seq": event.seq, "citeloop.code": event.code}, at
                )
            case ClaimAssessed():
                self._in_step(event.step, at, event.seq).add_event(
                    "citeloop.claim_assessed",
                    {
                        "citeloop.seq": event.seq,
                        "citeloop.verdict": event.verdict,
                        "citeloop.method": event.method,
                    },
                    at,
                )
            case Answered() | Abstained():
                self._end(event, at)

    def _in_step(self, step: int, at: int, seq: int) -> Span:
        """The span of `step`, opened at `at` when it is a new step (the previous one ends)."""
        from opentelemetry.trace import SpanKind, set_span_in_context

        if self._step is not None and step == self._step_number:
            self._step_end = max(self._step_end, at)
            return self._step
        self._end_step()
        self._step_number = step
        self._step_end = at
        self._step = self._tracer.start_span(
            "citeloop.step",
            context=set_span_in_context(self._run),
            kind=SpanKind.INTERNAL,
            attributes={"citeloop.run_id": self.run_id, "citeloop.seq": seq, "citeloop.step": step},
            start_time=at,
        )
        return self._step

    def _end_step(self) -> None:
        if self._step is not None:
            self._step.end(end_time=self._step_end)
            self._step = None

    def _child(self, name: str, kind: Any, attributes: dict[str, Any], start: int) -> Span:
        from opentelemetry.trace import set_span_in_context

        assert self._step is not None
        return self._tracer.start_span(
            name, context=set_span_in_context(self._step), kind=kind, attributes=attributes, start_time=start
        )

    def _chat(self, event: ActionParsed | ParseRejected, at: int) -> None:
        from opentelemetry.trace import SpanKind

        reply: PolicyReply = event.reply
        # The policy was called `latency_ms` before its reply was recorded.
        start = at - int(reply.latency_ms * 1_000_000) if reply.latency_ms is not None else at
        self._in_step(event.step, start, event.seq)
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "chat",
            "citeloop.run_id": self.run_id,
            "citeloop.seq": event.seq,
            "citeloop.step": event.step,
        }
        if self._policy:
            attributes["gen_ai.provider.name"] = _provider_name(self._policy)
        if reply.model is not None:
            attributes["gen_ai.request.model"] = reply.model
            attributes["gen_ai.response.model"] = reply.model
        for key, names in (
            ("gen_ai.usage.input_tokens", _INPUT_TOKENS),
            ("gen_ai.usage.output_tokens", _OUTPUT_TOKENS),
        ):
            count = _tokens(reply.usage, names)
            if count is not None:
                attributes[key] = count
        if reply.latency_ms is not None:
            attributes["citeloop.latency_ms"] = reply.latency_ms
        if isinstance(event, ParseRejected):
            attributes["citeloop.parse_rejected"] = event.code
        elif self._capture_content:
            attributes["citeloop.action"] = event.action.model_dump_json()
        name = f"chat {reply.model}" if reply.model else "chat"
        span = self._child(name, SpanKind.CLIENT, attributes, start)
        span.end(end_time=at)
        self._step_end = max(self._step_end, at)

    def _tool_attributes(self, event: ToolDispatched | ToolObserved | ToolOutcomeUnknown) -> dict[str, Any]:
        attributes: dict[str, Any] = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": event.tool,
            "gen_ai.tool.type": "function",
            "citeloop.run_id": self.run_id,
            "citeloop.seq": event.seq,
            "citeloop.step": event.step,
        }
        if event.call_id is not None:
            attributes["gen_ai.tool.call.id"] = event.call_id
        if self._capture_content:
            attributes["gen_ai.tool.call.arguments"] = redact_text(event.input)
        return attributes

    def _tool_dispatched(self, event: ToolDispatched, at: int) -> None:
        from opentelemetry.trace import SpanKind

        self._in_step(event.step, at, event.seq)
        attributes = self._tool_attributes(event)
        attributes["citeloop.tool.read_only"] = event.read_only
        self._tools[event.call_id] = self._child(
            f"execute_tool {event.tool}", SpanKind.INTERNAL, attributes, at
        )

    def _tool_ended(self, event: ToolObserved | ToolOutcomeUnknown, at: int) -> None:
        from opentelemetry.trace import SpanKind, Status, StatusCode

        step = self._in_step(event.step, at, event.seq)
        span = self._tools.pop(event.call_id, None) if event.call_id is not None else None
        if span is None:
            if isinstance(event, ToolObserved) and event.call_id is None:
                # A repeated search answered from the log: no tool ran.
                step.add_event("citeloop.answered_from_log", {"gen_ai.tool.name": event.tool}, at)
                return
            # A dispatch this sink did not see (made before a resume): the span is the observation.
            span = self._child(
                f"execute_tool {event.tool}", SpanKind.INTERNAL, self._tool_attributes(event), at
            )
            span.set_attribute("citeloop.resumed", True)
        span.set_attribute("citeloop.end_seq", event.seq)
        if isinstance(event, ToolOutcomeUnknown):
            span.set_attribute("citeloop.tool.outcome", "outcome_unknown")
        else:
            observation = event.observation
            span.set_attribute("citeloop.tool.outcome", observation.kind)
            if isinstance(observation, ToolError):
                span.set_attributes(
                    {"citeloop.tool.error_code": observation.code, "error.type": observation.code}
                )
                span.set_status(Status(StatusCode.ERROR, observation.code))
        span.end(end_time=at)

    def _end(self, event: Answered | Abstained, at: int) -> None:
        from opentelemetry.trace import Status, StatusCode

        if self._step is not None and event.step == self._step_number:
            self._step_end = max(self._step_end, at)
        self._close_tools(at)
        self._end_step()
        status = self._state.status if self._state is not None else _status_of(event)
        attributes: dict[str, Any] = {"citeloop.status": status, "citeloop.end_seq": event.seq}
        if isinstance(event, Answered):
            attributes["citeloop.citations"] = len(event.citations)
            if self._capture_content:
                attributes["citeloop.answer"] = redact_text(event.answer)
        else:
            attributes["citeloop.abstain_reason"] = event.reason
        if self._state is not None:
            attributes["citeloop.steps"] = self._state.steps
        self._run.set_attributes(attributes)
        if status == "failed":
            self._run.set_attribute("error.type", event.reason if isinstance(event, Abstained) else status)
            self._run.set_status(Status(StatusCode.ERROR, status))
        self._run.end(end_time=at)
        self.ended = True

    def _close_tools(self, at: int) -> None:
        for span in self._tools.values():
            span.set_attribute("citeloop.tool.outcome", "not_observed")
            span.end(end_time=at)
        self._tools.clear()

    def finish(self, *, evicted: bool = False) -> None:
        """End a run that has no terminal event (yet): its spans end at its last event.

        `evicted`: the sink let the run go to bound its memory (`OtelSink`, `max_open_runs`).
        """
        if self.ended:
            return
        self._close_tools(self._last_ns)
        self._end_step()
        status = self._state.status if self._state is not None else "running"
        self._run.set_attributes({"citeloop.status": status, "citeloop.end_seq": self._last_seq})
        if evicted:
            self._run.set_attribute("citeloop.evicted", True)
        self._run.end(end_time=self._last_ns)
        self.ended = True


def _status_of(event: Answered | Abstained) -> str:
    # Only when the fold is not at hand (runtime/_state.py derives it otherwise).
    if isinstance(event, Answered):
        return "answered"
    if event.reason == "cancelled":
        return "cancelled"
    return "failed" if event.reason == "policy_error" else "abstained"
