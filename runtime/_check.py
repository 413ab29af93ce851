"""`check`: replay a stored run through today's decisions, and report where they now differ.

Like Temporal's replayer: the recorded inputs (the policy's replies, the tools'
observations) are fed, in log order, to the same pure functions the driver uses
(runtime/_decide.py), and what they return is compared with what was recorded, event by
event — terminal events included. An `Answered` that no finish decided, an answer edited
after the fact, an event after the end, a page whose body no longer matches its digest:
each is a divergence. So is a break of the log's hash chain (docs/events.md); the report
says whether the run is chained at all. Nothing is dispatched, no policy is called.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from citeloop.events import (
    Abstained,
    ActionParsed,
    Answered,
    Calculation,
    ChainStatus,
    ClaimAssessed,
    Event,
    FinishRejected,
    Forked,
    Page,
    ParseRejected,
    RunStarted,
    SourceAdmitted,
    Support,
    TextRepresentation,
    ToolDispatched,
    ToolObserved,
    ToolOutcomeUnknown,
    ToolSpec,
    UsageError,
    admitted_class_problem,
    chain_hash,
    encode_event,
    run_started,
    verify_chain,
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
from ._fold import FoldError, fold
from ._fork import decide_fork
from ._limits import DEFAULT_LIMITS, Limits
from ._state import RunState
from ._support import SUPPORT_METHODS, SupportMethod

# The calculate tool's rules that a calculation recorded without `rules` was made under.
LEGACY_CALCULATE_RULES = 1

DivergenceKind = Literal[
    "parse",  # today's parser reads a recorded reply differently
    "gate",  # today's gate gives a finish another verdict
    "locators",  # an accepted answer's locators are not where today's code puts them
    "answer",  # a recorded answer, its citations, evidence or digest differ from its finish
    "dispatch",  # a recorded dispatch or observation differs from what its action decides
    "recovery",  # what a stopped process's dispatch became differs from today's rule
    "digest",  # an opened page's body no longer matches its recorded sha256
    "unexplained",  # an event that no recorded input decides (a forged or spliced log)
    "incomplete",  # the log ends (or the next event differs) where a decision had more to record
    "sequence",  # events that cannot belong to one run in this order
    "chain",  # an event does not name the sha256 of its predecessor (an edited, spliced or forged log)
    "lineage",  # a fork's copied prefix or its Forked is not what its parent's log gives
]


@dataclass(frozen=True, slots=True)
class Divergence:
    """One step where today's code decides differently from what the log recorded."""

    seq: int
    step: int
    kind: DivergenceKind
    recorded: str
    today: str


# What `check` could say of a run's lineage: "unforked" (not a fork), "checked" (its parent's
# log was given: its `Forked` and copied prefix were judged against it, any difference being a
# `lineage` divergence) or "parent_missing" (a fork whose parent's log is not in the store: its
# lineage could not be checked, which is said, not taken as agreement).
LineageStatus = Literal["unforked", "checked", "parent_missing"]


@dataclass(frozen=True, slots=True)
class CheckReport:
    """The result of `check`: empty `divergences` means today's code agrees with the log.

    `lineage` says whether a fork's lineage was checked (`LineageStatus`): a fork whose
    parent is missing has nothing to diverge from there, but is reported `parent_missing`.
    """

    run_id: str
    events: int
    divergences: tuple[Divergence, ...] = field(default=())
    # "chained", "unchained" (written before the chain: nothing to check) or "broken".
    chain: ChainStatus = "unchained"
    lineage: LineageStatus = "unforked"

    @property
    def ok(self) -> bool:
        return not self.divergences

    @property
    def chained(self) -> bool:
        """Whether the run carries a hash chain at all (a broken one included)."""
        return self.chain != "unchained"

    def to_json(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "events": self.events,
            "ok": self.ok,
            "chain": self.chain,
            "lineage": self.lineage,
            "divergences": [
                {"seq": d.seq, "step": d.step, "kind": d.kind, "recorded": d.recorded, "today": d.today}
                for d in self.divergences
            ],
        }


