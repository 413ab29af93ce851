"""`citeloop eval`: run a dataset's questions through the real runtime and report the figures.

`squad2` and `hotpotqa` bring their own paragraphs as the corpus; `qa` is a question file
over any corpus (`--corpus`), judged correct / wrong / refused / unanswerable-refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer
from citeloop.runtime.eval import run_evaluation, run_qa_evaluation
from citeloop.runtime.eval.reports import run_report_evaluation

from ._errors import CliError
from ._escape import escape_controls
from ._feedback import progress_bar, wanted
from ._options import POLICY_NAMES, JsonOption, build_policy
from ._render import print_json

KindArgument = Annotated[
    Literal["squad2", "hotpotqa", "qa", "reports"],
    typer.Argument(
        help=(
            "The dataset format: squad2 (SQuAD 2.0 JSON), hotpotqa (IRCoT JSONL or HF JSON), "
            'qa (JSONL of {"question", "answers"} over --corpus), or reports (the same file, each '
            "question asked as a report run: docs/reports.md)."
        )
    ),
]
FileArgument = Annotated[Path, typer.Argument(help="The dataset file.", show_default=False)]


def eval_command(
    kind: KindArgument,
    file: FileArgument,
    limit: Annotated[int | None, typer.Option("--limit", help="Only the first N questions.")] = None,
    policy: Annotated[str, typer.Option("--policy", help=f"Who decides: {POLICY_NAMES}.")] = "extractive",
    min_confidence: Annotated[
        float | None,
        typer.Option("--min-confidence", help="Extractive policy: refuse below this confidence (0..1)."),
    ] = None,
    sweep: Annotated[
        bool, typer.Option("--sweep", help="Also print the answered/refused trade-off over the threshold.")
    ] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="With --sweep: write the trade-off curve as a PNG.")
    ] = None,
    progress: Annotated[
        bool | None,
        typer.Option(
            "--progress/--no-progress",
            help="A progress bar with rate and ETA on stderr (default: on a terminal, without --json).",
        ),
    ] = None,
    corpus: Annotated[
        Path | None,
        typer.Option("--corpus", help="qa: the folder or .jsonl file the questions are asked over."),
    ] = None,
    split: Annotated[
        str | None,
        typer.Option(
            "--split",
            help="qa: only the questions whose `split` field is this; hotpotqa: dev or held-out.",
        ),
    ] = None,
    json_output: JsonOption = False,
) -> None:
    """Evaluate a policy on SQuAD 2.0, HotpotQA or a question file: answers, refusals, citation validity."""
    if limit is not None and limit < 1:
        raise CliError(f"--limit must be at least 1, got {limit}")
    if plot is not None and not sweep:
        raise CliError("--plot needs --sweep")
    if min_confidence is not None and not 0.0 <= min_confidence <= 1.0:
        raise CliError(f"--min-confidence must be between 0 and 1, got {min_confidence}")
    if kind in ("qa", "reports"):
        if corpus is None:
            raise CliError(f"eval {kind} needs --corpus: the folder or .jsonl file the questions are about")
        if plot is not None:
            raise CliError(f"--plot is for squad2 and hotpotqa, not eval {kind}")
    elif corpus is not None or (split is not None and kind != "hotpotqa"):
        raise CliError(
            f"--corpus is for eval qa, --split for eval qa and hotpotqa; {kind} brings its own paragraphs"
        )
    chosen = build_policy(policy, base_url=None, min_confidence=min_confidence)
    show_progress = wanted(json_output) if progress is None else progress
    if kind == "reports":
        assert corpus is not None
        if sweep:
            raise CliError("--sweep is for the answer evaluations, not eval reports")
        with progress_bar(show_progress, f"eval reports {file.name}", "questions") as advance:
            reports = run_report_evaluation(
                file, corpus, split=split, policy=chosen, limit=limit, progress=advance
            )
        if json_output:
            print_json(reports.to_json())
        else:
            typer.echo(escape_controls(reports.table(), newlines=True))
        return
    if kind == "qa":
        assert corpus is not None
        with progress_bar(show_progress, f"eval qa {file.name}", "questions") as advance:
            qa_report = run_qa_evaluation(
                file, corpus, split=split, policy=chosen, limit=limit, sweep=sweep, progress=advance
            )
        if json_output:
            print_json(qa_report.to_json())
        else:
            typer.echo(escape_controls(qa_report.table(), newlines=True))
        return
    with progress_bar(show_progress, f"eval {kind} {file.name}", "questions") as advance:
        report = run_evaluation(
            kind, file, policy=chosen, limit=limit, sweep=sweep, progress=advance, split=split
        )
    if plot is not None:
        report.plot(plot)
    if json_output:
        print_json(report.to_json())
    else:
        typer.echo(escape_controls(report.table(), newlines=True))
        if plot is not None:
            typer.echo(escape_controls(f"plot written to {plot}"))
