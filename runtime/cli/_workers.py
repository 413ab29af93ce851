"""`submit` and `worker`: queue questions in a store with a run queue and drive them from many processes.

SQLite (the default store) serves workers on one machine; PostgreSQL, workers on many.
"""

from __future__ import annotations

import signal
from typing import Annotated

import anyio
import typer

from ._ask import BaseUrlOption, CorpusOption, MaxStepsOption, MinConfidenceOption, PolicyOption
from ._corpus import report_corpus
from ._errors import CliError
from ._options import DEFAULT_STORE, JsonOption, StoreOption, build_policy, load_corpus
from ._render import print_json


def submit(
    question: Annotated[str, typer.Argument(help="The question to queue.", show_default=False)],
    store: StoreOption = DEFAULT_STORE,
    corpus: CorpusOption = None,
    policy: PolicyOption = "extractive",
    base_url: BaseUrlOption = None,
    max_steps: MaxStepsOption = 6,
    min_confidence: MinConfidenceOption = None,
    as_json: JsonOption = False,
) -> None:
    """Queue QUESTION for `citeloop worker` (sqlite:// or postgresql:// store); prints the run id."""
    from citeloop.runtime import submit as submit_run

    if not question.strip():
        raise CliError("the question is empty")
    pages = load_corpus(corpus)
    report_corpus(pages)
    chosen = build_policy(policy, base_url=base_url, min_confidence=min_confidence)
    try:
        run_id = anyio.run(
            lambda: submit_run(store, question, tools=pages.tools(), policy=chosen, max_steps=max_steps)
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
        typer.Option("--max-runs", help="Stop after finishing this many runs.", show_default=False),
    ] = None,
) -> None:
    """Claim queued runs (sqlite:// or postgresql:// store) and drive them until Ctrl-C (or --max-runs)."""
    from citeloop.runtime import run_worker

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

        async with anyio.create_task_group() as group:
            group.start_soon(on_signal)
            finished = await run_worker(
                store,
                tools=pages.tools(),
                policy=chosen,
                concurrency=concurrency,
                stop=stop,
                max_runs=max_runs,
            )
            group.cancel_scope.cancel()
        return finished

    try:
        finished = anyio.run(work)
    finally:
        pages.close()
    typer.echo(f"worker stopped: {finished} run{'s' if finished != 1 else ''} finished", err=True)