def _step(event: Event) -> int:
    return event.step if not isinstance(event, RunStarted) else 0


def _describe(event: Event) -> str:
    """An event as a divergence report names it: the decision, not its timestamp."""
    match event:
        case ParseRejected():
            return f"rejected: {event.code}"
        case ActionParsed():
            return f"action: {event.action.model_dump_json()}"
        case FinishRejected():
            return f"rejected: {event.code}{_verdicts(event.support)}"
        case Answered():
            return f"accepted{_verdicts(event.support)}"
        case Abstained():
            return f"abstained: {event.reason}"
        case ToolDispatched():
            return f"dispatch {event.call_id} {event.tool}({event.input!r}) read_only={event.read_only}"
        case ToolObserved():
            return f"observed {event.tool}({event.input!r}): {event.observation.kind}"
        case ToolOutcomeUnknown():
            return f"outcome unknown: {event.tool}({event.input!r})"
        case RunStarted():
            return "run started"
        case ClaimAssessed():
            return f"claim {event.index}: {event.verdict} ({event.method}: {event.detail})"
        case Forked():
            return f"forked from {event.parent_run_id} at step {event.at_step}"
    return event.type


def _verdicts(support: tuple[Support, ...]) -> str:
    if not support:
        return ""
    return " (" + ", ".join(f"{verdict.method}: {verdict.verdict}" for verdict in support) + ")"


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


class _Replay:
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
        self.found.append(Divergence(event.seq, _step(event), kind, recorded, today))

    @property
    def _table(self) -> Mapping[str, ToolSpec]:
        return self._tools if self._tools is not None else self.state.tools

    def take(self, event: Event) -> bool:
        """Judge one recorded event, then fold it in; False when the rest cannot be judged."""
        if self.state.outcome is not None:
            self._note(event, "unexplained", _describe(event), "nothing: the run had ended")
        elif self._expected:
            self._compare(event, self._expected.popleft())
        elif self.state.next_seq > 0 and not _opens_fork(event, self.state):
            self._predict(event)
        if isinstance(event, ToolObserved) and isinstance(event.observation, Page):
            self._check_digest(event, event.observation)
        try:
            self.state = fold((event,), self.state)
        except FoldError as exc:
            self._note(event, "sequence", _describe(event), str(exc))
            return False
        return True

    def finish(self, events: Sequence[Event]) -> None:
        if self._expected and events:
            missing = ", ".join(_describe(event) for event in self._expected)
            self._note(events[-1], "incomplete", "the log ends here", f"also: {missing}")
        if events and run_started(events) is None:
            first, opens = events[0], "a log begins with RunStarted (or Forked, then RunStarted)"
            self._note(first, "unexplained", _describe(first), opens)

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
                    self._note(event, "parse", _describe(event), _describe(decided[0]))
                    return
                self._expected.extend(decided[1:])
            case ToolObserved() | ToolOutcomeUnknown() if event.call_id in state.pending:
                assert event.call_id is not None
                dispatched = state.pending[event.call_id]
                if isinstance(event, ToolObserved):
                    observation, limits = event.observation, self._limits
                    self._expect(event, decide_observation(state, dispatched, observation, at, limits=limits))
                elif needs_rerun(dispatched, table):
                    self._note(event, "recovery", _describe(event), f"run {dispatched.tool} again: read-only")
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
                    self._note(event, "unexplained", _describe(event), rounds)
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
                self._note(event, "unexplained", _describe(event), f"no recorded input decides it ({move})")

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
            self._note(event, "gate", _describe(event), _describe(today))
        else:
            self._note(event, "dispatch", _describe(event), _describe(today))
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


