"""Terminal output with rich. Text from pages and models is never read as rich markup."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import orjson
from citeloop.events import RunSummary
from citeloop.runtime import CheckReport, Outcome
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ._timeline import Timeline


def console() -> Console:
    # soft_wrap: a long answer or URL stays on one line when piped, so it can be grepped; a
    # pipe gets a wide page so that tables are not squeezed to rich's default of 80 columns.
    width = None if sys.stdout.isatty() else 200
    return Console(file=sys.stdout, soft_wrap=True, highlight=False, width=width)


def print_json(value: Any) -> None:
    """Exactly one JSON document on stdout."""
    sys.stdout.write(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode() + "\n")
    sys.stdout.flush()


def _label(text: str, style: str = "bold") -> Text:
    return Text(text, style=style)


def print_outcome(outcome: Outcome, store_url: str) -> None:
    """An answer with its citations and evidence quotes, or INSUFFICIENT GROUNDING with the reason."""
    out = console()
    if outcome.status == "answered":
        out.print(Text.assemble(_label("Answer: ", "bold green"), outcome.answer))
        out.print(_label("Citations:"))
        for number, url in enumerate(outcome.citations, 1):
            out.print(Text(f"  [{number}] {url}"))
        out.print(_label("Evidence:"))
        for locator in outcome.locators:
            out.print(Text(f'  "{locator.quote}"'))
            out.print(
                Text(
                    f"    {locator.url} [{locator.start}:{locator.end}] sha256 {locator.sha256[:16]}",
                    style="dim",
                )
            )
        if not outcome.locators and outcome.evidence:
            out.print(Text(f'  "{outcome.evidence}"'))
    else:
        out.print(_label("INSUFFICIENT GROUNDING", "bold red"))
        out.print(Text.assemble(_label("reason: "), str(outcome.reason)))
        out.print(Text(outcome.answer))
    noun = "step" if outcome.steps == 1 else "steps"
    out.print(Text(f"run {outcome.run_id} · {outcome.steps} {noun} · {store_url}", style="dim"))


def print_runs(runs: Sequence[RunSummary], store_url: str) -> None:
    out = console()
    if not runs:
        out.print(Text(f"no runs in {store_url}"))
        return
    table = Table(title=f"runs in {store_url}", title_justify="left")
    table.add_column("run id", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("question", min_width=16, overflow="fold")
    table.add_column("events", justify="right")
    table.add_column("updated", no_wrap=True)
    colours = {"answered": "green", "abstained": "yellow", "running": "cyan"}
    for run in runs:
        table.add_row(
            Text(run.run_id),
            Text(run.status, style=colours.get(run.status, "")),
            Text(run.question),
            str(run.events),
            run.updated_at.strftime("%Y-%m-%d %H:%M:%S"),
        )
    out.print(table)


def runs_json(runs: Sequence[RunSummary]) -> list[dict[str, Any]]:
    return [
        {
            "run_id": run.run_id,
            "status": run.status,
            "question": run.question,
            "events": run.events,
            "started_at": run.started_at.isoformat(),
            "updated_at": run.updated_at.isoformat(),
        }
        for run in runs
    ]


def print_timeline(timeline: Timeline) -> None:
    out = console()
    out.print(
        Text.assemble(_label("run "), timeline.run_id, f" ({timeline.status}, policy {timeline.policy})")
    )
    out.print(Text.assemble(_label("question: "), timeline.question))
    for step in timeline.steps:
        out.print(_label(f"step {step.step}", "bold cyan"))
        if step.thought:
            out.print(Text.assemble(_label("  thought:     ", "dim"), step.thought))
        if step.action:
            out.print(Text.assemble(_label("  action:      ", "dim"), step.action))
        if step.observation:
            out.print(Text.assemble(_label("  observation: ", "dim"), step.observation))
        if step.verdict:
            out.print(Text.assemble(_label("  verdict:     ", "dim"), step.verdict))
    if timeline.status == "running":
        out.print(_label("not finished (resume it with Runtime.resume)", "yellow"))
    elif timeline.reason is not None:
        out.print(Text.assemble(_label("INSUFFICIENT GROUNDING", "bold red"), f" ({timeline.reason})"))
        out.print(Text(timeline.outcome))
    else:
        out.print(Text.assemble(_label("Answer: ", "bold green"), timeline.outcome))


def print_check(report: CheckReport) -> None:
    out = console()
    if report.ok:
        out.print(
            Text(
                f"run {report.run_id}: no divergence ({report.events} events replayed "
                "through today's parser and gate; no tool dispatched, no policy called)",
                style="green",
            )
        )
        return
    count = len(report.divergences)
    out.print(Text(f"run {report.run_id}: {count} divergence{'s' if count != 1 else ''}", style="bold red"))
    for divergence in report.divergences:
        out.print(Text(f"  seq {divergence.seq} step {divergence.step} [{divergence.kind}]"))
        out.print(Text(f"    recorded: {divergence.recorded}"))
        out.print(Text(f"    today:    {divergence.today}"))
