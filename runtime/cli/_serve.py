"""`citeloop serve` and `citeloop show --html`: the run viewer in the browser (the `web-ui` extra)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType
from typing import Annotated

import anyio
import typer

from ._errors import CliError
from ._options import DEFAULT_STORE, StoreOption, open_existing_store, store_exists

TOKEN_ENV = "CITELOOP_WEB_TOKEN"


def _web() -> ModuleType:
    """`citeloop.runtime.web`, or one clear line when its extra is not installed."""
    try:
        from citeloop.runtime import web
    except ImportError as exc:
        hint = "pip install 'citeloop[web-ui]'"
        raise CliError(f"the run viewer needs the web-ui extra: {hint} ({exc})") from None
    return web


def serve(
    store: StoreOption = DEFAULT_STORE,
    host: Annotated[
        str, typer.Option("--host", help="The address to listen on; beyond loopback, --token is required.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="The port to listen on.")] = 8765,
    token: Annotated[
        str | None,
        typer.Option(
            "--token",
            envvar=TOKEN_ENV,
            show_envvar=True,
            help="Require this token (16+ URL-safe characters): open the printed link; a cookie keeps it.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Browse the store's runs in a web browser, read-only: the run list, timelines, quotes in their pages.

    Runs in progress update as their events arrive. Stop with Ctrl-C.
    """
    web = _web()
    web.check_binding(host, token)
    if not store_exists(store):
        raise CliError(f"no store at {store}: nothing has been recorded there (check --store)")
    shown = f"[{host}]" if ":" in host else host
    link = f"http://{shown}:{port}/" + (f"?token={token}" if token else "")
    typer.echo(f"citeloop serve: {link} (read-only; Ctrl-C stops)")  # the one line of output
    web.serve(store, host=host, port=port, token=token)


def export_html(store: str, run_id: str, output: Path | None) -> None:
    """Write one run's page as a self-contained HTML file (stdout without `output`)."""
    web = _web()

    async def load() -> tuple[object, str]:
        async with open_existing_store(store) as opened:
            # The store's own URL, not the one given: it hides a password (the file is shared).
            return await web.load_run(opened, run_id), opened.url

    page, shown_url = anyio.run(load)
    html: str = web.export_run(page, shown_url)
    if output is None:
        sys.stdout.write(html)
        return
    output.write_text(html, encoding="utf-8")
    typer.echo(f"wrote {output} ({len(html.encode())} bytes)", err=True)
