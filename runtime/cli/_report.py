"""`citeloop report` and `citeloop review`: report runs with footnotes (docs/reports.md)."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Annotated, Final, Literal

import anyio
import typer
from citeloop.events import AdmittedSource, OnCap, ReviewMode, open_store
from citeloop.policies import Reviewer, Writer, reviewer_from_spec, writer_from_spec
from citeloop.runtime import ReportOutcome, Runtime, submit_review

from ._ask import (
    AttachGeneratedOption,
    AttachOption,
    BaseUrlOption,
    CorpusOption,
    MaxStepsOption,
    PolicyOption,
    RequireOption,
    admit_attachments,
)
from ._corpus import open_corpus
from ._errors import EXIT_ABSTAINED, EXIT_ANSWERED, EXIT_FAILED, EXIT_INTERRUPTED, CliError
from ._feedback import run_spinner, wanted
from ._interrupt import until_interrupted
from ._options import DEFAULT_STORE, JsonOption, StoreOption, build_policy
from ._render import print_json
from ._report_render import print_report

# A report run that waits for a human review exits with its own code: it has not ended.
EXIT_WAITING: Final = 5
REPORT_EXIT_HELP: Final = (
    "Exit codes: 0 accepted, 2 refused (INSUFFICIENT GROUNDING), 4 failed (a model or a tool was "
    "unavailable), 5 waiting for a human review (`citeloop review RUN`), 130 interrupted, 1 a usage error."
)

WriterOption = Annotated[
    str,
    typer.Option(
        "--writer", help="Who writes the drafts: deterministic (default), openai:MODEL, anthropic:MODEL."
    ),
]
ReviewerOption = Annotated[
    str,
    typer.Option(
        "--reviewer", help="Who reviews them: deterministic (default), openai:MODEL, anthropic:MODEL."
    ),
]
ReviewOption = Annotated[
    str,
    typer.Option(
        "--review", help="policy (the reviewer reviews) or human (the run waits for `citeloop review`)."
    ),
]
MaxRevisionsOption = Annotated[
    int,
    typer.Option(
        "--max-revisions", help="Drafts after the first, whether validation or review asked for them."
    ),
]
OnCapOption = Annotated[
    str,
    typer.Option(
        "--on-cap",
        help="At the cap: refuse (INSUFFICIENT GROUNDING) or accept-validated (the last valid draft).",
    ),
]
OutputOption = Annotated[
    Path | None,
    typer.Option(
        "-o", "--output", help="Also write the accepted report's Markdown to this file.", show_default=False
    ),
]


def exit_code(outcome: ReportOutcome) -> int:
    if outcome.status == "accepted":
        return EXIT_ANSWERED
    if outcome.status in ("waiting", "running"):
        return EXIT_WAITING
    return {"failed": EXIT_FAILED, "cancelled": EXIT_INTERRUPTED}.get(outcome.run_status, EXIT_ABSTAINED)


def _roles(writer: str, reviewer: str, base_url: str | None) -> tuple[Writer, Reviewer]:
    try:
        return writer_from_spec(writer, base_url=base_url), reviewer_from_spec(reviewer, base_url=base_url)
    except ValueError as exc:
        raise CliError(str(exc)) from None


async def _aclose(*parts: object) -> None:
    for part in parts:
        aclose = getattr(part, "aclose", None)
        if aclose is not None:
            await aclose()


async def report_question(
    question: str,
    *,
    corpus: Path | None,
    store_url: str,
    policy_name: str,
    base_url: str | None,
    max_steps: int,
    writer: Writer,
    reviewer: Reviewer,
    review: ReviewMode,
    max_revisions: int,
    on_cap: OnCap,
    feedback: bool = False,
    sources: tuple[AdmittedSource, ...] = (),
    plan: tuple[str, ...] = (),
) -> ReportOutcome:
    """Research QUESTION over the corpus, then draft, validate and review its report."""
    pages = await open_corpus(corpus, feedback=feedback)
    policy = build_policy(policy_name, base_url=base_url, min_confidence=None)
    run_id = uuid.uuid4().hex
    try:
        with run_spinner(feedback) as watchers:
            async with (
                open_store(store_url) as store,
                Runtime(
                    store=store,
                    tools=pages.tools(),
                    policy=policy,
                    max_steps=max_steps,
                    watchers=watchers,
                    writer=writer,
                    reviewer=reviewer,
                ) as runtime,
            ):
                return await until_interrupted(
                    lambda: runtime.report(
                        question,
                        run_id=run_id,
                        review=review,
                        max_revisions=max_revisions,
                        on_cap=on_cap,
                        attachments=sources,
                        plan=plan,
                    ),
                    store,
                    run_id,
                )
    finally:
        await _aclose(policy, writer, reviewer)
        pages.close()


def report(
    question: Annotated[str, typer.Argument(help="The question the report answers.", show_default=False)],
    corpus: CorpusOption = None,
    store: StoreOption = DEFAULT_STORE,
    policy: PolicyOption = "extractive",
    base_url: BaseUrlOption = None,
    max_steps: MaxStepsOption = 6,
    writer: WriterOption = "deterministic",
    reviewer: ReviewerOption = "deterministic",
    review: ReviewOption = "policy",
    max_revisions: MaxRevisionsOption = 3,
    on_cap: OnCapOption = "refuse",
    output: OutputOption = None,
    as_json: JsonOption = False,
    attach: AttachOption = None,
    attach_generated: AttachGeneratedOption = None,
    require: RequireOption = None,
) -> None:
    """Research QUESTION and write a report whose every fact carries a footnote with a verbatim quote.

    Each draft is validated by code (no model) and reviewed; revisions are capped. With
    `--review human` the run waits after each validated draft for `citeloop review RUN`.
    """
    if not question.strip():
        raise CliError("the question is empty")
    if max_steps < 1:
        raise CliError(f"--max-steps must be at least 1, got {max_steps}")
    if max_revisions < 0:
        raise CliError(f"--max-revisions must be at least 0, got {max_revisions}")
    review_mode = _choice("--review", review, ("policy", "human"))
    cap_rule = _choice("--on-cap", on_cap, ("refuse", "accept-validated"))
    plan = tuple(require or ())
    if any(not item.strip() for item in plan):
        raise CliError("--require names an item of the research plan: it cannot be empty")
    sources = admit_attachments(attach, attach_generated)
    the_writer, the_reviewer = _roles(writer, reviewer, base_url)
    outcome = anyio.run(
        lambda: report_question(
            question,
            corpus=corpus,
            store_url=store,
            policy_name=policy,
            base_url=base_url,
            max_steps=max_steps,
            writer=the_writer,
            reviewer=the_reviewer,
            review=review_mode,  # type: ignore[arg-type]  # checked by _choice
            max_revisions=max_revisions,
            on_cap=cap_rule,  # type: ignore[arg-type]  # checked by _choice
            feedback=wanted(as_json),
            sources=sources,
            plan=plan,
        )
    )
    _finish(outcome, store, output, as_json)


def review(
    run_id: Annotated[
        str, typer.Argument(help="The report run that waits for a review.", show_default=False)
    ],
    accept: Annotated[bool, typer.Option("--accept", help="Accept the draft the run waits on.")] = False,
    revise: Annotated[
        str | None, typer.Option("--revise", help="Send the draft back to the writer with these notes.")
    ] = None,
    by: Annotated[str, typer.Option("--by", help="Who reviews (recorded as human:NAME).")] = "human",
    store: StoreOption = DEFAULT_STORE,
    writer: WriterOption = "deterministic",
    reviewer: ReviewerOption = "deterministic",
    base_url: BaseUrlOption = None,
    output: OutputOption = None,
    as_json: JsonOption = False,
    queue: Annotated[
        bool,
        typer.Option(
            "--queue",
            help="Record the verdict and queue the run: `citeloop worker` carries it on, not this process.",
        ),
    ] = False,
) -> None:
    """Give the human verdict a waiting report run awaits, and carry the run on from its log.

    `--revise` at the revision cap lifts the cap by one revision. The run continues in this
    process with the writer named here (the deterministic one by default); with `--queue`
    a worker continues it (a run submitted with `citeloop submit --report`).
    """
    if accept == (revise is not None):
        raise CliError("give exactly one verdict: --accept or --revise NOTES")
    if revise is not None and not revise.strip():
        raise CliError("--revise needs notes for the writer")
    verdict: Literal["ACCEPT", "REVISE"] = "ACCEPT" if accept else "REVISE"
    if queue:
        anyio.run(lambda: submit_review(store, run_id, verdict, notes=revise or "", by=by))
        if as_json:
            print_json({"run_id": run_id, "verdict": verdict, "status": "queued"})
        else:
            typer.echo(f"{verdict} recorded for run {run_id}: queued for a worker")
        return
    the_writer, the_reviewer = _roles(writer, reviewer, base_url)

    async def go() -> ReportOutcome:
        try:
            async with (
                open_store(store) as events,
                Runtime(
                    store=events,
                    tools=(),
                    policy=build_policy("extractive", base_url=None, min_confidence=None),
                    writer=the_writer,
                    reviewer=the_reviewer,
                ) as runtime,
            ):
                return await until_interrupted(
                    lambda: runtime.review(run_id, verdict, notes=revise or "", by=by), events, run_id
                )
        finally:
            await _aclose(the_writer, the_reviewer)

    _finish(anyio.run(go), store, output, as_json)


def _choice(option: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise CliError(f"{option} must be one of {', '.join(allowed)}, got {value!r}")
    return value


def _finish(outcome: ReportOutcome, store_url: str, output: Path | None, as_json: bool) -> None:
    if output is not None and outcome.status == "accepted":
        output.write_text(outcome.report, encoding="utf-8")
    if as_json:
        print_json(outcome.to_json())
    else:
        print_report(outcome, store_url)
    raise typer.Exit(exit_code(outcome))
