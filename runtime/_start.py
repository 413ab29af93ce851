"""What a run's `RunStarted` records, decided in one place (pure: the caller passes the time)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from citeloop.events import ReportRules, RunStarted, ToolSpec, UsageError
from citeloop.policies import Policy
from citeloop.tools import Tool

from ._decide import decide_start


def policy_name(policy: Policy) -> str:
    """The name a run records for its policy (its `name`, else its class name)."""
    return str(getattr(policy, "name", type(policy).__name__))


def default_allowlist(tool_names: Iterable[str]) -> tuple[str, ...]:
    """Every tool, and `finish`: what a run may call unless told otherwise."""
    return (*tool_names, "finish")


def run_started(
    run_id: str,
    question: str,
    *,
    tools: Iterable[Tool],
    policy: Policy,
    max_steps: int,
    allowlist: Iterable[str] | None,
    at: datetime,
    report: ReportRules | None = None,
) -> RunStarted:
    """The first event of a run of `question` with these tools and policy (a report run's with `report`)."""
    by_name = {tool.name: tool for tool in tools}  # as `Runtime` keeps them: the last of a name wins
    return decide_start(
        run_id,
        question,
        max_steps=max_steps,
        allowlist=tuple(allowlist) if allowlist is not None else default_allowlist(by_name),
        policy=policy_name(policy),
        tools={name: ToolSpec(name=name, read_only=tool.read_only) for name, tool in by_name.items()},
        at=at,
        report=report,
    )


def research_plan(given: Iterable[str]) -> tuple[str, ...]:
    """A run's research plan as recorded: its items in order, each a non-blank string."""
    if isinstance(given, str):
        raise UsageError(f"plan is a list of items, not the one string {given!r}")
    items = tuple(given)
    for item in items:
        if not isinstance(item, str) or not item.strip():
            raise UsageError(f"a plan item is a non-blank string, not {item!r}")
    return items
