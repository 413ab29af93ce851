"""The end of a report run's research: its policy's finish, or its spent budget (docs/reports.md).

Apart from runtime/_report_decide.py because the loop's own decisions (runtime/_decide.py)
call it, while the report's rounds call the loop's decisions back (a reviewer's lookup).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Literal

from citeloop.events import Event, ResearchEnded

from ._state import RunState


def in_research(state: RunState) -> bool:
    """A report run whose research has not ended: its finish and its budget end the research."""
    return state.report is not None and state.report.research is None


def decide_research_end(
    state: RunState,
    step: int,
    at: datetime,
    reason: Literal["finished", "budget"],
    *,
    payload: Mapping[str, object] | None = None,
    offset: int = 0,
) -> list[Event]:
    """The research of a report run is over: its policy finished (`payload`) or its budget ran out.

    The finish is recorded as the policy gave it, fields of the wrong type left out: the
    report, not this finish, is what the gate checks.
    """
    given = payload or {}
    answer = given.get("answer")
    return [
        ResearchEnded(
            run_id=state.run_id,
            seq=state.next_seq + offset,
            at=at,
            step=step,
            reason=reason,
            answer=answer if isinstance(answer, str) else "",
            citations=_strings(given.get("citations")),
            evidence=_strings(given.get("evidence")),
        )
    ]


def _strings(value: object) -> tuple[str, ...]:
    """A finish field as strings: one string, or the strings of a list (others dropped)."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(item for item in value if isinstance(item, str))
    return ()
