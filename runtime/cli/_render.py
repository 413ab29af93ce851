"""Terminal output with rich.

Everything printed from the log (questions, thoughts, URLs, answers, evidence, page
titles, tool errors) goes through `escape_controls` and into a rich `Text`, so it is
neither obeyed by the terminal nor read as rich markup: `[bold]` in a question prints as
typed. `--json` output is exact JSON, with only the characters a terminal could act on
written as JSON escapes.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import IO, Any, Final, cast

import orjson
from citeloop.events import Answered, Locator
from citeloop.runtime import CheckReport, Outcome
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ._escape import escape_controls, json_terminal_safe
from ._listing import RunRow
from ._sources import SourceFiles, no_files
from ._timeline import Timeline, premise_brief


def console() -> Console:
    # soft_wrap: a long answer or URL stays on one line when piped, so it can be grepped; a
    # pipe gets a wide page so that tables are not squeezed to rich's default of 80 columns.
    # $COLUMNS, when set, is obeyed either way (rich reads it).
    width = None if sys.stdout.isatty() or os.environ.get("COLUMNS") else 200
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


# How the end of a run that did not answer is headed (a grounded refusal otherwise).
_HEADINGS: Final = {"cancelled": "CANCELLED", "failed": "FAILED"}


def _print_answer(
    out: Console,
    answer: str,
    citations: Sequence[str],
    locators: Sequence[Locator],
    evidence: str | tuple[str, ...],
    files: SourceFiles = no_files,
) -> None:
    out.print(Text.assemble(_label("Answer: ", "bold green"), _data(answer, newlines=True)))
    out.print(_label("Citations:"))
    for number, url in enumerate(citations, 1):
        out.print(Text.assemble(_data(f"  [{number}] {url}"), _from_file(url, files)))
    quotes = (evidence,) if isinstance(evidence, str) else evidence
    if not locators and not any(quotes):
        return  # an answer made of claims: its premises are its evidence, printed with them
    out.print(_label("Evidence:"))
    for locator in locators:
        out.print(_data(f'  "{locator.quote}"', newlines=True))
        where = f"    {locator.url} [{locator.start}:{locator.end}] sha256 {locator.sha256[:16]}"
        out.print(_data(where, style="dim"))
    if not locators:
        for quote in quotes:
            if quote:
                out.print(_data(f'  "{quote}"', newlines=True))


def _print_outcome_claims(out: Console, outcome: Outcome) -> None:
    """An answer's claims, each with its verdict and method, and the gaps it discloses."""
    if outcome.claims:
        out.print(_label("Claims:"))
    for claim in outcome.claims:
        said = f"  {claim.index}. [{claim.claimed_class}, {claim.method}: {claim.verdict}] {claim.text}"
        out.print(_data(said, newlines=True))
    if outcome.gaps:
        out.print(
            Text.assemble(_label("Gaps (plan items not settled): "), _data(", ".join(map(str, outcome.gaps))))
        )


def _from_file(url: str, files: SourceFiles) -> Text:
    """`  (file PATH)` after a `corpus://` URL whose file is known, else nothing."""
    path = files(url)
    return Text() if path is None else _data(f"  (file {path})", style="dim")


def print_outcome(outcome: Outcome, store_url: str, files: SourceFiles = no_files) -> None:
    """An answer with its citations (and the files of corpus:// ones) and evidence, or the refusal."""
    out = console()
    if outcome.status == "answered":
        _print_answer(out, outcome.answer, outcome.citations, outcome.locators, outcome.evidence, files)
        _print_outcome_claims(out, outcome)
    else:
        # A failed or cancelled run is not a grounded refusal, and does not say it is.
        out.print(_label(_HEADINGS.get(outcome.status, "INSUFFICIENT GROUNDING"), "bold red"))
        out.print(Text.assemble(_label("reason: "), _data(outcome.reason)))
        out.print(_data(outcome.answer, newlines=True))
    noun = "step" if outcome.steps == 1 else "steps"
    out.print(_data(f"run {outcome.run_id} · {outcome.steps} {noun} · stored in {store_url}", style="dim"))


def print_note(message: str) -> None:
    """A line about what a command did, on stderr (stdout keeps the result)."""
    Console(file=sys.stderr, soft_wrap=True, highlight=False).print(_data(message, style="dim"))


