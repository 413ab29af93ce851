"""`submit` and `worker`: queue questions in a store with a run queue and drive them from many processes.

SQLite (the default store) serves workers on one machine; PostgreSQL, workers on many.
`submit --report` queues a report run (docs/reports.md, "Reports through workers"): one
that waits for a human review leaves the queue until `citeloop review RUN ... --queue`.
"""

from __future__ import annotations

import signal
from typing import Annotated, get_args

import anyio
import typer
from citeloop.events import OnCap, ReportRules, ReviewMode
from citeloop.policies import Reviewer, Writer, reviewer_from_spec, writer_from_spec

from ._ask import BaseUrlOption, CorpusOption, MaxStepsOption, MinConfidenceOption, PolicyOption
from ._corpus import report_corpus
from ._errors import CliError
from ._options import DEFAULT_STORE, JsonOption, StoreOption, build_policy, load_corpus
from ._render import print_json
from ._report import MaxRevisionsOption, OnCapOption, ReviewerOption, ReviewOption, WriterOption

ReportFlag = Annotated[
    bool, typer.Option("--report", help="Queue a report run: research, then drafts with footnotes.")
]


def _report_rules(
    writer: str, reviewer: str, base_url: str | None, review: str, max_revisions: int, on_cap: str
) -> ReportRules:
    """The rules a queued report run records; the writer and reviewer named are the workers' to use."""
    if review not in get_args(ReviewMode):
        raise CliError(f"--review must be one of {', '.join(get_args(ReviewMode))}, got {review!r}")
    if on_cap not in get_args(OnCap):
        raise CliError(f"--on-cap must be one of {', '.join(get_args(OnCap))}, got {on_cap!r}")
    if max_revisions < 0:
        raise CliError(f"--max-revisions must be at least 0, got {max_revisions}")
    # Built only for their names (an `openai:` one resolves its model from the environment).
    roles = writer_from_spec(writer, base_url=base_url), reviewer_from_spec(reviewer, base_url=base_url)
    anyio.run(_aclose, *roles)
    return ReportRules(
        writer=roles[0].name,
        reviewer=roles[1].name,
        review=review,  # checked above
        max_revisions=max_revisions,
        on_cap=on_cap,  # checked above
    )


async def _aclose(*roles: Writer | Reviewer) -> None:
    for role in roles:
        aclose = getattr(role, "aclose", None)
        if aclose is not None:
            await aclose()


def submit(
    question: Annotated[str, typer.Argument(help="The question to queue.", show_default=False)],
    store: StoreOption = DEFAULT_STORE,
    corpus: CorpusOption = None,
    policy: PolicyOption = "extractive",
    base_url: BaseUrlOption = None,
    max_steps: MaxStepsOption = 6,
    min_confidence: MinConfidenceOption = None,
    report: ReportFlag = False,
    review: ReviewOption = "policy",
    max_revisions: MaxRevisionsOption = 3,
    on_cap: OnCapOption = "refuse",
    writer: WriterOption = "deterministic",
    reviewer: ReviewerOption = "deterministic",
    as_json: JsonOption = False,
) -> None:
    """Queue QUESTION for `citeloop worker` (sqlite:// or postgresql:// store); prints the run id.

    With `--report` the run is a report run; the workers write and review its drafts with
    their own `--writer` and `--reviewer` (give them the same ones). With `--review human`
    it waits after each validated draft for `citeloop review RUN --accept|--revise NOTES --queue`.
    """
    from citeloop.runtime import submit as submit_run

    if not question.strip():
        raise CliError("the question is empty")
    chosen_report = (review, max_revisions, on_cap, writer, reviewer)
    if not report and chosen_report != ("policy", 3, "refuse", "deterministic", "deterministic"):
        raise CliError("--review, --max-revisions, --on-cap, --writer and --reviewer go with --report")
    rules = _report_rules(writer, reviewer, base_url, review, max_revisions, on_cap) if report else None
    pages = load_corpus(corpus)
    report_corpus(pages)
    chosen = build_policy(policy, base_url=base_url, min_confidence=min_confidence)
    try:
        run_id = anyio.run(
            lambda: submit_run(
                store, question, tools=pages.tools(), policy=chosen, max_steps=max_steps, report=rules
            )
        )
    finally:
        pages.close()
    if as_json:
        print_json({"run_id": run_id, "status": "queued", "question": question})
    else:
        typer.echo(run_id)


def worker(
    store: StoreOption = DEFAULT_STORE,
    corpus: CorpusOption = None,
    policy: PolicyOption = "extractive",
    base_url: BaseUrlOption = None,
    min_confidence: MinConfidenceOption = None,
    concurrency: Annotated[int, typer.Option("--concurrency", help="Runs driven at once.")] = 16,
    max_runs: Annotated[
        int | None,
        typer.Option(
            "--max-runs",
            help="Stop after finishing this many runs (a report run left waiting for a review counts).",
            show_default=False,
        ),
    ] = None,
    writer: WriterOption = "deterministic",
    reviewer: ReviewerOption = "deterministic",
) -> None:
    """Claim queued runs (sqlite:// or postgresql:// store) and drive them until Ctrl-C (or --max-runs).

    Report runs are written and reviewed by `--writer` and `--reviewer`; one that comes to
    wait for a human review leaves the queue until `citeloop review RUN ... --queue`.
    """
    from citeloop.runtime import run_worker

    the_writer = writer_from_spec(writer, base_url=base_url)
    the_reviewer = reviewer_from_spec(reviewer, base_url=base_url)
    pages = load_corpus(corpus)
    report_corpus(pages)
    chosen = build_policy(policy, base_url=base_url, min_confidence=min_confidence)

    async def work() -> int:
        stop = anyio.Event()

        async def on_signal() -> None:
            # A stop lets go of the runs in flight, so that other workers resume them.
            with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                async for _ in signals:
                    stop.set()
                    return

        try:
            async with anyio.create_task_group() as group:
                group.start_soon(on_signal)
                finished = await run_worker(
                    store,
                    tools=pages.tools(),
                    policy=chosen,
                    concurrency=concurrency,
                    stop=stop,
                    max_runs=max_runs,
                    writer=the_writer,
                    reviewer=the_reviewer,
                )
                group.cancel_scope.cancel()
        finally:
            with anyio.CancelScope(shield=True):
                await _aclose(the_writer, the_reviewer)
        return finished

    try:
        finished = anyio.run(work)
    finally:
        pages.close()
    typer.echo(f"worker stopped: {finished} run{'s' if finished != 1 else ''} finished", err=True)
