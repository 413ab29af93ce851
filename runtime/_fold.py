"""The fold: a run's state is a pure function of its events (no I/O, clock or randomness)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import TypeVar, assert_never

from citeloop.events import (
    Abstained,
    ActionParsed,
    AlreadySearched,
    Answered,
    Event,
    FinishRejected,
    Hit,
    Page,
    ParseRejected,
    RunStarted,
    SearchHits,
    Text,
    ToolDispatched,
    ToolError,
    ToolObserved,
    ToolOutcomeUnknown,
    ToolSpec,
)

from ._state import OpenedPage, RunState, normalize_query

_V = TypeVar("_V")


class FoldError(ValueError):
    """Raised when events cannot belong to one run (wrong run id, a seq out of order)."""


class _Builder:
    """Mutable scratch space so folding n events costs O(n), not O(n^2) copies of the maps.

    The maps are copied on first write only: folding one event into a state (the loop
    does it on every append) copies just the map that event changes.
    """

    def __init__(self, state: RunState) -> None:
        self.state = state
        self.tools: Mapping[str, ToolSpec] = state.tools
        self._opened: Mapping[str, OpenedPage] = state.opened
        self._searched: Mapping[str, tuple[Hit, ...]] = state.searched
        self._pending: Mapping[str, ToolDispatched] = state.pending
        self._owned: set[str] = set()
        self.steps = state.steps
        self.open_attempts = state.open_attempts
        self.open_failures = state.open_failures
        self.hits_seen = state.hits_seen
        self.rejections = state.rejections
        self.parse_rejections = state.parse_rejections
        self.next_seq = state.next_seq
        self.outcome = state.outcome
        self.unhandled = state.unhandled

    @property
    def opened(self) -> dict[str, OpenedPage]:
        if "opened" not in self._owned:
            self._opened = dict(self._opened)
            self._owned.add("opened")
        return self._opened  # type: ignore[return-value]

    @property
    def searched(self) -> dict[str, tuple[Hit, ...]]:
        if "searched" not in self._owned:
            self._searched = dict(self._searched)
            self._owned.add("searched")
        return self._searched  # type: ignore[return-value]

    @property
    def pending(self) -> dict[str, ToolDispatched]:
        if "pending" not in self._owned:
            self._pending = dict(self._pending)
            self._owned.add("pending")
        return self._pending  # type: ignore[return-value]

    def apply(self, event: Event) -> None:
        if event.seq != self.next_seq:
            raise FoldError(f"expected seq {self.next_seq}, got {event.seq} ({event.type})")
        if self.next_seq and event.run_id != self.state.run_id:
            raise FoldError(f"event of run {event.run_id!r} in run {self.state.run_id!r}")
        self.next_seq += 1
        match event:
            case RunStarted():
                self.state = replace(
                    self.state,
                    run_id=event.run_id,
                    question=event.question,
                    max_steps=event.max_steps,
                    allowlist=event.allowlist,
                    policy=event.policy,
                )
                self.tools = MappingProxyType({spec.name: spec for spec in event.tools})
            case ActionParsed():
                self.steps += 1
                self.unhandled = event
            case ParseRejected():
                self.steps += 1
                self.parse_rejections += 1
            case ToolDispatched():
                self.unhandled = None
                self.pending[event.call_id] = event
            case ToolObserved():
                self.unhandled = None
                if event.call_id is not None:
                    self.pending.pop(event.call_id, None)
                self._observe(event)
            case ToolOutcomeUnknown():
                self.pending.pop(event.call_id, None)
            case FinishRejected():
                self.unhandled = None
                self.rejections += 1
            case Answered() | Abstained():
                self.unhandled = None
                self.outcome = event
            case _:
                assert_never(event)

    def _observe(self, event: ToolObserved) -> None:
        observation = event.observation
        match observation:
            case SearchHits():
                self.searched[normalize_query(observation.query)] = observation.hits
                self.hits_seen += len(observation.hits)
            case AlreadySearched() | Text():
                pass
            case Page():
                self.open_attempts += 1
                self.opened[observation.url] = OpenedPage(
                    url=observation.url,
                    title=observation.title,
                    body=observation.body,
                    sha256=observation.sha256,
                )
            case ToolError():
                if event.tool == "open":
                    self.open_attempts += 1
                    self.open_failures += 1
            case _:
                assert_never(observation)

    def freeze(self) -> RunState:
        def frozen(name: str, mapping: Mapping[str, _V]) -> Mapping[str, _V]:
            return MappingProxyType(mapping) if name in self._owned else mapping

        base = self.state
        return RunState(
            run_id=base.run_id,
            question=base.question,
            max_steps=base.max_steps,
            allowlist=base.allowlist,
            tools=self.tools,
            policy=base.policy,
            opened=frozen("opened", self._opened),
            searched=frozen("searched", self._searched),
            pending=frozen("pending", self._pending),
            next_seq=self.next_seq,
            outcome=self.outcome,
            unhandled=self.unhandled,
            steps=self.steps,
            open_attempts=self.open_attempts,
            open_failures=self.open_failures,
            hits_seen=self.hits_seen,
            rejections=self.rejections,
            parse_rejections=self.parse_rejections,
        )


def fold(events: Iterable[Event], state: RunState | None = None) -> RunState:
    """Fold events into a run state, starting from `state` (a fresh run by default).

    `fold(a + b) == fold(b, fold(a))` for every split of a run's log.
    """
    builder = _Builder(state if state is not None else RunState())
    for event in events:
        builder.apply(event)
    return builder.freeze()


def apply(state: RunState, event: Event) -> RunState:
    """One step of the fold."""
    return fold((event,), state)
