"""Forking a run at step k: the parent's first k steps, copied as the start of a new run.

`decide_fork` is a pure function of the parent's log, like `decide_continuation`
(runtime/_decide.py): the driver appends what it returns in one batch and drives on from
there, so nothing on record is asked or dispatched again. `check` re-derives a fork's
copied prefix from its parent with the same function (docs/events.md, "Forking"), which
`read_parent` reads.

"At step k" counts steps as `show` numbers them, from 0: the fork keeps the parent's steps
0 .. k-1 (its first k steps) with everything they recorded, and decides step k itself.
k = 0 keeps only the start (`RunStarted`, and any source admitted before step 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Final

from citeloop.events import (
    Abstained,
    ActionParsed,
    Answered,
    Event,
    EventStore,
    Forked,
    ParseRejected,
    TamperedLogError,
    ToolDispatched,
    ToolObserved,
    ToolOutcomeUnknown,
    UsageError,
    chain_hash,
    encode_event,
)

from ._fold import fold

# Endings decided outside any step (runtime/_decide.py, `decide_abstain`): a fork at the
# step after them drops them and decides that step again (with another policy, say).
_OUTSIDE_ENDINGS: Final = frozenset({"budget", "policy_error", "cancelled"})


def fork_prefix(parent: Sequence[Event], at_step: int) -> list[Event]:
    """The parent's events a fork at `at_step` keeps, as the parent recorded them.

    `UsageError` when the fork cannot start there: a negative step or one past the
    parent's steps; a step after the one the parent ended in (an answer or a refusal of
    its own); a step the parent did not settle (a tool call or an action left without its
    outcome by a stopped process); or a prefix that spent the step budget. A parent still
    running may be forked at any step it has settled.
    """
    skip = 1 if parent and isinstance(parent[0], Forked) else 0  # a fork's own Forked is not copied
    own = list(parent[skip:])
    state = fold(parent)
    run = state.run_id
    if at_step < 0:
        raise UsageError(f"a fork's step is 0 or more, got {at_step}")
    if at_step > state.steps:
        raise UsageError(
            f"run {run} has {state.steps} step{'s' if state.steps != 1 else ''} (0 to {state.steps - 1}): "
            f"fork it at a step from 0 to {state.steps}"
            if state.steps
            else f"run {run} has no step yet: fork it at step 0"
        )
    cut = next(
        (
            index
            for index, event in enumerate(own)
            if isinstance(event, ActionParsed | ParseRejected) and event.step == at_step
        ),
        len(own),
    )
    kept = own[:cut]
    last = kept[-1]
    if isinstance(last, Abstained) and last.reason in _OUTSIDE_ENDINGS:
        kept.pop()
    elif isinstance(last, Answered | Abstained):
        raise UsageError(
            f"run {run} ended at step {last.step} ({state.status}): fork it at step {last.step} "
            "or earlier to decide that step again"
        )
    head = fold(parent[: skip + len(kept)])
    if head.pending or head.unhandled is not None:
        raise UsageError(
            f"step {at_step - 1} of run {run} did not settle (a tool call or an action was left without "
            f"its outcome): fork it at step {at_step - 1} or earlier, or resume the run first"
        )
    if head.budget_spent:
        raise UsageError(
            f"run {run} spent its step budget ({head.max_steps}) in its first {at_step} steps: "
            f"fork it at step {head.max_steps - 1} or earlier"
        )
    return kept


def decide_fork(
    parent: Sequence[Event], run_id: str, *, at_step: int, policy: str, at: datetime
) -> list[Event]:
    """The first batch of run `run_id`, forked from `parent` (one run's whole log) at `at_step`.

    `Forked` (naming the parent, the step, the parent's seq and chain hash at the fork
    point, and `policy`, the policy the fork goes on with), then the parent's kept events
    (`fork_prefix`) re-numbered for the new run: its run id and seqs, and the call ids
    derived from a seq (`c<seq>`), so that the copy re-derives like any log. The chain
    (`prev`) is stamped again when they are appended.
    """
    kept = fork_prefix(parent, at_step)
    point = kept[-1]
    forked = Forked(
        run_id=run_id,
        seq=0,
        at=at,
        parent_run_id=point.run_id,
        at_step=at_step,
        parent_seq=point.seq,
        parent_head=chain_hash(encode_event(point)),
        policy=policy,
    )
    calls: dict[str, str] = {}
    copied: list[Event] = [forked]
    for seq, event in enumerate(kept, start=1):
        update: dict[str, object] = {"run_id": run_id, "seq": seq, "prev": None}
        if isinstance(event, ToolDispatched) and event.call_id == f"c{event.seq}":
            calls[event.call_id] = f"c{seq}"
        if isinstance(event, ToolDispatched | ToolObserved | ToolOutcomeUnknown) and event.call_id in calls:
            update["call_id"] = calls[event.call_id]
        copied.append(event.model_copy(update=update))
    return copied


async def read_parent(store: EventStore, events: Sequence[Event]) -> list[Event] | None:
    """A forked run's parent's log, when `store` holds it (None otherwise, or for a run not forked).

    A parent that breaks its chain is returned as read: its copy is judged against it.
    """
    if not events or not isinstance(events[0], Forked):
        return None
    try:
        return await store.read(events[0].parent_run_id) or None
    except TamperedLogError as exc:
        return list(exc.events)
