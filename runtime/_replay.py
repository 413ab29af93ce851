"""The replay `check` walks a run's log with, event by event (runtime/_check.py).

Each recorded input (a policy reply, a tool's observation) is fed to the same pure
decisions the driver uses (runtime/_decide.py), and what they return is compared with
the events recorded after it; every difference is noted as a `Divergence`.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Mapping, Sequence

from citeloop.events import (
    Abstained,
    ActionParsed,
    Answered,
    Calculation,
    ClaimAssessed,
    Event,
    FinishRejected,
    Page,
    ParseRejected,
    RunStarted,
    SourceAdmitted,
    TextRepresentation,
    ToolObserved,
    ToolOutcomeUnknown,
    ToolSpec,
    admitted_class_problem,
    run_started,
)

from ._check_report import predict_report_round
from ._decide import (
    decide_action,
    decide_budget,
    decide_observation,
    decide_reply,
    decide_unknown_outcome,
    needs_rerun,
    next_move,
)
from ._divergence import Divergence, DivergenceKind, describe_event, event_step
from ._fold import FoldError, fold
from ._limits import Limits
from ._state import RunState
from ._support import SupportMethod

# The calculate tool's rules that a calculation recorded without `rules` was made under.
LEGACY_CALCULATE_RULES = 1


def _same(recorded: Event, today: Event) -> bool:
    """Equal in everything but the time of day and the chain link (a replay knows neither)."""
    if (
        isinstance(recorded, Answered)
        and isinstance(today, Answered)
        and not recorded.evidence_classes
        and all(evidence_class == "retrieved" for evidence_class in today.evidence_classes)
    ):
        # Written before classes were recorded: all of its evidence was retrieved then.
        today = today.model_copy(update={"evidence_classes": ()})
    if (
        isinstance(recorded, ToolObserved)
        and isinstance(recorded.observation, Calculation)
        and recorded.observation.rules is None
    ):
        # Written before the calculate tool's rules were numbered: it holds citeloop's
        # version instead, and is judged as made under rules 1 (the rules of that time).
        legacy = recorded.observation.model_copy(update={"rules": LEGACY_CALCULATE_RULES, "version": None})
        recorded = recorded.model_copy(update={"observation": legacy})
    return recorded.model_copy(update={"at": today.at, "prev": today.prev}) == today


class Replay:
    """Walks one run's log, predicting each event from the recorded inputs before it."""

    def __init__(
        self, tools: Mapping[str, ToolSpec] | None, limits: Limits, methods: Mapping[str, SupportMethod]
    ) -> None:
        self._tools = tools
        self._limits = limits
        self._methods = methods
        self.state = RunState()
        self.found: list[Divergence] = []
        self._expected: deque[Event] = deque()

    def _note(self, event: Event, kind: DivergenceKind, recorded: str, today: str) -> None:
        self.found.append(Divergence(event.seq, event_step(event), kind, recorded, today))

    @property
    def _table(self) -> Mapping[str, ToolSpec]:
        return self._tools if self._tools is not None else self.state.tools

    def take(self, event: Event) -> bool:
        """Judge one recorded event, then fold it in; False when the rest cannot be judged."""
        if self.state.outcome is not None:
            self._note(event, "unexplained", describe_event(event), "nothing: the run had ended")
        elif self._expected:
            self._compare(event, self._expected.popleft())
        elif self.state.next_seq > 0 and not _opens_fork(event, self.state):
            self._predict(event)
        if isinstance(event, ToolObserved) and isinstance(event.observation, Page):
            self._check_digest(event, event.observation)
        try:
            self.state = fold((event,), self.state)
        except FoldError as exc:
            self._note(event, "sequence", describe_event(event), str(exc))
            return False
        return True

    def finish(self, events: Sequence[Event]) -> None:
        if self._expected and events:
            missing = ", ".join(describe_event(event) for event in self._expected)
            self._note(events[-1], "incomplete", "the log ends here", f"also: {missing}")
        if events and run_started(events) is None:
            first, opens = events[0], "a log begins with RunStarted (or Forked, then RunStarted)"
            self._note(first, "unexplained", describe_event(first), opens)

    def _predict(self, event: Event) -> None:
        """Start a new decision at `event`: derive it from its recorded input and compare."""
        state, at, table = self.state, event.at, self._table
        move = next_move(state)
        match event:
            case ActionParsed() | ParseRejected() if move == "ask_policy":
                decided = decide_reply(
                    state, event.reply, table, at, limits=self._limits, support_methods=self._methods
                )
                if not _same(event, decided[0]):
                    self._note(event, "parse", describe_event(event), describe_event(decided[0]))
                    return
                self._expected.extend(decided[1:])
            case ToolObserved() | ToolOutcomeUnknown() if event.call_id in state.pending:
                assert event.call_id is not None
                dispatched = state.pending[event.call_id]
                if isinstance(event, ToolObserved):
                    observation, limits = event.observation, self._limits
                    self._expect(event, decide_observation(state, dispatched, observation, at, limits=limits))
                elif needs_rerun(dispatched, table):
                    self._note(
                        event, "recovery", describe_event(event), f"run {dispatched.tool} again: read-only"
                    )
                else:
                    self._expect(event, decide_unknown_outcome(state, dispatched, at))
            case SourceAdmitted() if _in_start_batch(event, state):
                # Read from a file when the run started: nothing to re-derive it from but its
                # own text, whose digest is checked (`_check_source`).
                self._check_source(event)
            case Abstained() if event.reason in _OUTSIDE_REASONS and event.step == state.steps:
                # Decided outside the log (a failing policy, a cancellation): nothing to
                # re-derive, but it stands where a run could end that way.
                pass
            case _ if move == "report":
                rounds = predict_report_round(state, event, table)
                if isinstance(rounds, str):
                    self._note(event, "unexplained", describe_event(event), rounds)
                else:
                    self._expect(event, rounds)
            case _ if move == "budget":
                self._expect(event, decide_budget(state, at))
            case _ if move == "carry_out":
                # An action recorded without its consequence (a stopped process): carried out next.
                parsed = state.unhandled
                assert parsed is not None
                step, action, methods = parsed.step, parsed.action, self._methods
                self._expect(event, decide_action(state, step, action, table, at, support_methods=methods))
            case _:
                self._note(
                    event, "unexplained", describe_event(event), f"no recorded input decides it ({move})"
                )

    def _expect(self, event: Event, decided: list[Event]) -> None:
        """Compare `event` with the first event of a decision; the rest must follow it."""
        if self._compare(event, decided[0]):
            self._expected.extend(decided[1:])

    def _compare(self, event: Event, today: Event) -> bool:
        if _same(event, today):
            return True
        self._expected.clear()  # what a decision records after a difference cannot be compared
        if isinstance(event, Answered) and isinstance(today, Answered):
            self._compare_answers(event, today)
        elif _is_verdict(event) or _is_verdict(today):
            self._note(event, "gate", describe_event(event), describe_event(today))
        else:
            self._note(event, "dispatch", describe_event(event), describe_event(today))
        return False

    def _compare_answers(self, recorded: Answered, today: Answered) -> None:
        if (
            recorded.locators != today.locators
            and recorded.model_copy(update={"at": today.at, "prev": today.prev, "locators": today.locators})
            == today
        ):
            self._note(
                recorded,
                "locators",
                repr([(loc.url, loc.start, loc.end) for loc in recorded.locators]),
                repr([(loc.url, loc.start, loc.end) for loc in today.locators]),
            )
            return
        fields: tuple[str, ...] = ("answer", "citations", "evidence", "answer_sha256", "locators", "support")
        fields += ("step", "evidence_classes", "gaps")
        differ = [name for name in fields if getattr(recorded, name) != getattr(today, name)]
        self._note(recorded, "answer", f"recorded {', '.join(differ)}", "what the recorded finish gives")

    def _check_source(self, event: SourceAdmitted) -> None:
        source = event.source
        problem = admitted_class_problem(source.evidence_class, source.representation.kind)
        if problem is not None:
            # No admission gives a source this class (tools/_attachments.py refuses it): forged.
            recorded = f"source {source.id} admitted as {source.evidence_class}"
            self._note(event, "unexplained", recorded, f"no admission records it: {problem}")
        text = source.representation
        if isinstance(text, TextRepresentation):
            digest = hashlib.sha256(text.text.encode("utf-8")).hexdigest()
            if digest != text.sha256:
                self._note(event, "digest", text.sha256, digest)

    def _check_digest(self, event: ToolObserved, page: Page) -> None:
        digest = hashlib.sha256(page.body.encode("utf-8")).hexdigest()
        if digest != page.sha256:
            self._note(event, "digest", page.sha256, digest)


_OUTSIDE_REASONS = frozenset({"policy_error", "cancelled"})


def _in_start_batch(event: SourceAdmitted, state: RunState) -> bool:
    """An attachment recorded where a run admits them: at step 0, before any step, under a new id."""
    return event.step == 0 and not state.by_step and event.source.id not in state.sources


def _is_verdict(event: Event) -> bool:
    return isinstance(event, FinishRejected | Answered | Abstained | ClaimAssessed)


def _opens_fork(event: Event, state: RunState) -> bool:
    """A forked run's `RunStarted` (seq 1, after its `Forked`): it starts the run, nothing decides it."""
    return isinstance(event, RunStarted) and state.next_seq == 1 and bool(state.parent_run_id)
