"""The `citeloop` command: the typer app and its entry point, which owns the exit codes."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Annotated

import typer
from citeloop.tools import Corpus

from ._ask import ask
from ._corpus import index_progress
from ._errors import EXIT_CODES_HELP, EXIT_ERROR, EXIT_INTERRUPTED, fail, interruption, user_error
from ._escape import escape_controls
from ._eval import eval_command
from ._feedback import wanted
from ._fetch import fetch
from ._fork import fork
from ._help import plain_help
from ._lifecycle import cancel, resume
from ._logging import LOG_FORMAT_ENV, LOG_LEVEL_ENV, LogFormat, LogLevel, configure_logging
from ._options import JsonOption
from ._render import print_json
from ._report import REPORT_EXIT_HELP, report, review
from ._runs import replay, runs, show, tail
from ._serve import serve
from ._sources import corpus_files
from ._transfer import export, import_run
from ._verify import verify
from ._where import where
from ._workers import submit, worker

app = typer.Typer(
    name="citeloop",
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Research agents that cite or refuse: every step is an event in an append-only log.",
    epilog=EXIT_CODES_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)


def _version(shown: bool) -> None:
    if shown:
        typer.echo(f"citeloop {metadata.version('citeloop')}")
        raise typer.Exit(0)


@app.callback()
def _setup(
    log_format: Annotated[
        LogFormat,
        typer.Option(
            "--log-format",
            envvar=LOG_FORMAT_ENV,
            show_envvar=True,
            help="Logs (on stderr): json lines, console lines, or auto (console on a terminal, else json).",
        ),
    ] = "auto",
    log_level: Annotated[
        LogLevel,
        typer.Option(
            "--log-level",
            envvar=LOG_LEVEL_ENV,
            show_envvar=True,
            help="The least severe citeloop log to write (other libraries: warning, or all at debug).",
        ),
    ] = "info",
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    # Logs go to stderr so that stdout carries only the result (one JSON document with --json).
    configure_logging(log_format, log_level)


app.command(epilog=EXIT_CODES_HELP)(ask)
app.command(epilog=EXIT_CODES_HELP)(resume)
app.command()(cancel)
app.command(epilog=EXIT_CODES_HELP)(fork)
app.command()(runs)
app.command()(show)
app.command()(replay)
app.command()(tail)
app.command()(export)
app.command("import")(import_run)
app.command()(submit)
app.command()(worker)
app.command("eval")(eval_command)
app.command()(verify)
app.command()(where)
app.command()(fetch)
app.command()(serve)
app.command(epilog=REPORT_EXIT_HELP)(report)
app.command(epilog=REPORT_EXIT_HELP)(review)


@app.command()
def index(
    path: Annotated[
        Path, typer.Argument(help="A folder of .txt/.md/.html files or a .jsonl file.", show_default=False)
    ],
    listed: Annotated[
        bool, typer.Option("--list", help="Also list every page's URL, and the file of each corpus:// URL.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Build (or refresh) the search index of a corpus; `ask --corpus PATH` then reuses it.

    On a terminal, a build shows a progress bar with its rate and time left on stderr.
    """
    with index_progress(path, wanted(as_json)) as progress:
        corpus = Corpus.from_path(path, progress=progress)
    try:
        pages = len(corpus)
        urls = sorted(corpus.urls()) if listed else []
        files = corpus_files(path)
        if as_json:
            index_path = None if corpus.index_path is None else str(corpus.index_path)
            document = {"path": str(path), "pages": pages, "rebuilt": corpus.rebuilt, "index": index_path}
            if listed:
                document["urls"] = [{"url": url, "file": _file(files(url))} for url in urls]
            print_json(document)
            return
        state = "built" if corpus.rebuilt else "up to date, reused"
        noun = "page" if pages == 1 else "pages"
        typer.echo(escape_controls(f"{pages} {noun} from {path}: index {state} at {corpus.index_path}"))
        for url in urls:
            source = files(url)
            typer.echo(escape_controls(f"  {url}" if source is None else f"  {url}  (file {source})"))
    finally:
        corpus.close()


def _file(path: Path | None) -> str | None:
    return None if path is None else str(path)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the command line and exit: 0 answered/ok, 2 abstained, 3 divergence found, 1 error.

    The parser's own usage errors exit 1 too (click's default would be 2, which here means
    "abstained").
    """
    plain_help()
    command = typer.main.get_command(app)
    args = list(argv) if argv is not None else sys.argv[1:]
    as_json = "--json" in args
    try:
        code = command.main(args=args, prog_name="citeloop", standalone_mode=False)
    except typer.TyperException as exc:  # the parser's errors: an unknown option, a missing argument
        if not exc.format_message().strip():  # no arguments at all: the help was printed
            sys.exit(0)
        context = getattr(exc, "ctx", None)
        hint = f" (see `{context.command_path} --help`)" if context is not None else ""
        fail(exc.format_message() + hint, EXIT_ERROR, as_json)
    except typer.Abort:
        sys.exit(EXIT_ERROR)
    except KeyboardInterrupt:  # before or after a run was driven: nothing to record
        sys.exit(EXIT_INTERRUPTED)
    except BaseException as exc:
        stopped = interruption(exc)
        if stopped is not None:
            fail(stopped.message(), EXIT_INTERRUPTED, as_json, prefix="citeloop: ", run_id=stopped.run_id)
        error = user_error(exc)
        if error is None:
            raise  # a bug: keep the traceback
        fail(str(error), EXIT_ERROR, as_json)
    sys.exit(code if isinstance(code, int) else 0)
