"""The end of a report run's research: its policy's finish, or its spent budget (docs/reports.md).

Apart from runtime/_report_decide.py because the loop's own decisions (runtime/_decide.py)
call it, while the report's rounds call the loop's decisions back (a reviewer's lookup).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from citeloop.events import Abstained, Answered, Event, ResearchEnded

from ._state import RunState


def in_research(state: RunState) -> bool:
    """A report run whose research has not ended: its finish and its budget end the research."""
    return state.report is not None and state.report.research is None


def decide_research_end(state: RunState, step: int, at: datetime) -> list[Event]:
    """The research of a report run is over because its budget ran out: no answer to lead the report."""
    return [
        ResearchEnded(run_id=state.run_id, seq=state.next_seq, at=at, step=step, reason="budget", answer="")
    ]


def research_verdict(state: RunState, step: int, at: datetime, verdict: Sequence[Event]) -> list[Event]:
    """The research's finish as the gate judged it (`decide_finish`), ending the research.

    A report run's research is gated as an `ask` finish is, repair turn and all: an accepted
    finish ends it with its answer, citations and quotes (what the deterministic writer leads
    with), a refusal with its `cannot:` answer and nothing cited. A rejected finish with the
    repair turn still unused is left as it is: the research goes on. The report is then gated
    again, draft by draft.
    """
    *before, final = verdict
    if isinstance(final, Answered):
        evidence = final.evidence if isinstance(final.evidence, tuple) else (final.evidence,)
        answer, citations = final.answer, final.citations
    elif isinstance(final, Abstained):
        answer, citations, evidence = final.answer, (), ()
    else:
        return list(verdict)
    ended = ResearchEnded(
        run_id=state.run_id,
        seq=final.seq,
        at=at,
        step=step,
        reason="finished",
        answer=answer,
        citations=citations,
        evidence=tuple(quote for quote in evidence if quote),
    )
    return [*before, ended]
