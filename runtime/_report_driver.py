"""The I/O of a report run's rounds: ask the writer or the reviewer, append what is decided.

Which round comes next is `report_move` (runtime/_report_decide.py), read off the fold; this
module only asks and appends, as the driver does for research steps.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import structlog
from citeloop.events import Event, PolicyReply, redact_text
from citeloop.policies import DeterministicReviewer, DeterministicWriter, Reviewer, Writer

from ._deadline import within
from ._recordable import recordable
from ._report_decide import (
    decide_draft,
    decide_report_end,
    decide_review,
    decide_review_request,
    decide_validation,
    report_move,
)
from ._report_project import report_view

if TYPE_CHECKING:
    from ._driver import Driver

_TIMED_OUT = object()


async def report_round(driver: Driver) -> bool:
    """Carry out one round of a report run; False when the run now waits for a human review."""
    state, config = driver.state, driver.config
    move = report_move(state)
    if move == "wait":
        return False
    if move == "write":
        writer = config.writer or default_writer()
        reply = await _ask(driver, lambda: writer.write(report_view(driver.state)), writer.name)
        if reply is None:
            return True
        decided: list[Event] = decide_draft(driver.state, reply, writer.name, config.clock())
    elif move == "validate":
        decided = decide_validation(state, config.clock())
    elif move == "review":
        reviewer = config.reviewer or default_reviewer()
        reply = await _ask(driver, lambda: reviewer.review(report_view(driver.state)), reviewer.name)
        if reply is None:
            return True
        decided = decide_review(driver.state, reply, reviewer.name, config.clock(), config.specs)
    elif move == "request_review":
        decided = decide_review_request(state, config.clock())
    else:
        decided = decide_report_end(state, config.clock())
    await driver.act(decided)  # a reviewer's lookup ends in a dispatch, carried out as a research step's
    return move != "request_review"


async def _ask(
    driver: Driver, call: Callable[[], Awaitable[str | PolicyReply]], name: str
) -> PolicyReply | None:
    """The writer's or reviewer's reply; None when it failed, after recording the run's abstention."""
    timeout = driver.config.policy_timeout
    try:
        async with driver.slot.away():  # waiting on a model takes no admission slot
            raw: Any = await (call() if timeout is None else within(timeout, call(), _TIMED_OUT))
    except Exception as exc:  # a failing writer or reviewer is an outcome of the run, not a crash
        _log().warning("report_policy_failed", run_id=driver.state.run_id, error=redact_text(repr(exc)))
        await driver.policy_failed(
            f"cannot: the report's {name} failed", redact_text(f"{type(exc).__name__}: {exc}")
        )
        return None
    if raw is _TIMED_OUT:
        await driver.policy_failed(f"cannot: the report's {name} did not reply in time", "timeout")
        return None
    if not isinstance(raw, str | PolicyReply):
        await driver.policy_failed(f"cannot: the report's {name} failed", f"returned {type(raw).__name__}")
        return None
    return recordable(raw if isinstance(raw, PolicyReply) else PolicyReply(text=raw))


def default_writer() -> Writer:
    """The writer a report run gets when none is given: composes from verbatim source sentences."""
    return DeterministicWriter()


def default_reviewer() -> Reviewer:
    """The reviewer a report run gets when none is given: checks every part of the question is covered."""
    return DeterministicReviewer()


def _log() -> Any:
    return structlog.get_logger("citeloop.runtime")
