"""`citeloop ask`: run one question and print the answer with its evidence, or the refusal."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Annotated

import anyio
import typer
from citeloop.events import AdmittedSource, open_store
from citeloop.runtime import Outcome, Runtime
from citeloop.tools import Attachment, Corpus, Tool, admit_all

from ._corpus import open_corpus
from ._errors import EXIT_BY_STATUS, CliError
from ._feedback import run_spinner, wanted
from ._interrupt import until_interrupted
from ._options import DEFAULT_STORE, POLICY_NAMES, JsonOption, StoreOption, build_policy
from ._render import print_json, print_outcome
from ._sources import corpus_files, file_map
from ._web import AllowHostOption, AllowHttpOption, SearxOption, WebFlag, check_web_options, web_tools

CorpusOption = Annotated[
    Path | None,
    typer.Option(
        "--corpus",
        help="A folder of .txt/.md/.html files, or a .jsonl file of {url, title, body} (default: demo).",
        show_default=False,
    ),
]
PolicyOption = Annotated[str, typer.Option("--policy", help=f"Who decides: {POLICY_NAMES}.")]
BaseUrlOption = Annotated[
    str | None,
    typer.Option(
        "--base-url",
        help=(
            "Model server for the openai/anthropic policies (e.g. http://127.0.0.1:11434/v1); "
            "default: OPENAI_BASE_URL or ANTHROPIC_BASE_URL, each read by its own policy."
        ),
    ),
]
MaxStepsOption = Annotated[int, typer.Option("--max-steps", help="The step budget; spent, the run abstains.")]
AttachOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--attach",
        help="A file to admit as a source: text, Markdown, HTML, PDF, XLSX or CSV (repeatable).",
        show_default=False,
    ),
]
AttachGeneratedOption = Annotated[
    list[Path] | None,
    typer.Option(
        "--attach-generated",
        help="A file a model produced (a caption, a summary), admitted as `generated` evidence (repeatable).",
        show_default=False,
    ),
]
RequireOption = Annotated[
    list[str] | None,
    typer.Option(
        "--require",
        help="An item of the research plan a complete answer settles or discloses as a gap (repeatable).",
        show_default=False,
    ),
]
MinConfidenceOption = Annotated[
    float | None,
    typer.Option(
        "--min-confidence",
        help="Extractive policy: refuse below this confidence (0..1).",
        show_default=False,
    ),
]


async def ask_question(
    question: str,
    *,
    corpus: Path | None,
    store_url: str,
    policy_name: str,
    base_url: str | None,
    max_steps: int,
    min_confidence: float | None,
    feedback: bool = False,
    web: list[Tool] | None = None,
    sources: tuple[AdmittedSource, ...] = (),
    plan: tuple[str, ...] = (),
) -> Outcome:
    """Build the corpus, policy and store the options name, and run the question to its outcome.

    `web`, when given, are the tools to research with instead of a corpus (`ask --web`).
    With `feedback`, stderr shows the index being built and what the run awaits (`_feedback`).
    `sources` are the attachments, admitted already (`admit_attachments`); `plan` the research
    plan (`--require`, docs/evidence.md, "Completion").
    """
    if max_steps < 1:
        raise CliError(f"--max-steps must be at least 1, got {max_steps}")
    if min_confidence is not None and not 0.0 <= min_confidence <= 1.0:
        raise CliError(f"--min-confidence must be between 0 and 1, got {min_confidence}")
    pages: Corpus | None = None
    if web is None:
        pages = await open_corpus(corpus, feedback=feedback)
        tools = pages.tools()
    else:
        tools = web
    policy = build_policy(policy_name, base_url=base_url, min_confidence=min_confidence)
    run_id = uuid.uuid4().hex  # chosen here, so that an interruption can name the run
    try:
        with run_spinner(feedback) as watchers:
            async with (
                open_store(store_url) as store,
                Runtime(
                    store=store, tools=tools, policy=policy, max_steps=max_steps, watchers=watchers
                ) as runtime,
            ):
                return await until_interrupted(
                    lambda: runtime.run(question, run_id=run_id, attachments=sources, plan=plan),
                    store,
                    run_id,
                )
    finally:
        aclose = getattr(policy, "aclose", None)
        if aclose is not None:
            await aclose()
        if pages is not None:
            pages.close()


def admit_attachments(attach: list[Path] | None, generated: list[Path] | None) -> tuple[AdmittedSource, ...]:
    """The files `--attach` and `--attach-generated` name, admitted before anything is opened or recorded.

    A file that cannot be admitted is an `AttachmentError` (a usage error: one line, exit 1).
    """
    files = [Attachment(path) for path in attach or ()]
    files += [Attachment(path, generated=True) for path in generated or ()]
    return admit_all(files)


def ask(
    question: Annotated[str, typer.Argument(help="The question to research.", show_default=False)],
    corpus: CorpusOption = None,
    store: StoreOption = DEFAULT_STORE,
    policy: PolicyOption = "extractive",
    base_url: BaseUrlOption = None,
    max_steps: MaxStepsOption = 6,
    min_confidence: MinConfidenceOption = None,
    as_json: JsonOption = False,
    web: WebFlag = False,
    searx: SearxOption = None,
    allow_host: AllowHostOption = None,
    allow_http: AllowHttpOption = False,
    attach: AttachOption = None,
    attach_generated: AttachGeneratedOption = None,
    require: RequireOption = None,
) -> None:
    """Answer QUESTION with citations and quoted evidence, or refuse.

    Ctrl-C records the run as cancelled and says how to continue it (`citeloop resume RUN`).
    """
    if not question.strip():
        raise CliError("the question is empty")
    check_web_options(web, corpus is not None, allow_hosts=allow_host, allow_http=allow_http)
    plan = tuple(require or ())
    if any(not item.strip() for item in plan):
        raise CliError("--require names an item of the research plan: it cannot be empty")
    tools = web_tools(searx, allow_hosts=allow_host, allow_http=allow_http) if web else None
    sources = admit_attachments(attach, attach_generated)
    outcome = anyio.run(
        lambda: ask_question(
            question,
            corpus=corpus,
            store_url=store,
            policy_name=policy,
            base_url=base_url,
            max_steps=max_steps,
            min_confidence=min_confidence,
            feedback=wanted(as_json),
            web=tools,
            sources=sources,
            plan=plan,
        )
    )
    files = corpus_files(corpus)
    if as_json:
        cited = file_map(outcome.citations, files)
        print_json({**outcome.to_json(), "question": outcome.question, "files": cited})
    else:
        print_outcome(outcome, store, files)
    raise typer.Exit(EXIT_BY_STATUS[outcome.status])
