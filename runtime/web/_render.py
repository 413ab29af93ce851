"""The Jinja2 templates, autoescaped everywhere: every string from a log is untrusted text.

The same templates serve the app and `citeloop show --html`; an exported page carries its
stylesheet inline and no script at all (its own Content-Security-Policy forbids any).
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import quote

import jinja2
from markupsafe import Markup

from ._bodies import MAX_BODY_CHARS
from ._view import RunPage

# The export's own policy: styles inline (ours), nothing else may load or run.
EXPORT_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"


# What `check` found of the run's hash chain, in words (CheckReport.chain).
CHAINS = {
    "chained": "hash chain intact",
    "unchained": "no hash chain (written before it)",
    "broken": "hash chain broken",
}


def _when(value: datetime | None) -> str:
    return "" if value is None else value.strftime("%Y-%m-%d %H:%M:%S UTC")


def _clock(value: datetime | None) -> str:
    return "" if value is None else value.strftime("%H:%M:%S")


def _ms(value: float | None) -> str:
    if value is None:
        return ""
    return f"{value / 1000:.2f} s" if value >= 1000 else f"{value:.0f} ms"


def _path_part(value: str) -> str:
    """A value as one URL path segment (a run id from a log must not add segments or a scheme)."""
    return quote(value, safe="")


@cache
def environment() -> jinja2.Environment:
    """The one template environment; autoescape is on for every template, whatever its name."""
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("citeloop.runtime.web", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["when"] = _when
    env.filters["ms"] = _ms
    env.filters["clock"] = _clock
    env.filters["path_part"] = _path_part
    env.globals["max_body_chars"] = MAX_BODY_CHARS
    env.globals["chains"] = CHAINS
    return env


def static_text(name: str) -> str:
    """One of the app's static files, as text."""
    return resources.files("citeloop.runtime.web").joinpath("static", name).read_text(encoding="utf-8")


def render(template: str, **context: Any) -> str:
    """A template rendered for the app (stylesheet and script by URL, live updates on)."""
    context.setdefault("export", False)
    return environment().get_template(template).render(**context)


def export_run(page: RunPage, store_url: str) -> str:
    """One run's page as a self-contained HTML file: the stylesheet inline, no script, no live updates."""
    css = Markup(static_text("style.css"))  # our own stylesheet, not data from a log
    return (
        environment()
        .get_template("run.html")
        .render(page=page, store_url=store_url, export=True, css=css, csp=EXPORT_CSP, prefix="")
    )