def _lineage(events: Sequence[Event], parent: Sequence[Event]) -> list[Divergence]:
    """Where a fork's first batch differs from what `decide_fork` derives from its parent's log."""
    forked = events[0]
    assert isinstance(forked, Forked)
    said = f"forked from {forked.parent_run_id} at step {forked.at_step}"
    head = _parent_head(forked, parent)
    found: list[Divergence] = [] if head is None else [head]
    try:
        today = decide_fork(parent, forked.run_id, at_step=forked.at_step, policy=forked.policy, at=forked.at)
    except UsageError as exc:
        return [*found, Divergence(0, 0, "lineage", said, f"the parent cannot be forked there: {exc}")]
    for recorded, derived in zip(events, today, strict=False):
        if head is not None and isinstance(derived, Forked):
            continue  # the Forked differs in its parent_head: said above, in plain words
        if recorded.model_copy(update={"prev": derived.prev}) != derived:
            copy = said if isinstance(derived, Forked) else f"the parent's copy: {_describe(derived)}"
            found.append(Divergence(recorded.seq, _step(recorded), "lineage", _describe(recorded), copy))
    if len(events) < len(today):
        last, missing = events[-1], f"{len(today) - len(events)} more copied events"
        found.append(Divergence(last.seq, _step(last), "lineage", "the log ends here", missing))
    return found


def _parent_head(forked: Forked, parent: Sequence[Event]) -> Divergence | None:
    """A `lineage` divergence when the parent's event at `parent_seq` is missing or hashes otherwise."""
    recorded = f"the parent's event at seq {forked.parent_seq} hashes to {forked.parent_head}"
    point = next((event for event in parent if event.seq == forked.parent_seq), None)
    if point is None:
        last = parent[-1].seq if parent else -1
        return Divergence(
            0,
            0,
            "lineage",
            recorded,
            f"the parent has no event at seq {forked.parent_seq} (its last is {last})",
        )
    actual = chain_hash(encode_event(point))
    if actual != forked.parent_head:
        return Divergence(
            0, 0, "lineage", recorded, f"the parent's event at seq {forked.parent_seq} hashes to {actual}"
        )
    return None


def check_events(
    events: Sequence[Event],
    tools: Mapping[str, ToolSpec] | None = None,
    *,
    limits: Limits = DEFAULT_LIMITS,
    support_methods: Mapping[str, SupportMethod] = SUPPORT_METHODS,
    parent: Sequence[Event] | None = None,
) -> CheckReport:
    """Replay `events` (one run's whole log) through today's decisions and report every difference.

    `tools` is the tool table to judge dispatches and recovery by (what each tool
    declares today); by default, the table the run recorded when it started. `limits`
    are the caps to judge recorded replies and pages by: a cut is replayed identically
    under caps at least as large as those the run was recorded with. `support_methods` are
    the support methods by name (the built-in ones by default): a run's finishes are judged
    by the methods its `RunStarted` names, so a run recorded with a method of your own
    needs it here too. `parent`, for a forked run, is its parent's log: the parent's event at
    the fork's `parent_seq` must hash to its `parent_head`, and the fork's copied prefix must
    be what that log gives (`decide_fork`), or it is a `lineage` divergence. A fork checked
    without its parent's log (None or empty: the store does not hold it) is reported
    `lineage="parent_missing"`: what it copied is replayed like any log, but where it came
    from is unchecked.
    """
    replay = _Replay(tools, limits, support_methods)
    for event in events:
        if not replay.take(event):
            break
    replay.finish(events)
    verdict = verify_chain(events)
    found = replay.found
    lineage: LineageStatus = "unforked"
    if events and isinstance(events[0], Forked):
        lineage = "checked" if parent else "parent_missing"
    if parent and lineage == "checked":
        found.extend(_lineage(events, parent))
        found.sort(key=lambda divergence: divergence.seq)
    if verdict.seq is not None:
        broken = events[verdict.seq]
        link = "prev = sha256 of the previous event"
        found.append(Divergence(broken.seq, _step(broken), "chain", verdict.reason, link))
        found.sort(key=lambda divergence: divergence.seq)  # stable: the replay's own order otherwise
    run_id = events[0].run_id if events else ""
    return CheckReport(
        run_id=run_id, events=len(events), divergences=tuple(found), chain=verdict.status, lineage=lineage
    )
