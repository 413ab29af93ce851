"""`citeloop fetch URL`: what the web `open` would admit for a URL, or the code of its refusal.

For debugging a deployment's SSRF guard (README, "The SSRF guard"): the same tool, the
same checks, the same caps as a run's `open`; nothing is recorded.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

import anyio
import typer
from citeloop.events import Observation, Page
from citeloop.tools import WebOpen

from ._errors import EXIT_ANSWERED, EXIT_ERROR
from ._escape import escape_controls
from ._options import JsonOption
from ._render import print_json

PREVIEW_LINES: Final = 10

FetchAllowHost = Annotated[
    list[str] | None,
    typer.Option(
        "--allow-host",
        metavar="HOST",
        help="A private host to trust (repeatable), e.g. an intranet name or 127.0.0.1.",
        show_default=False,
    ),
]
FetchAllowHttp = Annotated[
    bool, typer.Option("--allow-http", help="Admit plain http:// as well as https://.")
]


def fetch(
    url: Annotated[str, typer.Argument(help="The http(s) URL to try.", show_default=False)],
    allow_host: FetchAllowHost = None,
    allow_http: FetchAllowHttp = False,
    as_json: JsonOption = False,
) -> None:
    """Fetch URL as `open` would and print what it admits (title, final URL, size, digest, text) or why not.

    Exit 0 when the page is admitted, 1 when it is refused (the code says which rule:
    blocked: private_address, blocked: scheme, too_large, timeout, ...).
    """
    tool = WebOpen(allow_hosts=frozenset(allow_host or ()), allow_http=allow_http)
    observed: Observation = anyio.run(tool, url)
    document = describe(url, observed)
    if as_json:
        print_json(document)
    else:
        for line in _lines(document):
            typer.echo(escape_controls(line))
    raise typer.Exit(EXIT_ANSWERED if document["admitted"] else EXIT_ERROR)


def describe(url: str, observed: Observation) -> dict[str, Any]:
    """The JSON document of `citeloop fetch --json`: the admitted page's identity and text, or the refusal."""
    if not isinstance(observed, Page) or observed.source is None:
        code = getattr(observed, "code", observed.kind)
        message = getattr(observed, "message", "")
        return {"admitted": False, "url": url, "code": code, "message": message}
    source = observed.source
    return {
        "admitted": True,
        "url": observed.url,
        "requested_url": url,
        "title": observed.title,
        "status": source.status,
        "media_type": source.media_type,
        "bytes": source.size,
        "bytes_sha256": source.bytes_sha256,
        "text_sha256": observed.sha256,
        "extractor": source.extractor,
        "extractor_version": source.extractor_version,
        "retrieved_at": source.retrieved_at.isoformat(),
        "text": observed.body,
    }


def _lines(document: dict[str, Any]) -> list[str]:
    if not document["admitted"]:
        return [f"refused: {document['code']}: {document['message']}", f"url:        {document['url']}"]
    text_lines = [line for line in str(document["text"]).splitlines() if line.strip()]
    shown = text_lines[:PREVIEW_LINES]
    more = len(text_lines) - len(shown)
    return [
        f"admitted:   {document['title']}",
        f"url:        {document['url']}",
        f"status:     {document['status']} {document['media_type']}, {document['bytes']} bytes",
        f"sha256:     {document['bytes_sha256']} (bytes received)",
        f"extractor:  {document['extractor']} {document['extractor_version']}",
        "",
        *(f"  {line}" for line in shown),
        *([f"  ... {more} more lines"] if more > 0 else []),
    ]
