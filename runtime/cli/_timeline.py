"""A stored run as a timeline: per step the thought, the action, what came back, and the gate's verdict.

Pure: built from the events alone, so `citeloop show` dispatches nothing and calls no policy.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, assert_never

from citeloop.events import (
    Abstained,
    ActionParsed,
    AlreadySearched,
    Answered,
    CallTool,
    Event,
    Finish,
    FinishRejected,
    Observation,
    Page,
    ParseRejected,
    RunStarted,
    SearchHits,
    Text,
    ToolDispatched,
    ToolError,
    ToolObserved,
    ToolOutcomeUnknown,
)
from citeloop.runtime import fold

_LINE = 100


def _cut(text: str, limit: int = _LINE) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def summarize(observation: Observation) -> str:
    """One line saying what a tool returned (never the whole page body)."""
    match observation:
        case SearchHits() | AlreadySearched():
            prefix = "already searched: " if isinstance(observation, AlreadySearched) else ""
            if not observation.hits:
                return f"{prefix}no hits"
            urls = ", ".join(hit.url for hit in observation.hits[:3])
            more = f" (+{len(observation.hits) - 3} more)" if len(observation.hits) > 3 else ""
            noun = "hit" if len(observation.hits) == 1 else "hits"
            return f"{prefix}{len(observation.hits)} {noun}: {urls}{more}"
        case Page():
            return (
                f'opened {observation.url} "{_cut(observation.title, 40)}" '
                f"({len(observation.body)} chars, sha256 {observation.sha256[:12]})"
            )
        case ToolError():
            where = f" {observation.url}" if observation.url else ""
            detail = f": {_cut(observation.message, 60)}" if observation.message else ""
            return f"error {observation.code}{where}{detail}"
        case Text():
            return f"text: {_cut(observation.text, 80)}"
        case _:
            assert_never(observation)


def describe_action(action: CallTool | Finish) -> str:
    """The action on one line: `search("...")`, `open("...")`, or the finish payload."""
    if isinstance(action, CallTool):
        return f"{action.tool}({json.dumps(action.input, ensure_ascii=False)})"
    return "finish " + _cut(json.dumps(action.payload, ensure_ascii=False), 160)


@dataclass
class Step:
    """One step of the timeline; `verdict` is the parser's or the gate's decision, if any."""

    step: int
    thought: str = ""
    action: str = ""
    observation: str = ""
    verdict: str = ""
    seqs: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Timeline:
    """A run's question, status and steps, read off its events."""

    run_id: str
    question: str
    policy: str
    status: str
    events: int
    steps: tuple[Step, ...]
    outcome: str
    reason: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "question": self.question,
            "policy": self.policy,
            "status": self.status,
            "events": self.events,
            "outcome": self.outcome,
            "reason": self.reason,
            "steps": [step.to_json() for step in self.steps],
        }


def _row(events: tuple[Event, ...]) -> Step:
    """One step of the fold's `by_step` as a timeline row."""
    row = Step(events[0].step)  # type: ignore[union-attr]  # the fold never groups RunStarted
    for event in events:
        match event:
            case ActionParsed():
                row.thought = event.thought
                row.action = describe_action(event.action)
                if isinstance(event.action, CallTool):
                    row.verdict = "parsed"
            case ParseRejected():
                row.action = _cut(event.reply.text or json.dumps(event.reply.structured), 120)
                row.verdict = f"protocol error: {event.code}" + (f" ({event.detail})" if event.detail else "")
            case ToolObserved():
                row.observation = summarize(event.observation)
            case ToolOutcomeUnknown():
                row.observation = f"outcome unknown: {event.tool}({event.input!r}) was not run again"
            case FinishRejected():
                row.verdict = f"finish rejected: {event.code}"
            case Answered():
                row.verdict = "accepted: answered"
            case Abstained():
                row.verdict = f"abstained: {event.reason}"
            case RunStarted() | ToolDispatched():
                pass
            case _:
                assert_never(event)
        row.seqs.append(event.seq)
    return row


def build_timeline(events: Sequence[Event]) -> Timeline:
    """A run's steps as the fold groups them (one fold, shared with the loop and the policy's view)."""
    state = fold(events)
    outcome = state.outcome
    return Timeline(
        run_id=state.run_id,
        question=state.question,
        policy=state.policy,
        status=state.status,
        events=len(events),
        steps=tuple(_row(group) for group in state.by_step),
        outcome=outcome.answer if outcome is not None else "",
        reason=outcome.reason if isinstance(outcome, Abstained) else None,
    )
