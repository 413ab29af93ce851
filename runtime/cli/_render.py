"""Terminal output with rich.

Everything printed from the log (questions, thoughts, URLs, answers, evidence, page
titles, tool errors) goes through `escape_controls` and into a rich `Text`, so it is
neither obeyed by the terminal nor read as rich markup: `[bold]` in a question prints as
typed. `--json` output is exact JSON, with only the characters a terminal could act on
written as JSON escapes.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import IO, Any, cast

import orjson
from citeloop.events import RunSummary
from citeloop.runtime import CheckReport, Outcome
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ._escape import escape_controls, json_terminal_safe
from ._timeline import Timeline


def console() -> Console:
    # soft_wrap: a long answer or URL stays on one line when piped, so it can be grepped; a
    # pipe gets a wide page so that tables are not squeezed to rich's default of 80 columns.
    width = None if sys.stdout.isatty() else 200
    return Console(file=sys.stdout, soft_wrap=True, highlight=False, width=width)


def print_json(value: Any) -> None:
    """Exactly one JSON document on stdout."""
    sys.stdout.write(json_terminal_safe(orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()) + "\n")
    sys.stdout.flush()


class _JsonLinesOut:
    """stdout for JSON text written by someone else (`JsonLinesSink` in `tail`), made terminal-safe."""

    def write(self, text: str) -> int:
        return sys.stdout.write(json_terminal_safe(text))

    def flush(self) -> None:
        sys.stdout.flush()


def json_lines_stdout() -> IO[str]:
    """A stream for `JsonLinesSink` that writes to stdout through `json_terminal_safe`."""
    # The sink only writes and flushes; a whole TextIO would be ceremony.
    return cast(IO[str], _JsonLinesOut())


def _label(text: str, style: str = "bold") -> Text:
    return Text(text, style=style)


def _data(value: object, *, newlines: bool = False, style: str = "") -> Text:
    """Log data as a `Text`: controls escaped (newlines kept only when asked), never markup."""
    return Text(escape_controls(str(value), newlines=newlines), style=style)


def print_outcome(outcome: Outcome, store_url: str) -> None:
    """An answer with its citations and evidence quotes, or INSUFFICIENT GROUNDING with the reason."""
    out = console()
    if outcome.status == "answered":
        out.print(Text.assemble(_label("Answer: ", "bold green"), _data(outcome.answer, newlines=True)))
        out.print(_label("Citations:"))
        for number, url in enumerate(outcome.citations, 1):
            out.print(_data(f"  [{number}] {url}"))
        out.print(_label("Evidence:"))
        for locator in outcome.locators:
            out.print(_data(f'  "{locator.quote}"', newlines=True))
            out.print(
                _data(
                    f"    {locator.url} [{locator.start}:{locator.end}] sha256 {locator.sha256[:16]}",
                    style="dim",
                )
            )
        if not outcome.locators and outcome.evidence:
            out.print(_data(f'  "{outcome.evidence}"', newlines=True))
    else:
        out.print(_label("INSUFFICIENT GROUNDING", "bold red"))
        out.print(Text.assemble(_label("reason: "), _data(outcome.reason)))
        out.print(_data(outcome.answer, newlines=True))
    noun = "step" if outcome.steps == 1 else "steps"
    out.print(_data(f"run {outcome.run_id} · {outcome.steps} {noun} · stored in {store_url}", style="dim"))


def print_runs(runs: Sequence[RunSummary], store_url: str) -> None:
    out = console()
    if not runs:
        out.print(_data(f"no runs in {store_url}"))
        return
    table = Table(title=_data(f"runs in {store_url}"), title_justify="left")
    table.add_column("run id", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("question", min_width=16, overflow="fold")
    table.add_column("events", justify="right")
    table.add_column("updated", no_wrap=True)
    colours = {"answered": "green", "abstained": "yellow", "running": "cyan"}
    for run in runs:
        table.add_row(
            _data(run.run_id),
            _data(run.status, style=colours.get(run.status, "")),
            _data(run.question),
            Text(str(run.events)),
            Text(run.updated_at.strftime("%Y-%m-%d %H:%M:%S")),
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
        Text.assemble(
            _label("run "), _data(f"{timeline.run_id} ({timeline.status}, policy {timeline.policy})")
        )
    )
    out.print(Text.assemble(_label("question: "), _data(timeline.question)))
    for step in timeline.steps:
        out.print(_label(f"step {step.step}", "bold cyan"))
        if step.thought:
            out.print(Text.assemble(_label("  thought:     ", "dim"), _data(step.thought, newlines=True)))
        if step.action:
            out.print(Text.assemble(_label("  action:      ", "dim"), _data(step.action)))
        if step.observation:
            out.print(Text.assemble(_label("  observation: ", "dim"), _data(step.observation)))
        if step.verdict:
            out.print(Text.assemble(_label("  verdict:     ", "dim"), _data(step.verdict)))
    if timeline.status == "running":
        out.print(_label("not finished (resume it with Runtime.resume)", "yellow"))
    elif timeline.reason is not None:
        out.print(Text.assemble(_label("INSUFFICIENT GROUNDING", "bold red"), _data(f" ({timeline.reason})")))
        out.print(_data(timeline.outcome, newlines=True))
    else:
        out.print(Text.assemble(_label("Answer: ", "bold green"), _data(timeline.outcome, newlines=True)))


def print_unfinished(run_id: str, steps: int) -> None:
    console().print(_data(f"run {run_id} is not finished ({steps} steps so far)"))


def print_check(report: CheckReport) -> None:
    out = console()
    if report.ok:
        out.print(
            _data(
                f"run {report.run_id}: no divergence ({report.events} events replayed "
                "through today's parser and gate; no tool dispatched, no policy called; "
                f"hash chain: {report.chain})",
                style="green",
            )
        )
        return
    count = len(report.divergences)
    plural = "s" if count != 1 else ""
    header = f"run {report.run_id}: {count} divergence{plural} (hash chain: {report.chain})"
    out.print(_data(header, style="bold red"))
    for divergence in report.divergences:
        out.print(_data(f"  seq {divergence.seq} step {divergence.step} [{divergence.kind}]"))
        out.print(_data(f"    recorded: {divergence.recorded}"))
        out.print(_data(f"    today:    {divergence.today}"))
