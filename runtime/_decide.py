"""The loop's decisions as pure functions: (folded state, next input) -> the events to append.

The driver (runtime/_driver.py) does the I/O around these functions — it asks the
policy, runs tools, appends — and `check` (runtime/_check.py) replays a stored log
through the very same functions and compares what they return with what was recorded,
event by event. A decision therefore exists once: a forged or edited log cannot pass
`check` by disagreeing with a second copy of the rules.

Every function is pure: no I/O, no clock (the caller passes `at`), no randomness. The
`tools` argument is the tool table the caller trusts today (name -> `ToolSpec`); a
run's log records the table it started with, but a tool's own declaration wins over
the log (docs/events.md, "resume"). The gate's verdict on a finish is decided in
runtime/_decide_finish.py, reached only through `decide_action` here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal, TypeAlias

from citeloop.events import (
    Abstained,
    AbstainReason,
    Action,
    ActionParsed,
    AdmittedSource,
    AlreadySearched,
    Answered,
    Calculation,
    CallTool,
    CsvRepresentation,
    Event,
    Finish,
    Observation,
    ParseRejected,
    PolicyReply,
    ReportRules,
    RunStarted,
    SourceAdmitted,
    ToolDispatched,
    ToolError,
    ToolObserved,
    ToolOutcomeUnknown,
    ToolSpec,
    WorkbookRepresentation,
)
from citeloop.policies import Rejected, parse_policy_reply

from ._calculate import CALCULATE_TOOL, calculate
from ._decide_finish import decide_finish
from ._limits import DEFAULT_LIMITS, Limits, cap_observation, cap_reply, reply_chars
from ._research_end import decide_research_end, in_research, research_verdict
from ._state import RunState, normalize_query
from ._support import SUPPORT_METHODS, SupportMethod

ToolTable: TypeAlias = Mapping[str, ToolSpec]

# What the loop does next, read off the fold alone.
NextMove: TypeAlias = Literal["done", "recover", "carry_out", "budget", "ask_policy", "report"]

BUDGET_ANSWER = "cannot: the step budget ({max_steps}) ran out before a grounded answer"
CANCELLED_ANSWER = "cannot: the run was cancelled"
# The parse code of a reply over the cap: checked before the parser's own codes (docs/protocol.md).
REPLY_TOO_LONG = "too_long"


def next_move(state: RunState) -> NextMove:
    """The loop's next move: the order here is the order in which a run's obligations are met."""
    if state.outcome is not None:
        return "done"
    if state.pending:
        return "recover"  # a dispatch with no observation: only a stopped process leaves one
    if state.unhandled is not None:
        return "carry_out"  # a parsed action with no consequence recorded: never ask again
    report = state.report
    if report is not None and report.research is not None:
        return "report"  # the research is over: runtime/_report_decide.py routes the rest
    if state.budget_spent:
        return "budget"
    return "ask_policy"


def decide_start(
    run_id: str,
    question: str,
    *,
    max_steps: int,
    allowlist: tuple[str, ...],
    policy: str,
    tools: ToolTable,
    at: datetime,
    support: tuple[str, ...] = (),
    plan: tuple[str, ...] = (),
    sources: Sequence[AdmittedSource] = (),
    report: ReportRules | None = None,
) -> RunStarted:
    """The first event of a run: the question and the rules it will be held to.

    `support` names the support methods its positive finishes are held to (none by default).
    `plan` is the research plan: the items a complete answer settles (docs/evidence.md, "Completion").
    `sources` are the attachments admitted for the run (read by the caller: this stays pure);
    they follow as `decide_sources`. `report` makes it a report run (docs/reports.md).
    """
    tables = (WorkbookRepresentation, CsvRepresentation)
    if any(isinstance(source.representation, tables) for source in sources):
        # The one place `calculate` is offered: a run that admitted a table (docs/evidence.md).
        # It is answered from the log, never dispatched, hence read-only.
        tools = {**tools, CALCULATE_TOOL: ToolSpec(name=CALCULATE_TOOL, read_only=True)}
        if CALCULATE_TOOL not in allowlist:
            cut = allowlist.index("finish") if "finish" in allowlist else len(allowlist)
            allowlist = (*allowlist[:cut], CALCULATE_TOOL, *allowlist[cut:])
    return RunStarted(
        run_id=run_id,
        seq=0,
        at=at,
        question=question,
        max_steps=max_steps,
        tools=tuple(tools.values()),
        allowlist=allowlist,
        policy=policy,
        support=support,
        plan=plan,
        report=report,
    )


def decide_sources(started: RunStarted, sources: Sequence[AdmittedSource]) -> list[SourceAdmitted]:
    """What follows `started` in the start batch: one `SourceAdmitted` per source, in order, at its time."""
    return [
        SourceAdmitted(run_id=started.run_id, seq=started.seq + number, at=started.at, source=source)
        for number, source in enumerate(sources, 1)
    ]


def decide_reply(
    state: RunState,
    reply: PolicyReply,
    tools: ToolTable,
    at: datetime,
    *,
    limits: Limits = DEFAULT_LIMITS,
    support_methods: Mapping[str, SupportMethod] = SUPPORT_METHODS,
) -> list[Event]:
    """A policy reply, parsed strictly, and everything that follows from it without I/O.

    A rejected reply is one `ParseRejected`: a reply over `limits.max_reply_chars` is
    recorded cut (`truncated_from`) and rejected as `too_long` before any parsing. A
    parsed one is `ActionParsed` followed, in the same batch, by its consequence: the
    gate's verdict on a finish, an answer from the log (a repeated search, an unknown
    tool), or the `ToolDispatched` that the driver then carries out.
    """
    step = state.steps
    reply = cap_reply(reply, limits.max_reply_chars)
    if reply.truncated_from is not None:
        detail = f"{reply.truncated_from} characters, recorded cut to {reply_chars(reply)}"
        return [
            ParseRejected(
                run_id=state.run_id,
                seq=state.next_seq,
                at=at,
                step=step,
                reply=reply,
                code=REPLY_TOO_LONG,
                detail=detail,
            )
        ]
    parsed = parse_policy_reply(reply, state.allowlist)
    if isinstance(parsed, Rejected):
        return [
            ParseRejected(
                run_id=state.run_id,
                seq=state.next_seq,
                at=at,
                step=step,
                reply=reply,
                code=parsed.code,
                detail=parsed.detail,
            )
        ]
    head = ActionParsed(
        run_id=state.run_id,
        seq=state.next_seq,
        at=at,
        step=step,
        reply=reply,
        thought=parsed.thought,
        action=parsed.action,
    )
    consequence = decide_action(
        state, step, parsed.action, tools, at, offset=1, support_methods=support_methods
    )
    return [head, *consequence]


def decide_action(
    state: RunState,
    step: int,
    action: Action,
    tools: ToolTable,
    at: datetime,
    *,
    offset: int = 0,
    support_methods: Mapping[str, SupportMethod] = SUPPORT_METHODS,
) -> list[Event]:
    """The consequence of a parsed action; `offset` counts events decided before it in the batch."""
    if isinstance(action, Finish):
        payload = action.payload
        verdict = decide_finish(state, step, payload, at, offset=offset, support_methods=support_methods)
        # A report run's research ends with its finish as the gate judged it; the report is gated again.
        return research_verdict(state, step, at, verdict) if in_research(state) else verdict
    return _decide_call(state, step, action, tools, at, offset)


def _decide_call(
    state: RunState, step: int, action: CallTool, tools: ToolTable, at: datetime, offset: int
) -> list[Event]:
    seq = state.next_seq + offset
    observation: Observation | None = None
    if action.tool == "search":
        earlier = state.searched.get(normalize_query(action.input))
        if earlier is not None:
            observation = AlreadySearched(query=action.input, hits=earlier)
    elif action.tool == CALCULATE_TOOL and CALCULATE_TOOL in state.tools:
        # Offered by the run's own tool table (it admitted a table): answered from the log, never dispatched.
        observation = calculate(action.input, state, step)
    spec = tools.get(action.tool)
    if observation is None and spec is None:
        observation = ToolError(code="unknown_tool", message=f"no tool named {action.tool!r} in this runtime")
    if observation is not None:
        return [
            ToolObserved(
                run_id=state.run_id,
                seq=seq,
                at=at,
                step=step,
                call_id=None,
                tool=action.tool,
                input=action.input,
                observation=observation,
            )
        ]
    assert spec is not None
    return [
        ToolDispatched(
            run_id=state.run_id,
            seq=seq,
            at=at,
            step=step,
            call_id=f"c{seq}",
            tool=action.tool,
            input=action.input,
            read_only=spec.read_only,
        )
    ]


def decide_observation(
    state: RunState,
    dispatched: ToolDispatched,
    observation: Observation,
    at: datetime,
    *,
    limits: Limits = DEFAULT_LIMITS,
) -> list[Event]:
    """What a dispatched tool returned (a failure is a `ToolError` observation, never an exception).

    A page body over `limits.max_page_chars` is cut before it is recorded, and the page says so.
    """
    observation = cap_observation(observation, limits.max_page_chars)
    if isinstance(observation, Calculation):
        # Only the built-in `calculate`, answered from the log, makes calculations: one a
        # dispatched tool returns could carry any result under any `calc:` id (docs/evidence.md).
        observation = ToolError(
            code="forged_calculation",
            message="only the built-in calculate tool makes calculations; a tool returned one",
        )
    return [ToolObserved(**_settling(state, dispatched, at), observation=observation)]


def _settling(state: RunState, dispatched: ToolDispatched, at: datetime) -> dict[str, Any]:
    """The fields of the next event that settles `dispatched` (its observation, or its loss)."""
    return {
        "run_id": state.run_id,
        "seq": state.next_seq,
        "at": at,
        "step": dispatched.step,
        "call_id": dispatched.call_id,
        "tool": dispatched.tool,
        "input": dispatched.input,
    }


def needs_rerun(dispatched: ToolDispatched, tools: ToolTable) -> bool:
    """Whether a dispatch left without an observation is run again on resume.

    Only a tool that declares itself read-only today is; the flag recorded in the log is
    not trusted over the tool's own declaration.
    """
    spec = tools.get(dispatched.tool)
    return spec is not None and spec.read_only


def decide_unknown_outcome(state: RunState, dispatched: ToolDispatched, at: datetime) -> list[Event]:
    """A dispatch of unknown effect that a stopped process left unobserved: never run twice."""
    return [ToolOutcomeUnknown(**_settling(state, dispatched, at))]


def decide_budget(state: RunState, at: datetime) -> list[Event]:
    """The step budget is spent without a terminal event (in a report run: the research is over)."""
    if in_research(state):
        return decide_research_end(state, state.steps, at)
    return decide_abstain(state, "budget", BUDGET_ANSWER.format(max_steps=state.max_steps), at)


def decide_abstain(
    state: RunState, reason: AbstainReason, answer: str, at: datetime, *, detail: str = ""
) -> list[Event]:
    """An abstention decided outside the gate: the budget, a failing policy, a cancellation."""
    return [
        Abstained(
            run_id=state.run_id,
            seq=state.next_seq,
            at=at,
            step=state.steps,
            reason=reason,
            answer=answer,
            detail=detail,
        )
    ]


def decide_continuation(events: list[Event], run_id: str) -> list[Event]:
    """A stopped run's log as the start of a new run `run_id` that carries on from it.

    An ended run takes no more events (docs/guarantees.md), so a cancelled or failed run
    is continued under a new id: its events without the terminal one, each as recorded
    (time, step, seq), and `RunStarted.meta["continues"]` naming the run it continues.
    The chain (`prev`) is stamped again when they are appended.
    """
    kept = events[:-1] if isinstance(events[-1], Answered | Abstained) else events
    started = kept[0]
    assert isinstance(started, RunStarted)
    first = started.model_copy(
        update={"run_id": run_id, "meta": {**started.meta, "continues": started.run_id}, "prev": None}
    )
    return [first, *(event.model_copy(update={"run_id": run_id, "prev": None}) for event in kept[1:])]
