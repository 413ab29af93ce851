"""`ask --web`: the options that point a run at the web, and the `search` and `open` tools they build.

`search` is a SearxNG instance (`--searx URL`, `CITELOOP_SEARX_URL`); `open` is the guarded
fetcher, which refuses private and internal addresses unless `--allow-host` names one and
plain http unless `--allow-http` is given (README, "Searching the web with SearxNG").
"""

from __future__ import annotations

from typing import Annotated, Final

import typer
from citeloop.tools import Tool, WebOpen, WebSearch

from ._errors import CliError

SEARX_ENV: Final = "CITELOOP_SEARX_URL"

WebFlag = Annotated[
    bool,
    typer.Option("--web", help="Search and open on the web (a SearxNG instance) instead of a corpus."),
]
SearxOption = Annotated[
    str | None,
    typer.Option(
        "--searx",
        metavar="URL",
        envvar=SEARX_ENV,
        show_envvar=True,
        help="The SearxNG instance --web searches, e.g. http://127.0.0.1:8888 (its JSON output enabled).",
        show_default=False,
    ),
]
AllowHostOption = Annotated[
    list[str] | None,
    typer.Option(
        "--allow-host",
        metavar="HOST",
        help="With --web: a private host open may fetch from (repeatable); others must be public.",
        show_default=False,
    ),
]
AllowHttpOption = Annotated[
    bool, typer.Option("--allow-http", help="With --web: let open fetch plain http:// pages, not only https.")
]


def web_tools(searx: str | None, *, allow_hosts: list[str] | None, allow_http: bool) -> list[Tool]:
    """`search` over the SearxNG at `searx` and the guarded `open`; a CliError when no instance is named."""
    if not searx:
        raise CliError(f"--web needs a SearxNG instance: --searx URL or {SEARX_ENV}")
    if not searx.startswith(("http://", "https://")):
        raise CliError(f"--searx must be an http(s) URL, got {searx!r}")
    return [
        WebSearch(searx),
        WebOpen(allow_hosts=frozenset(allow_hosts or ()), allow_http=allow_http),
    ]


def check_web_options(
    web: bool, corpus_given: bool, *, allow_hosts: list[str] | None, allow_http: bool
) -> None:
    """Refuse options that mean nothing together: --web with --corpus, web options without --web."""
    if web and corpus_given:
        raise CliError("--web and --corpus exclude each other: a run searches one or the other")
    if not web and (allow_hosts or allow_http):
        raise CliError("--allow-host and --allow-http apply to --web only")