STATUS_COLOURS: Final = {
    "answered": "green",
    "abstained": "yellow",
    "running": "cyan",
    "queued": "blue",
    "cancelled": "magenta",
    "failed": "red",
}
# Long text is cut before rich lays it out: a 100 KB question costs nothing to list.
_CELL = 300


def _cell(value: str, style: str = "") -> Text:
    return _data(_one_line(value)[:_CELL], style=style)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def print_runs(rows: Sequence[RunRow], store_url: str) -> None:
    """A table that fits the terminal: ids shortened on a narrow one, question and answer cut to fit."""
    out = console()
    if not rows:
        out.print(_data(f"no runs in {store_url}"))
        return
    wide = out.width >= 120
    started = "%Y-%m-%d %H:%M" if wide else "%m-%d %H:%M"
    table = Table(title=_data(f"runs in {store_url}"), title_justify="left", box=box.SIMPLE_HEAD, expand=True)
    # The fixed columns keep their width; question and answer share what is left, cut with "…".
    table.add_column("run id", no_wrap=True, min_width=32 if wide else 12)
    table.add_column("status", no_wrap=True, min_width=max(len(status) for status in STATUS_COLOURS))
    table.add_column("question", ratio=3, no_wrap=True, overflow="ellipsis")
    table.add_column("answer", ratio=2, no_wrap=True, overflow="ellipsis")
    table.add_column("steps", justify="right", no_wrap=True, min_width=5)
    table.add_column("started", no_wrap=True, min_width=16 if wide else 11)
    for row in rows:
        run = row.summary
        table.add_row(
            _data(run.run_id if wide else run.run_id[:12]),
            _data(row.status, style=STATUS_COLOURS.get(row.status, "")),
            _cell(run.question),
            _cell(row.answer or "", style="" if row.status == "answered" else "dim"),
            Text(str(row.steps)),
            Text(run.started_at.astimezone().strftime(started)),
        )
    out.print(table, soft_wrap=False)  # laid out to the width, whatever the console's default


def _ms(milliseconds: float) -> str:
    return f"{milliseconds:.0f} ms" if milliseconds < 10_000 else f"{milliseconds / 1000:.1f} s"


def _usage(usage: dict[str, int] | dict[str, float] | None) -> str:
    if not usage:
        return ""
    parts = [f"{value:g} {key.removesuffix('_tokens').replace('_', ' ')}" for key, value in usage.items()]
    return " · tokens: " + ", ".join(parts)


def print_timeline(timeline: Timeline, files: SourceFiles = no_files) -> None:
    """Per step: when, how long, the model call, the thought, action, observation, verdict; then the end."""
    out = console()
    out.print(
        Text.assemble(
            _label("run "), _data(f"{timeline.run_id} ({timeline.status}, policy {timeline.policy})")
        )
    )
    out.print(Text.assemble(_label("question: "), _data(timeline.question)))
    if timeline.sources:
        out.print(_label("sources:"))
    for source in timeline.sources:
        out.print(
            Text.assemble(
                "  ",
                _data(source.id),
                _data(
                    f" · {source.evidence_class} · {source.media_type} · {source.size} bytes · "
                    f"sha256 {source.sha256[:12]} · {source.origin}",
                    style="dim",
                ),
            )
        )
    began = timeline.started_at
    out.print(
        _data(
            f"started {began.astimezone():%Y-%m-%d %H:%M:%S} · {_ms(timeline.duration_ms)} · "
            f"{timeline.events} event{'' if timeline.events == 1 else 's'}",
            style="dim",
        )
    )
    if timeline.continues:
        out.print(_data(f"continues run {timeline.continues}", style="dim"))
    forked = timeline.forked_from
    if forked is not None:
        out.print(_data(f"forked from {forked[0]} at step {forked[1]}", style="dim"))
    for step in timeline.steps:
        offset = (step.started_at - began).total_seconds() * 1000 if step.started_at else 0.0
        # A fork's copied steps happened in its parent, before the fork began.
        copied = forked is not None and step.step < forked[1]
        when = f"copied from {forked[0]}" if forked is not None and copied else f"+{_ms(offset)}"
        out.print(
            Text.assemble(
                _label(f"step {step.step}", "bold cyan"),
                _data(f"  {when} · took {_ms(step.duration_ms)}", style="dim"),
            )
        )
        call = step.model_call
        if call is not None and (call.model or call.usage or call.latency_ms is not None):
            latency = f" · {_ms(call.latency_ms)}" if call.latency_ms is not None else ""
            model = call.model or "policy"
            said = f"{model}{latency}{_usage(call.usage)}"
            out.print(Text.assemble(_label("  model:       ", "dim"), _data(said)))
        if step.thought:
            out.print(Text.assemble(_label("  thought:     ", "dim"), _data(step.thought, newlines=True)))
        if step.action:
            out.print(Text.assemble(_label("  action:      ", "dim"), _data(step.action)))
        if step.observation:
            out.print(Text.assemble(_label("  observation: ", "dim"), _data(step.observation)))
        if step.verdict:
            out.print(Text.assemble(_label("  verdict:     ", "dim"), _data(step.verdict)))
    totals = timeline.model_totals()
    if totals["calls"]:
        usage = {key: value for key, value in totals.items() if key not in ("calls", "latency_ms")}
        calls = int(totals["calls"])
        noun = "call" if calls == 1 else "calls"
        out.print(_data(f"model: {calls} {noun} · {_ms(totals['latency_ms'])}{_usage(usage)}", style="dim"))
    _print_claims(out, timeline)
    final = timeline.final
    if final is None:
        how = "queued" if timeline.status == "queued" else "not finished"
        out.print(_label(f"{how}: continue it with `citeloop resume {timeline.run_id}`", "yellow"))
    elif isinstance(final, Answered):
        _print_answer(out, final.answer, final.citations, final.locators, final.evidence, files)
    else:
        heading = _HEADINGS.get(timeline.status, "INSUFFICIENT GROUNDING")
        out.print(Text.assemble(_label(heading, "bold red"), _data(f" ({final.reason})")))
        out.print(_data(final.answer, newlines=True))
        if final.detail:
            out.print(_data(final.detail, style="dim"))


