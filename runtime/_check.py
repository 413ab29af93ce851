"""`check`: replay a stored run through today's decisions, and report where they now differ.

Like Temporal's replayer: the recorded inputs (the policy's replies, the tools'
observations) are fed, in log order, to the same pure functions the driver uses
(runtime/_decide.py), and what they return is compared with what was recorded, event by
event — terminal events included. An `Answered` that no finish decided, an answer edited
after the fact, an event after the end, a page whose body no longer matches its digest:
each is a divergence. So is a break of the log's hash chain (docs/events.md); the report
says whether the run is chained at all. Nothing is dispatched, no policy is called.

This module joins the parts: the walk through the log is runtime/_replay.py, what it
reports runtime/_divergence.py; a fork's lineage and the hash chain are judged here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from citeloop.events import (
    Event,
    Forked,
    ToolSpec,
    UsageError,
    chain_hash,
    encode_event,
    verify_chain,
)

from ._divergence import CheckReport, Divergence, LineageStatus, describe_event, event_step
from ._fork import decide_fork
from ._limits import DEFAULT_LIMITS, Limits
from ._replay import Replay
from ._support import SUPPORT_METHODS, SupportMethod


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
            copy = said if isinstance(derived, Forked) else f"the parent's copy: {describe_event(derived)}"
            found.append(
                Divergence(recorded.seq, event_step(recorded), "lineage", describe_event(recorded), copy)
            )
    if len(events) < len(today):
        last, missing = events[-1], f"{len(today) - len(events)} more copied events"
        found.append(Divergence(last.seq, event_step(last), "lineage", "the log ends here", missing))
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
    replay = Replay(tools, limits, support_methods)
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
        found.append(Divergence(broken.seq, event_step(broken), "chain", verdict.reason, link))
        found.sort(key=lambda divergence: divergence.seq)  # stable: the replay's own order otherwise
    run_id = events[0].run_id if events else ""
    return CheckReport(
        run_id=run_id, events=len(events), divergences=tuple(found), chain=verdict.status, lineage=lineage
    )
