"""`check` for a report run's rounds: each derived again from its recorded input (docs/reports.md).

A draft's validation and the routing after it are decided by today's code from the
recorded draft text and review replies, so an edited log (a rejected draft recorded as
accepted, a review that never came) is a divergence like any other.
"""

from __future__ import annotations

from collections.abc import Mapping

from citeloop.events import (
    Abstained,
    ActionParsed,
    Answered,
    DraftValidated,
    DraftWritten,
    Event,
    ReviewGiven,
    ReviewRequested,
    ToolSpec,
    UsageError,
)

from ._report_decide import (
    decide_draft,
    decide_human_review,
    decide_report_end,
    decide_review,
    decide_review_request,
    decide_validation,
    report_move,
)
from ._state import RunState


def predict_report_round(state: RunState, event: Event, tools: Mapping[str, ToolSpec]) -> list[Event] | str:
    """The decision `event` begins in a report run past its research, or why none explains it.

    `tools` is the tool table a reviewer's lookup is judged by, as a research step's is.
    """
    move, at = report_move(state), event.at
    match event:
        case ActionParsed() if move == "review":
            return decide_review(state, event.reply, "", at, tools)
        case DraftWritten() if move == "write":
            return decide_draft(state, event.reply, event.writer, at)
        case DraftValidated() if move == "validate":
            return decide_validation(state, at)
        case ReviewGiven() if move == "review" and event.reply is not None:
            return decide_review(state, event.reply, event.by, at, tools)
        case ReviewGiven() if move == "wait" and event.reply is None:
            try:
                return decide_human_review(state, event.verdict, event.notes, event.by, at)
            except UsageError as exc:
                return str(exc)
        case ReviewRequested() if move == "request_review":
            return decide_review_request(state, at)
        case Answered() | Abstained() if move in ("accept", "give_up"):
            return decide_report_end(state, at)
    return f"no recorded input decides it (report: {move})"