def _print_claims(out: Console, timeline: Timeline) -> None:
    """The latest finish's claims (index, verdict, method, text, premises) and the completion matrix."""
    if timeline.claims:
        out.print(_label("claims:"))
    for claim in timeline.claims:
        style = "green" if claim.verdict == "supported" else "red"
        item = f" · item {claim.item}" if claim.item is not None else ""
        said = f" · {claim.method} · {claim.claimed_class}{item} · "
        out.print(
            Text.assemble(
                f"  {claim.index} ", _data(claim.verdict, style=style), _data(said), _data(claim.text)
            )
        )
        for premise in claim.premises:
            out.print(_data(f"      premise: {premise_brief(premise)}", style="dim"))
        if claim.detail:
            out.print(_data(f"      why: {claim.detail}", style="dim"))
    if timeline.completion:
        out.print(_label("completion:"))
    for entry in timeline.completion:
        style = {"supported": "green", "contradicted": "red"}.get(entry.status, "yellow")
        classes = f" ({', '.join(entry.classes)})" if entry.classes else ""
        out.print(
            Text.assemble(
                f"  {entry.item} ", _data(entry.status, style=style), _data(f" · {entry.text}{classes}")
            )
        )


def print_unfinished(run_id: str, steps: int) -> None:
    console().print(_data(f"run {run_id} is not finished ({steps} steps so far)"))


def _lineage_note(report: CheckReport) -> str:
    """A fork's lineage as `check` saw it; nothing for a run that is not a fork."""
    if report.lineage == "parent_missing":
        return "; lineage: parent_missing, the parent run is not in the store: unchecked against it"
    return "" if report.lineage == "unforked" else f"; lineage: {report.lineage}"


def print_check(report: CheckReport) -> None:
    out = console()
    if report.ok:
        out.print(
            _data(
                f"run {report.run_id}: no divergence ({report.events} events replayed "
                "through today's parser and gate; no tool dispatched, no policy called; "
                f"hash chain: {report.chain}{_lineage_note(report)})",
                style="green",
            )
        )
        return
    count = len(report.divergences)
    plural = "s" if count != 1 else ""
    header = (
        f"run {report.run_id}: {count} divergence{plural} (hash chain: {report.chain}{_lineage_note(report)})"
    )
    out.print(_data(header, style="bold red"))
    for divergence in report.divergences:
        out.print(_data(f"  seq {divergence.seq} step {divergence.step} [{divergence.kind}]"))
        out.print(_data(f"    recorded: {divergence.recorded}"))
        out.print(_data(f"    today:    {divergence.today}"))
